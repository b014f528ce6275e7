"""Final-score distributions: exact moments and simulation agree with direct simulation."""

from __future__ import annotations

import numpy as np
import pytest

from kniffel.rules import Dice, Discipline, Enter, Game, get_variant
from kniffel.solver.chances.calibration import load_calibration
from kniffel.solver.chances.distribution import (
    bot_expectations,
    simulate_finals,
    turns_left,
)
from kniffel.solver.chances.moments import column_moments
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.sheet_space import SheetSpace
from kniffel.solver.play.simulate import simulate

#: A Kniffel sheet with three rows open: three_kind, four_kind and kniffel.
LATE = [
    ("ones", "11456"),
    ("twos", "22256"),
    ("threes", "33312"),
    ("fours", "44123"),
    ("fives", "55512"),
    ("sixes", "66612"),
    ("full_house", "22333"),
    ("small_straight", "12346"),
    ("large_straight", "23456"),
    ("chance", "66554"),
]


def late_game(variant: str = "kniffel") -> Game:
    game = Game(get_variant(variant), ["Anna"])
    for row, dice in LATE:
        game.push(Enter("Anna", game.cell(row), dice=Dice.parse(dice)))
    return game


def test_moments_of_a_full_table_match_its_values() -> None:
    options = get_variant("kniffel").options
    table = solve_column(options, Discipline.DOWN)
    empty = table.space.state_of(Game(get_variant("kniffel"), ["A"]), "A", "main")
    start = column_moments(options, empty, Discipline.DOWN)
    assert start.mean == pytest.approx(table.ev, abs=1e-9)
    assert 25 < start.std < 45


def test_exact_moments_agree_with_direct_simulation() -> None:
    game = late_game()
    options = game.variant.options
    state = SheetSpace(options).state_of(game, "Anna", "main")
    moments = column_moments(options, state)
    finals = simulate_finals(game, [0], 3000, seed=5)[0]
    rest = finals - game.total("Anna")
    n = len(rest)
    assert moments.mean == pytest.approx(solve_column(options).value(state), abs=1e-9)
    assert abs(rest.mean() - moments.mean) < 4 * moments.std / np.sqrt(n)
    # the sample variance's standard error is about var * sqrt(2 / n) for a near-normal sum;
    # these totals are lumpy (a Kniffel is 0 or 50), so allow twice that
    assert rest.var(ddof=1) == pytest.approx(moments.variance, rel=8 * np.sqrt(2 / n))


def test_simulation_from_an_empty_sheet_is_the_bots_game() -> None:
    variant = get_variant("kniffel")
    game = Game(variant, ["A", "B"])
    finals = simulate_finals(game, [0, 1], 300, seed=3)
    both = np.concatenate([finals[0], finals[1]])
    direct = simulate(variant, "best", 600, seed=3).totals
    # two samples of the same law: means within 4 standard errors of their difference
    se = np.sqrt(both.var() / len(both) + direct.var() / len(direct))
    assert abs(both.mean() - direct.mean()) < 4 * se
    assert simulate_finals(game, [0, 1], 300, seed=3)[1].tolist() == finals[1].tolist()


def test_finished_sheets_need_no_simulation() -> None:
    game = late_game()
    for row, dice in [("three_kind", "33321"), ("four_kind", "11112"), ("kniffel", "12345")]:
        game.push(Enter("Anna", game.cell(row), dice=Dice.parse(dice)))
    assert turns_left(game, 0) == 0
    assert simulate_finals(game, [0], 10)[0].tolist() == [game.total("Anna")] * 10
    assert bot_expectations(game, [0]) == {0: 0.0}


@pytest.mark.parametrize(("variant", "bot_mean"), [("rauf-runter", 687.72), ("dreifach", 1682.25)])
def test_calibrated_start_is_the_bots_mean(variant: str, bot_mean: float) -> None:
    """An empty sheet's expected total is what the best bot scores (docs/bot.md's 100,000 and
    10,000 seeded games), within 3 points; a small seeded run here agrees within its error."""
    game = Game(get_variant(variant), ["A"])
    calibration = load_calibration(game.variant)
    assert calibration is not None
    expected = (
        game.total(0) + bot_expectations(game, [0])[0] + calibration.offset[turns_left(game, 0)]
    )
    assert abs(expected - bot_mean) < 3
    if variant == "rauf-runter":
        sim = simulate(game.variant, "best", 60, seed=11).totals
        assert abs(sim.mean() - expected) < 4 * sim.std() / np.sqrt(len(sim))


def test_no_calibration_under_house_rules() -> None:
    assert load_calibration(get_variant("rauf-runter", {"joker": "none"})) is None
    assert load_calibration(get_variant("rauf-runter")) is not None
