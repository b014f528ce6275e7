"""How sure the simulated win chances are: the 95 % intervals against exact chances.

Run: ``uv run python benchmarks/chances_intervals.py [--games G] [--repeats R] [--samples N ...]``.

First, where the exact chances start: over every entry of ``G`` seeded two-player games of
``kniffel`` and ``yahtzee``, per number of entries left to the player, the share of sheets
whose distribution is exact (at most ``EXACT_STATES`` reachable states; counted, not solved).

Where the board simulates (docs/solver.md, "Win chances"), each chance comes with a 95 %
interval from the simulated games. This script checks the intervals where the truth is
known: positions of seeded two-player Kniffel games of the best bot late enough for the
exact chances, valued again from ``N`` simulated games per player with ``R`` different seeds.
It prints, per ``N``, how often the interval holds the exact chance (it should be about 95 %),
the mean and the largest distance of the simulated chance from the exact one, and the mean
width of the interval.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from chances import interleaved

from kniffel.rules import Enter, Game, get_variant
from kniffel.solver.chances.distribution import turns_left
from kniffel.solver.chances.endgame import EXACT_STATES, reachable_states
from kniffel.solver.chances.forecast import forecast
from kniffel.solver.chances.interval import win_intervals
from kniffel.solver.chances.sampled import sample_finals
from kniffel.solver.chances.win import Pmf
from kniffel.solver.play.simulate import simulate


def positions(games: int, seed: int) -> list[Game]:
    """After every entry of ``games`` seeded games where both players' chances are exact."""
    variant = get_variant("kniffel")
    sims = simulate(variant, "best", 2 * games, seed, keep_logs=2 * games)
    found = []
    for g in range(games):
        whole = interleaved(sims, 2 * g, 2)
        game = Game(variant, whole.players)
        for event in whole.log:
            game.push(event)
            late = max(turns_left(game, p) for p in (0, 1)) <= 4
            if isinstance(event, Enter) and late and not game.is_finished:
                found.append(game.copy())
    return found


def reach(games: int, seed: int) -> None:
    """Per entries left, the share of sheets valued exactly, in both one-column presets."""
    presets = ("kniffel", "yahtzee")
    shares: dict[str, dict[int, list[bool]]] = {}
    for name in presets:
        variant = get_variant(name)
        sims = simulate(variant, "best", 2 * games, seed, keep_logs=2 * games)
        found: dict[int, list[bool]] = {}
        for g in range(games):
            whole = interleaved(sims, 2 * g, 2)
            game = Game(variant, whole.players)
            for event in whole.log:
                game.push(event)
                if not isinstance(event, Enter):
                    continue
                player = game.players.index(event.player)
                left = turns_left(game, player)
                if left:
                    found.setdefault(left, []).append(
                        reachable_states(game, player) <= EXACT_STATES
                    )
        shares[name] = found
    print(f"## Where the chances are exact: {games} games of each preset (seed {seed})\n")
    print("| entries left | " + " | ".join(f"`{n}` exact" for n in presets) + " |")
    print("| ---: |" + " ---: |" * len(presets))
    for left in sorted(shares[presets[0]]):
        cells = [f"{np.mean(shares[n].get(left, [False])):.0%}" for n in presets]
        print(f"| {left} | " + " | ".join(cells) + " |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--samples", type=int, action="append", help="60 and 200 unless given")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    os.environ.setdefault("KNIFFEL_CACHE_DIR", tempfile.mkdtemp(prefix="kniffel-bench-"))
    start = time.perf_counter()
    reach(args.games, args.seed)
    games = positions(args.games, args.seed)
    exact = []
    kept = []
    for game in games:
        found = forecast(game)
        if found.method == "exact":
            exact.append(found.players[0].win)
            kept.append(game)
    print(f"## Intervals against exact chances: {len(kept)} positions of {args.games} Kniffel")
    print(f"games (seed {args.seed}), {args.repeats} seeds each\n")
    print(
        "| games per player | intervals | hold the exact chance | mean \\|error\\| "
        "| largest \\|error\\| | mean width |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in args.samples or [60, 200]:
        inside, errors, widths = 0, [], []
        for game, truth in zip(kept, exact, strict=True):
            for r in range(args.repeats):
                pmfs, counts = [], []
                for p in (0, 1):
                    points = sample_finals(game, p, n, seed=1000 + r)
                    if len(points):
                        pmfs.append(Pmf.of_samples(game.total(p) + points))
                    else:
                        pmfs.append(Pmf(game.total(p), np.ones(1)))
                    counts.append(len(points))
                anna = win_intervals(pmfs, counts)[0]
                inside += anna.low - 1e-9 <= truth <= anna.high + 1e-9
                errors.append(abs(anna.win - truth))
                widths.append(anna.high - anna.low)
        total = len(errors)
        print(
            f"| {n} | {total} | {inside / total:.1%} | {np.mean(errors):.3f} "
            f"| {np.max(errors):.3f} | {np.mean(widths):.3f} |",
            flush=True,
        )
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
