"""A player page over years of games: ``/spieler/NAME`` and ``/api/players/NAME`` timed.

Run with ``uv run python benchmarks/players.py [--games 10000] [--db FILE]``. It builds an
SQLite database of ``--games`` finished two-player Kniffel games of Anna and Ben (random
legal games from the rules engine, ``kniffel.board.players.sample.fill``; kept in
``--db`` so a second run skips building), then prints

- the time to build the games and to summarise them once (what migration
  ``0003_player_results`` does for games finished before it),
- the player page ``/spieler/anna``, its three charts (SVG), its JSON ``/api/players/anna``,
  the start page with the leaderboard and ``/api/players``: median (p50), 99th percentile
  and maximum of ``--repeat`` requests through the app in this process (no network), with
  the target of 200 ms per page.

Figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from kniffel.board.players.sample import fill
from kniffel.settings import Settings
from kniffel.store import GameStore, ResultStore
from kniffel.web.app import create_app

TARGET_MS = 200.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--db", type=Path, default=None, help="SQLite file to build or reuse")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kniffel-players-"))
    path = args.db or folder / f"players-{args.games}.db"
    url = f"sqlite:///{path}"
    start = time.perf_counter()
    store = GameStore.open(url)
    print(f"opened (and migrated) the database in {time.perf_counter() - start:.1f} s")
    have = store.count()
    if have < args.games:
        start = time.perf_counter()
        fill(store, args.games - have, seed=have)
        print(f"built {args.games - have:,} finished games in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    summarised = ResultStore(store.engine).sync()
    print(f"summarised {summarised:,} games once in {time.perf_counter() - start:.1f} s")
    store.close()

    app = create_app(Settings(db=url))
    with TestClient(app) as client:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"{args.games:,} finished games; {args.repeat} requests each (ms); load {load}:")
        print(f"{'request':<22} {'p50':>8} {'p99':>8} {'max':>8}  target {TARGET_MS:.0f} ms")
        for label, target in [
            ("player page", "/spieler/anna"),
            ("  histogram SVG", "/spieler/anna/verteilung.svg?variant=kniffel"),
            ("  totals SVG", "/spieler/anna/punkte.svg"),
            ("  accuracy SVG", "/spieler/anna/genauigkeit.svg"),
            ("player JSON", "/api/players/anna"),
            ("players JSON", "/api/players"),
            ("start page", "/"),
        ]:
            assert client.get(target).status_code == 200  # warm: templates, first sync
            times = []
            for _ in range(args.repeat):
                begin = time.perf_counter()
                response = client.get(target)
                times.append(1000 * (time.perf_counter() - begin))
                assert response.status_code == 200
            p50 = statistics.median(times)
            p99 = statistics.quantiles(times, n=100, method="inclusive")[98]
            verdict = "ok" if p50 <= TARGET_MS else "over"
            print(f"{label:<22} {p50:8.1f} {p99:8.1f} {max(times):8.1f}  {verdict}")
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
