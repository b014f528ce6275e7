"""Opening the review (Spielbericht) of a finished two-player Rauf-Runter game, timed.

Run with ``uv run python benchmarks/review.py [--games 3] [--repeat 10]``. It makes the
Rauf-Runter tables ready (from the disk cache, or built once, not timed against the target),
stores ``--games`` finished two-player Rauf-Runter games of random legal moves with typed
dice (``kniffel.board.players.sample.random_record``, so every decision is rated) in a
throwaway SQLite board, and through the app in this process (no network) times

- the **first open** of ``/g/ID/analyse``: the analysis of every decision and the review,
  what a person waits for when nobody opened it before and the background review
  (docs/board.md, "Spieler und Bestenliste") has not done it yet;
- the **cached open**: the same page again (the review is kept per game version);
- the review's chart ``/g/ID/analyse/verlauf.svg`` and the JSON ``/api/games/ID/review``,
  first and cached;

printing the median and maximum over the games (first opens) and over ``--repeat`` requests
(cached), against the issue's target of 1 s, and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from kniffel.board.players.sample import random_record
from kniffel.rules import get_variant
from kniffel.settings import Settings
from kniffel.solver.builds import tables_for
from kniffel.solver.exact.column import solve_column
from kniffel.solver.raufrunter.bounds import arrow_table
from kniffel.web.app import create_app

TARGET_MS = 1000.0


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def _ms(client: TestClient, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    took = 1000 * (time.perf_counter() - start)
    assert response.status_code == 200, (url, response.status_code)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    variant = get_variant("rauf-runter")
    start = time.perf_counter()
    for table in tables_for(variant):
        if table.discipline is None:
            arrow_table(table.options)
        else:
            solve_column(table.options, table.discipline)
    print(f"tables ready in {time.perf_counter() - start:.1f} s (not part of the target)")
    folder = Path(tempfile.mkdtemp(prefix="kniffel-review-"))
    # Without the background review, so that the first open computes the review itself.
    settings = Settings(
        db=f"sqlite:///{folder / 'review.db'}", prebuild_tables=False, background=False
    )
    app = create_app(settings)
    rng = random.Random(7)
    first: dict[str, list[float]] = {"page": [], "chart": [], "json": []}
    cached: dict[str, list[float]] = {"page": [], "chart": [], "json": []}
    with TestClient(app) as client:
        service = app.state.service
        ids = []
        for _ in range(args.games):
            view = service.import_record(random_record("rauf-runter", ["Anna", "Ben"], rng))
            ids.append(view.id)
        print(f"load average before: {_load()}")
        for game_id in ids:
            urls = {
                "page": f"/g/{game_id}/analyse",
                "chart": f"/g/{game_id}/analyse/verlauf.svg",
                "json": f"/api/games/{game_id}/review",
            }
            first["page"].append(_ms(client, urls["page"]))  # analysis + review
            first["chart"].append(_ms(client, urls["chart"]))  # review kept; chart drawn
            first["json"].append(_ms(client, urls["json"]))
            for _ in range(args.repeat):
                for name, url in urls.items():
                    cached[name].append(_ms(client, url))
    print(f"{args.games} finished two-player Rauf-Runter games (ms), target {TARGET_MS:.0f} ms:")
    print(f"{'request':<28} {'p50':>8} {'max':>8}")
    for label, found in [
        ("review page, first open", first["page"]),
        ("review chart, first draw", first["chart"]),
        ("review JSON, after the page", first["json"]),
        ("review page, cached", cached["page"]),
        ("review chart, cached", cached["chart"]),
        ("review JSON, cached", cached["json"]),
    ]:
        verdict = "ok" if statistics.median(found) <= TARGET_MS else "over"
        print(f"{label:<28} {statistics.median(found):8.1f} {max(found):8.1f}  {verdict}")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
