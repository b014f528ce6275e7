"""How sure the simulated win chances are: the 95 % intervals against exact chances.

Run: ``uv run python benchmarks/chances_intervals.py [--games G] [--repeats R] [--samples N ...]
[--reasons P] [--left L] [--first] [--only-reasons]``.

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

Last, the same for the Tipp's simulated reasons (the chance of the upper bonus and of a
Kniffel, now and after each of the three best choices, as Rauf-Runter and Dreifach get them:
this turn exactly, the end states' seeded games to ±2 points): at ``P`` positions of seeded
two-player Kniffel games (dice after roll 1 or 2, at most ``L`` entries left to the player),
each figure's 95 % interval against the chance table's exact value. Figures the end states
settle (exactly 0 or 1, no games) are not counted, and a figure equal to another of its
position (an option that plays as the bot would) counts once. The figures of one position read
the same games, so they hold or miss together: the table also counts positions. With
``--first``: the first answers (``turn_ends.FIRST_WORK``), what the board shows while the final
figures are worked out; ``--only-reasons`` leaves out the win chances.
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


def reasons_calibration(count: int, most_left: int, seed: int, first: bool = False) -> None:
    """The simulated reasons' intervals against the exact chance table (one column); ``first``:
    the first answers'."""
    from tipp import positions as tipp_positions

    from kniffel.solver.advice.position import evaluate
    from kniffel.solver.advice.reasons import _exact, exact_chances
    from kniffel.solver.advice.turn_ends import estimate
    from kniffel.solver.exact.chance_table import column_chances
    from kniffel.solver.exact.dice_tables import ROLL_INDEX

    variant = get_variant("kniffel")
    column_chances(variant.options, variant.columns[0].discipline)
    table = exact_chances(variant.options, variant.columns[0].discipline)
    assert table is not None
    every = []
    game_seed = seed
    while len(every) < 4 * count:
        for game, dice, rolls in tipp_positions("kniffel", game_seed):
            player = game.current_player()
            if player is not None and turns_left(game, player) <= most_left:
                every.append((game, dice, rolls))
        game_seed += 1
    chosen = [every[int(i)] for i in np.linspace(0, len(every) - 1, count)]
    # Per figure: its position, the exact value, the simulated one, its half-width. A figure
    # the same as another of its position (an option that plays as the bot would) counts once.
    found: dict[str, set[tuple[int, float, float, float]]] = {"bonus": set(), "Kniffel": set()}
    games = []
    for number, (game, dice, rolls) in enumerate(chosen):
        actions = [c.action for c in evaluate(game).choices[:3]]
        roll = ROLL_INDEX[dice]
        now, after = _exact(game, table, roll, rolls, actions)
        simulated = estimate(game, roll, rolls, actions, first=first)
        games.append(simulated.games)
        for g, truth in enumerate([now, *after]):
            widths = simulated.half_widths[g]
            pairs = [("bonus", truth.bonus["main"], simulated.bonus[g]["main"], widths[0])]
            if truth.kniffel is not None:
                sim = simulated.kniffel[g]
                assert sim is not None
                pairs.append(("Kniffel", truth.kniffel, sim, widths[1]))
            for what, exact_value, sim_value, half in pairs:
                if half > 0:
                    figure = (number, round(exact_value, 12), round(sim_value, 12), half)
                    found[what].add(figure)
    print(
        f"## The Tipp's simulated reasons{' (first answers)' if first else ''} against exact "
        f"ones: {count} positions of Kniffel "
        f"games (seed {seed} on), at most {most_left} entries left, "
        f"{min(games)}..{max(games)} games each\n"
    )
    print(
        "| figure | figures | hold the exact chance | positions | every figure held "
        "| mean \\|error\\| | largest \\|error\\| | mean half-width |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for what, figures in found.items():
        if not figures:
            continue
        number, truth, sim, half = (np.array(c) for c in zip(*sorted(figures), strict=True))
        error = np.abs(sim - truth)
        held = error <= half + 1e-9
        where = sorted(set(number.tolist()))
        every_held = np.mean([held[number == n].all() for n in where])
        print(
            f"| {what} | {len(figures)} | {held.mean():.1%} | {len(where)} | {every_held:.1%} "
            f"| {error.mean():.3f} | {error.max():.3f} | {half.mean():.3f} |",
            flush=True,
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--samples", type=int, action="append", help="60 and 200 unless given")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reasons", type=int, default=24, help="positions for the reasons")
    parser.add_argument("--left", type=int, default=6, help="most entries left (reasons)")
    parser.add_argument("--first", action="store_true", help="the reasons' first answers")
    parser.add_argument("--only-reasons", action="store_true", help="no win chances")
    args = parser.parse_args()
    os.environ.setdefault("KNIFFEL_CACHE_DIR", tempfile.mkdtemp(prefix="kniffel-bench-"))
    start = time.perf_counter()
    if args.only_reasons:
        reasons_calibration(args.reasons, args.left, args.seed, args.first)
        print(f"({time.perf_counter() - start:.0f} s)")
        return
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
    print()
    if args.reasons:
        reasons_calibration(args.reasons, args.left, args.seed, args.first)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
