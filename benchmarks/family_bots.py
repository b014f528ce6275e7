"""Jamb and Yams bot figures: seeded solitaire games of ``greedy`` and ``best`` on the same dice.

Run: ``uv run python benchmarks/family_bots.py [--games N] [--yams-games N] [--seed S]
[--bots best,greedy] [--engine] [--minutes M] [--block B] [--save FILE.npz] [--first G]
[--combine FILE.npz ...]``
(defaults 200 Jamb and 100 Yams games a bot, seed 1). Prints the Markdown table of
docs/bot.md, "Jamb and Yams", with the milliseconds a game took on the clock and of the
process's CPU time (on a shared machine the second is the one to compare).

The games go through the light sheet of :mod:`kniffel.solver.play.family_fast` (the same
games as through the rules engine, many times faster); ``--engine`` plays them through
``Game`` instead, to compare the times. For the long runs: ``--minutes M`` starts no new
block of ``--block`` games (default 500) per variant and bot after M minutes and reports
the games played (game ``g`` throws the dice of ``default_rng([seed, g])`` whatever the
count, so a shorter run is the first games of a longer one), ``--save`` writes every
game's total and column totals after each block, and a line per block goes to stderr.
``--first G`` starts at game ``G`` (so that two processes can play two ranges of one long run on
two cores), and ``--combine A.npz B.npz ...`` prints the table of the games saved by such runs
together (without times: they were played by different processes).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from kniffel.rules import Variant, get_variant
from kniffel.solver.play.family import make_family_bot
from kniffel.solver.play.family_fast import simulate_light
from kniffel.solver.play.simulate import Simulation, simulate_family


@dataclass
class Run:
    """One variant and bot: its games so far, played block by block."""

    label: str
    key: str
    variant: Variant
    bot: str
    games: int
    totals: list[npt.NDArray[np.int64]] = field(default_factory=list)
    columns: list[npt.NDArray[np.int64]] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0

    @property
    def played(self) -> int:
        return sum(len(t) for t in self.totals)

    def add(self, simulation: Simulation, cpu: float) -> None:
        self.totals.append(simulation.totals)
        self.columns.append(simulation.column_totals)
        self.seconds += simulation.seconds
        self.cpu += cpu

    def row(self) -> str:
        if not self.seconds:  # combined from saved runs: no times
            return self._row("— | —")
        return self._row(
            f"{1000 * self.seconds / self.played:.1f} | {1000 * self.cpu / self.played:.1f}"
        )

    def _row(self, times: str) -> str:
        totals = np.concatenate(self.totals).astype(np.float64)
        columns = np.concatenate(self.columns).mean(axis=0)
        std = float(totals.std(ddof=1)) if len(totals) > 1 else 0.0
        means = " / ".join(f"{v:.1f}" for v in columns)
        return (
            f"| {self.label} | {self.bot} | {len(totals):,} | {totals.mean():.1f} ± "
            f"{std / np.sqrt(len(totals)):.1f} | {std:.1f} | {int(totals.min())} / "
            f"{int(totals.max())} | {means} | {times} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--yams-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="best,greedy")
    parser.add_argument("--engine", action="store_true", help="play through Game")
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--save", default=None, metavar="FILE.npz")
    parser.add_argument("--first", type=int, default=0, metavar="G")
    parser.add_argument("--combine", nargs="+", default=None, metavar="FILE.npz")
    args = parser.parse_args()
    if args.first < 0:
        parser.error("--first is a game number from 0")
    jamb = get_variant("jamb")
    yams = get_variant("yams", {"hand": True, "announce": True})
    runs = [
        Run(label, f"{key}_{bot}", variant, bot, games)
        for label, key, variant, games in (
            ("`jamb`", "jamb", jamb, args.games),
            ("`yams` with `hand` and `announce`", "yams", yams, args.yams_games),
        )
        for bot in args.bots.split(",")
        if games > 0
    ]
    if args.combine:
        for run in runs:
            for name in args.combine:
                with np.load(name) as saved:
                    if f"{run.key}_totals" in saved:
                        run.totals.append(saved[f"{run.key}_totals"])
                        run.columns.append(saved[f"{run.key}_columns"])
        print_table(runs)
        return
    bots = {run.key: make_family_bot(run.bot, run.variant, args.seed) for run in runs}
    deadline = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    # blocks taken in turn, so that a run stopped by --minutes has played each alike
    while any(run.played < run.games for run in runs):
        if deadline is not None and time.monotonic() >= deadline:
            break
        for run in runs:
            count = min(args.block, run.games - run.played)
            if count <= 0:
                continue
            play = simulate_family if args.engine else simulate_light
            cpu = time.process_time()
            first = args.first + run.played
            simulation = play(run.variant, bots[run.key], count, args.seed, first=first)
            run.add(simulation, time.process_time() - cpu)
            print(
                f"{time.strftime('%H:%M:%S')} {run.key}: {run.played:,} games, "
                f"{1000 * run.seconds / run.played:.1f} ms/game "
                f"({1000 * run.cpu / run.played:.1f} of CPU), "
                f"load {os.getloadavg()[0]:.1f}",
                file=sys.stderr,
                flush=True,
            )
            if args.save:
                np.savez(
                    args.save,
                    **{f"{r.key}_totals": np.concatenate(r.totals) for r in runs if r.totals},
                    **{f"{r.key}_columns": np.concatenate(r.columns) for r in runs if r.totals},
                )
    print_table(runs)


def print_table(runs: list[Run]) -> None:
    print(
        "| variant | bot | games | mean ± s.e. | std | min / max | column means | ms/game "
        "| CPU ms/game |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for run in runs:
        if run.totals:
            print(run.row(), flush=True)


if __name__ == "__main__":
    main()
