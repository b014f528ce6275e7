"""How fast the rules engine replays records and plays whole games.

Run with ``uv run python benchmarks/engine.py`` (``--help`` for the knobs). For each
preset it prints:

- replay throughput of long random records (rolls, entries with the roll, typed dice
  and points, edits, clears and undos), once through the JSON path
  ``replay(loads(text))`` and once engine-only (``Game.push`` of ready events);
- whole random games per second (random rolls and keeps, a random legal entry).

``--profile PRESET`` adds a cProfile of the JSON path of that preset's records.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from kniffel.record import loads, record_of, replay
from kniffel.rules import PRESETS, Event, Game, get_variant
from strategies import NAMES, play_game, random_event


def long_records(preset: str, rng: random.Random, count: int, events: int) -> list[Game]:
    """``count`` games of ``events`` random legal events each, 1 to 4 players."""
    games = []
    for _ in range(count):
        game = Game(get_variant(preset), NAMES[: rng.randint(1, 4)])
        while len(game.log) < events:
            random_event(game, rng)
        games.append(game)
    return games


def best_of(repeats: int, work: Callable[[], None]) -> float:
    """The fastest of ``repeats`` runs, in CPU seconds of this process.

    CPU time rather than wall time, and the best run, so that other work on a
    shared machine disturbs the figures as little as possible.
    """
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def replay_figures(games: list[Game], repeats: int) -> tuple[int, float, float, float]:
    """(events, events/s through replay(loads(text)), share of that time in loads(),
    events/s through Game.push of ready events)."""
    texts = [json.dumps(record_of(game)) for game in games]
    logs: list[tuple[Game, list[Event]]] = [(game, list(game.log)) for game in games]
    total = sum(len(log) for _, log in logs)

    def through_json() -> None:
        for text in texts:
            replay(loads(text))

    def reading_only() -> None:
        for text in texts:
            loads(text)

    def engine_only() -> None:
        for game, log in logs:
            fresh = Game(game.variant, game.players)
            for event in log:
                fresh.push(event)

    json_time = best_of(repeats, through_json)
    share = best_of(repeats, reading_only) / json_time
    return total, total / json_time, share, total / best_of(repeats, engine_only)


def games_per_second(preset: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """(whole random games per second, events per second while playing them)."""
    rng = random.Random(seed)
    variant = get_variant(preset)
    games = events = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        game = Game(variant, NAMES[:players])
        play_game(game, rng)
        games += 1
        events += len(game.log)
    return games / elapsed, events / elapsed


def profile_json_path(games: list[Game]) -> str:
    texts = [json.dumps(record_of(game)) for game in games]
    profiler = cProfile.Profile()
    profiler.enable()
    for text in texts:
        replay(loads(text))
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=20, help="records per preset")
    parser.add_argument("--events", type=int, default=2000, help="events per record")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the best counts")
    parser.add_argument("--seconds", type=float, default=2.0, help="time for whole games")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--profile", choices=list(PRESETS), help="profile the JSON path of this preset's records"
    )
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}; {args.records} records x {args.events} events")
    print(
        f"{'preset':<12} {'events':>8} {'replay(loads) ev/s':>19} {'in loads':>9}"
        f" {'Game.push ev/s':>15}"
    )
    profiled: list[Game] = []
    for preset in PRESETS:
        games = long_records(preset, random.Random(args.seed), args.records, args.events)
        if preset == args.profile:
            profiled = games
        total, json_rate, share, push_rate = replay_figures(games, args.repeats)
        print(f"{preset:<12} {total:>8} {json_rate:>19,.0f} {share:>9.0%} {push_rate:>15,.0f}")

    print()
    print(f"{'preset':<12} {'players':>7} {'games/s':>9} {'events/s':>10}")
    for preset in PRESETS:
        for players in (1, 4):
            rate, event_rate = games_per_second(preset, players, args.seconds, args.seed)
            print(f"{preset:<12} {players:>7} {rate:>9,.1f} {event_rate:>10,.0f}")

    if args.profile:
        print()
        print(profile_json_path(profiled))


if __name__ == "__main__":
    main()
