"""The exact late-game distributions of :mod:`kniffel.solver.chances.finals`: against a brute
force over the dice, the exact table's value, and seeded simulation with the best bot."""

from __future__ import annotations

from functools import cache

import numpy as np

from kniffel.rules import Dice, Enter, Game, get_variant, keeps_of, outcome_probabilities
from kniffel.solver.chances.distribution import best_bot, simulate_finals
from kniffel.solver.chances.finals import LateFinals
from kniffel.solver.exact.turn import turn_value
from kniffel.solver.play.sheets import SheetBatch


def game_with(variant: str, entries: list[tuple[str, str]], players: int = 1) -> Game:
    """A game whose players all enter ``entries`` (cell, dice) in turn."""
    names = ["Anna", "Ben", "Cem"][:players]
    game = Game(get_variant(variant), names)
    for cell, dice in entries:
        for name in names:
            game.push(Enter(name, game.cell(cell), dice=Dice.parse(dice)))
    return game


def remaining(game: Game, player: int = 0) -> np.ndarray:
    finals = LateFinals(game.variant, best_bot(game.variant))
    return finals.of(finals.keys(SheetBatch.of_game(game, player)))[0]


def test_only_the_kniffel_open_is_a_kniffel_or_nothing() -> None:
    """One open row, the Kniffel: the bot maximises the chance of five of a kind in three
    rolls, so the points to come are 50 with that chance (brute force over every roll and
    keep, from the rules' dice alone) and 0 otherwise."""
    rows = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind"]
    rows += ["full_house", "small_straight", "large_straight", "chance"]
    game = game_with("kniffel", [(row, "12346") for row in rows])

    def kniffel(dice: Dice) -> float:
        return 1.0 if len(set(dice)) == 1 else 0.0

    outcomes = cache(lambda keep: list(outcome_probabilities(keep)))

    @cache
    def chance(dice: Dice, rolls_left: int) -> float:
        if rolls_left == 0:
            return kniffel(dice)
        return max(
            sum(p * chance(after, rolls_left - 1) for after, p in outcomes(keep))
            for keep in keeps_of(dice)
        )

    first = outcome_probabilities(())
    p = sum(q * chance(dice, 2) for dice, q in first)
    d = remaining(game)
    assert len(d) == 51
    np.testing.assert_allclose([d[0], d[50]], [1 - p, p], atol=1e-12)
    assert np.allclose(d[1:50], 0.0)
    assert 0.046 < p < 0.0461  # five of a kind in three rolls, the known 4.6 %


def test_the_mean_is_the_exact_tables_value() -> None:
    """Four rows open: the distribution sums to 1 and its mean is the solver's value."""
    game = game_with(
        "kniffel",
        [
            ("ones", "11456"),
            ("twos", "22256"),
            ("threes", "33312"),
            ("fives", "55512"),
            ("full_house", "22333"),
            ("small_straight", "12346"),
            ("large_straight", "23456"),
            ("chance", "66554"),
            ("three_kind", "44412"),
        ],
    )
    d = remaining(game)
    sheets = SheetBatch.of_game(game, 0)
    _, worth = best_bot(game.variant).worth(sheets)
    assert abs(d.sum() - 1) < 1e-12
    assert abs(d @ np.arange(len(d)) - float(turn_value(worth.max(axis=1))[0])) < 1e-9


def test_rauf_runter_late_distribution_matches_seeded_simulation() -> None:
    """Three columns, four entries left: the exact distribution against 2,000 games of the
    best bot from the same sheet (Kolmogorov-Smirnov distance, seeded)."""
    game = Game(get_variant("rauf-runter"), ["Anna"])
    rows = [r.value for r in game.rows]
    dice = "12346"
    for i, row in enumerate(rows[:-1]):  # ↓ all but Chance, ↑ all but Einser
        game.push(Enter("Anna", game.cell(f"down.{row}"), dice=Dice.parse(dice)))
        game.push(Enter("Anna", game.cell(f"up.{rows[-1 - i]}"), dice=Dice.parse(dice)))
    free = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind"]
    free += ["full_house", "small_straight", "large_straight"]
    for row in free:
        game.push(Enter("Anna", game.cell(f"free.{row}"), dice=Dice.parse("66666")))
    sheets = SheetBatch.of_game(game, 0)
    assert int(39 - sheets.filled_count()[0]) == 4
    d = remaining(game)
    samples = simulate_finals(game, [0], 2000, seed=3)[0] - int(sheets.totals()[0])
    simulated = np.bincount(samples, minlength=len(d)) / len(samples)
    assert len(simulated) == len(d)
    distance = np.abs(np.cumsum(simulated) - np.cumsum(d)).max()
    assert distance < 0.045, distance  # 99.9 %: 1.95 / sqrt(2000)
    assert abs(samples.mean() - d @ np.arange(len(d))) < 4 * samples.std() / np.sqrt(2000)


def test_a_full_cache_starts_afresh_with_the_same_figures() -> None:
    game = game_with(
        "kniffel",
        [(r, "12346") for r in ["ones", "twos", "threes", "fours", "fives", "sixes"]]
        + [(r, "66612") for r in ["three_kind", "four_kind", "full_house", "small_straight"]],
    )
    variant = game.variant
    finals = LateFinals(variant, best_bot(variant), limit=10)
    keys = finals.keys(SheetBatch.of_game(game, 0))
    first = finals.of(keys)[0]
    assert len(finals.cache) > 10
    again = finals.of(keys)[0]  # cleared, solved again
    np.testing.assert_array_equal(first, again)
    assert len(finals.cache) > 1
