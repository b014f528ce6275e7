"""Jamb and Yams bot figures: seeded solitaire games of ``greedy`` and ``best`` on the same dice.

Run: ``uv run python benchmarks/family_bots.py [--games N] [--yams-games N] [--seed S]``
(defaults 200 Jamb and 100 Yams games a bot, seed 1: a few minutes on two cores; these
bots play through the rules engine, about a second a game). Prints the Markdown table of
docs/bot.md, "Jamb and Yams".
"""

from __future__ import annotations

import argparse

from kniffel.rules import Variant, get_variant
from kniffel.solver.play.simulate import simulate


def row(label: str, variant: Variant, bot: str, games: int, seed: int) -> str:
    s = simulate(variant, bot, games, seed).summary()
    columns = " / ".join(f"{v:.1f}" for v in s["column_mean"].values())
    return (
        f"| {label} | {bot} | {games:,} | {s['mean']:.1f} ± {s['stderr']:.1f} | {s['std']:.1f} "
        f"| {s['min']} / {s['max']} | {columns} | {1000 * s['seconds_per_game']:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--yams-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| variant | bot | games | mean ± s.e. | std | min / max | column means | ms/game |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |")
    jamb = get_variant("jamb")
    yams = get_variant("yams", {"hand": True, "announce": True})
    for label, variant, games in (
        ("`jamb`", jamb, args.games),
        ("`yams` with `hand` and `announce`", yams, args.yams_games),
    ):
        for bot in ("best", "greedy"):
            print(row(label, variant, bot, games, args.seed), flush=True)


if __name__ == "__main__":
    main()
