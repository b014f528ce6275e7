"""Reading a long stored game: the replay cache against replaying on every read.

Run with ``uv run python benchmarks/read.py [--events 20000] [--reads 50]``. It stores a
legal game of ``--events`` events (one player enters the Chance, then edits it again
and again) in a throwaway SQLite store, as a long game played on the board would be
stored, then times

- the first read (row, events, replay: what every read cost before the replay cache),
- a read once loaded (``GameService.get``: the row and the cached replay),
- ``GET /api/games/{id}`` once loaded (the whole HTTP answer, JSON included, in-process),
- the same for a game without events (what the HTTP path costs by itself),
- the start page with that game listed (the summary columns, no replay),

each as the median of ``--reads`` reads, and the first against the loaded read as a ratio.
Figures are wall-clock milliseconds on this machine; a busy machine inflates them.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.record import event_to_json, parse, replay
from kniffel.settings import Settings
from kniffel.store import NewGame, summary_of
from kniffel.store.replays import ReplayCache
from kniffel.web.app import create_app

MAX_EVENTS = 20_000


def record(events: int) -> dict[str, object]:
    first = {"type": "enter", "player": "Solo", "cell": "chance", "points": 20}
    edits = [
        {"type": "edit", "player": "Solo", "cell": "chance", "points": 5 + n % 26}
        for n in range(events - 1)
    ]
    return {
        "format": "kniffel-record/1",
        "variant": "kniffel",
        "players": ["Solo"],
        "events": [first, *edits],
    }


def store_long_game(service: GameService, events: int) -> str:
    """Store the record's game directly: an import takes fewer events (docs/cli.md), play more."""
    document = record(events)
    game = replay(parse(document))
    stored = service.store.create(
        NewGame(
            id=secrets.token_urlsafe(9),
            key=secrets.token_urlsafe(16),
            variant=game.variant.name,
            options=game.options.as_dict(),
            players=game.players,
            dice_mode="physical",
        ),
        [event_to_json(event) for event in game.log],
        summary=summary_of(game),
    )
    return stored.id


def median_ms(action: Callable[[], object], reads: int) -> float:
    times = []
    for _ in range(reads):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=MAX_EVENTS, help=f"1..{MAX_EVENTS}")
    parser.add_argument("--reads", type=int, default=50, help="reads per figure (1..500)")
    args = parser.parse_args()
    if not 1 <= args.events <= MAX_EVENTS:
        parser.error(f"--events must be between 1 and {MAX_EVENTS}")
    if not 1 <= args.reads <= 500:
        parser.error("--reads must be between 1 and 500")
    with tempfile.TemporaryDirectory(prefix="kniffel-read-") as tmp:
        settings = Settings(db=f"sqlite:///{Path(tmp) / 'read.db'}")
        with TestClient(create_app(settings)) as client:
            service: GameService = client.app.state.service  # type: ignore[attr-defined]
            game_id = store_long_game(service, args.events)
            cached = service.replays

            def cold() -> object:
                service.replays = ReplayCache()  # an empty cache: load and replay
                return service.get(game_id)

            first = median_ms(cold, max(1, min(args.reads, 10)))
            service.replays = cached
            service.get(game_id)
            loaded = median_ms(lambda: service.get(game_id), args.reads)
            http = median_ms(lambda: client.get(f"/api/games/{game_id}"), args.reads)
            home = median_ms(lambda: client.get("/"), args.reads)
            short = service.create("kniffel", {}, ["Solo"]).id
            client.get(f"/api/games/{short}")
            fresh = median_ms(lambda: client.get(f"/api/games/{short}"), args.reads)
    print(f"a stored game of {args.events} events, SQLite, medians of {args.reads} reads")
    print(f"  first read (load every event, replay)     {first:8.2f} ms")
    print(f"  read once loaded (GameService.get)        {loaded:8.2f} ms")
    print(f"  GET /api/games/ID once loaded (HTTP+JSON) {http:8.2f} ms")
    print(f"  the same for a game of no events          {fresh:8.2f} ms  (the HTTP path alone)")
    print(f"  GET / with the game listed (no replay)    {home:8.2f} ms")
    print(f"  first read / loaded read                  x{first / loaded:.0f}")


if __name__ == "__main__":
    main()
