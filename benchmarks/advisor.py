"""Advice and analysis figures for every preset: Tipp latency once the tables are loaded.

Run: ``uv run python benchmarks/advisor.py [--games N]``. Plays N games per preset
with the advised actions and random dice, timing every call of
:func:`kniffel.solver.advice.position.advise` (the first call of each turn computes the
turn, the next ones reuse it), then times the analysis of each game. Tables
load from (or are built into) a temporary cache dir; loading is not timed.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

import numpy as np

from kniffel.rules import Dice, Game, RollAction, get_variant
from kniffel.solver.advice.analysis import analyse
from kniffel.solver.advice.position import advise

PRESETS = ("kniffel", "yahtzee", "rauf-runter", "dreifach")


def play(variant: str, seed: int, latencies: list[float]) -> Game:
    """One two-player game played by the advice, every advice call timed."""
    game = Game(get_variant(variant), ["Anna", "Ben"])
    rng = random.Random(seed)
    while not game.is_finished:
        start = time.perf_counter()
        action = advise(game).best
        latencies.append(time.perf_counter() - start)
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per preset")
    args = parser.parse_args()
    print(
        f"{'preset':<12} {'calls':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'analyse s':>10}"
    )
    for variant in PRESETS:
        play(variant, -1, [])  # loads the tables
        latencies: list[float] = []
        games = [play(variant, seed, latencies) for seed in range(args.games)]
        start = time.perf_counter()
        for game in games:
            analyse(game)
        per_game = (time.perf_counter() - start) / len(games)
        ms = np.array(latencies) * 1000
        p50, p99 = np.percentile(ms, [50, 99])
        print(
            f"{variant:<12} {len(ms):>6} {p50:>7.2f} {p99:>7.2f} {ms.max():>7.2f} {per_game:>10.3f}"
        )


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="kniffel-bench-") as folder:
        os.environ.setdefault("KNIFFEL_CACHE_DIR", folder)
        main()
