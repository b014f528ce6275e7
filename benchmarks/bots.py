"""Bot figures: seeded solitaire games of every bot, beside the Rauf-Runter bounds.

Run: ``uv run python benchmarks/bots.py [--games N] [--others N] [--seed S]``
(``--games`` for Rauf-Runter, default 100,000: about 20 minutes on two cores;
``--others`` for the other presets). Prints a Markdown table for docs/bot.md.
The bot ``plan`` is the Rauf-Runter bot without its learned correction.
"""

from __future__ import annotations

import argparse
import time

from kniffel.rules import Variant, get_variant
from kniffel.solver.play.bots import Bot, ValueBot
from kniffel.solver.play.simulate import simulate
from kniffel.solver.raufrunter.bounds import solve_bounds
from kniffel.solver.raufrunter.value import RaufRunterValue


def row(variant: Variant, bot: str | Bot, games: int, seed: int) -> str:
    result = simulate(variant, bot, games, seed)
    s = result.summary()
    p = s["percentiles"]
    bonus = " / ".join(f"{v:.1%}" for v in s["bonus_rate"].values())
    kniffel = " / ".join(f"{v:.1%}" for v in s["kniffel_rate"].values())
    return (
        f"| `{variant.name}` | {s['bot']} | {games:,} | {s['mean']:.2f} ± {s['stderr']:.2f} "
        f"| {s['std']:.1f} | {p['5']:g} / {p['50']:g} / {p['95']:g} | {bonus} | {kniffel} "
        f"| {1000 * s['seconds_per_game']:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--others", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rr = get_variant("rauf-runter")
    start = time.perf_counter()
    print("| bound | value |\n| --- | ---: |")
    for key, value in solve_bounds(rr.options).items():
        print(f"| `{key}` | {value:.2f} |")
    print()
    print(
        "| preset | bot | games | mean ± s.e. | std | p5 / p50 / p95 | bonus rate "
        "| Kniffel rate | ms/game |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    plan = ValueBot("plan", RaufRunterValue(rr.options))
    for bot in ("best", plan, "greedy", "random"):
        print(row(rr, bot, args.games, args.seed), flush=True)
    for name in ("kniffel", "yahtzee", "dreifach"):
        for bot in ("best", "greedy", "random"):
            print(row(get_variant(name), bot, args.others, args.seed), flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
