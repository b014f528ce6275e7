"""The solver's entry rules agree with the engine's ``Game.entry_options``.

For random sheets under many options and all three disciplines, every roll
is entered both ways: the same cells must be legal, and each must be worth
its points, bonuses and the value of the state it leads to.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from kniffel.rules import (
    ALL_ROLLS,
    UPPER_BONUS,
    ColumnSpec,
    Discipline,
    Edit,
    Enter,
    Game,
    Row,
    Variant,
    get_variant,
    possible_points,
)
from kniffel.solver.exact.entries import KNIFFEL_ROLLS, entry_values, final_values, row_values
from kniffel.solver.exact.sheet_space import UPPER_CAP, SheetSpace, SheetState, StateBatch

CONFIGS: list[tuple[Discipline, dict[str, Any]]] = [
    (Discipline.FREE, {}),
    (Discipline.FREE, {"kniffel_bonus": 100, "joker": "forced"}),
    (Discipline.FREE, {"kniffel_bonus": 100, "joker": "none"}),
    (Discipline.FREE, {"kniffel_bonus": 50, "joker": "free"}),
    (Discipline.FREE, {"zero_only_upper": True}),
    (Discipline.FREE, {"zero_only_upper": True, "joker": "none", "kniffel_bonus": 100}),
    (Discipline.FREE, {"zero_only_upper": True, "joker": "forced"}),
    (Discipline.FREE, {"pasch": "matching_dice", "chance": False, "joker": "forced"}),
    (Discipline.DOWN, {"kniffel_bonus": 100, "joker": "forced", "zero_only_upper": True}),
    (Discipline.DOWN, {"joker": "free"}),
    (Discipline.UP, {"kniffel_bonus": 100, "joker": "forced"}),
    (Discipline.UP, {"joker": "none", "chance": False, "zero_only_upper": True}),
]


def _random_sheet(game: Game, space: SheetSpace, rng: random.Random) -> None:
    """Fill a random set of rows the discipline can reach, with random possible points."""
    n = space.n_rows
    filled = rng.randrange(n)
    if space.discipline is Discipline.FREE:
        rows = rng.sample(range(n), filled)
    elif space.discipline is Discipline.DOWN:
        rows = list(range(filled))
    else:
        rows = list(range(n - 1, n - 1 - filled, -1))
    for j in rows:
        row = space.rows[j]
        cell = game.cell(row.value)
        choices = sorted(possible_points(row, game.options))
        points = rng.choice(choices)
        if row is Row.KNIFFEL:
            points = rng.choice([0, 50])
        # Enter something that is never refused, then correct it to the points wanted.
        game.push(Enter("Anna", cell, points=max(choices)))
        if points != max(choices):
            game.push(Edit("Anna", cell, points))


def _expected(
    space: SheetSpace, values: np.ndarray, state: SheetState, j: int, points: int, bonus: int
) -> float:
    row = space.rows[j]
    upper = state.upper
    worth = float(points + bonus)
    if row.is_upper:
        upper = min(UPPER_CAP, state.upper + points)
        if state.upper < UPPER_CAP <= state.upper + points:
            worth += UPPER_BONUS
    armed = state.armed or int(row is Row.KNIFFEL and points == 50)
    armed = min(armed, space.armed_values - 1)
    after = StateBatch(*(np.array([x]) for x in (state.mask | 1 << j, upper, armed)))
    return worth + float(values[space.index(*after)][0])


@pytest.mark.parametrize(("discipline", "options"), CONFIGS)
def test_entries_match_the_engine(discipline: Discipline, options: dict[str, Any]) -> None:
    variant_options = get_variant("kniffel", options).options
    variant = Variant("one", "One", (ColumnSpec("main", "Main", discipline),), variant_options)
    space = SheetSpace(variant_options, discipline)
    rng = random.Random(f"{discipline}-{sorted(options.items())}")
    values = np.random.default_rng(7).uniform(0, 300, space.size)
    rolls = list(range(len(ALL_ROLLS)))
    for _ in range(25):
        game = Game(variant, ["Anna"])
        _random_sheet(game, space, rng)
        state = space.state_of(game, "Anna", "main")
        worth = entry_values(space, values, state)
        for r in [*rng.sample(rolls, 60), *KNIFFEL_ROLLS.tolist()]:
            dice = ALL_ROLLS[r]
            engine = {space.rows.index(o.cell.row): o for o in game.entry_options("Anna", dice)}
            legal = {j for j in range(space.n_rows) if np.isfinite(worth[j, r])}
            assert legal == set(engine), (state, dice)
            for j, option in engine.items():
                expected = _expected(space, values, state, j, option.points, option.kniffel_bonus)
                assert worth[j, r] == pytest.approx(expected, abs=1e-9), (state, dice, j)


def test_state_of_reads_the_sheet() -> None:
    game = Game(get_variant("yahtzee"), ["Anna"])
    for row, points in (("sixes", 30), ("fives", 25), ("kniffel", 50), ("chance", 20)):
        game.push(Enter("Anna", game.cell(row), points=points))
    space = SheetSpace(game.options)
    state = space.state_of(game, "Anna", "main")
    assert state == SheetState((1 << 5) | (1 << 4) | (1 << 11) | (1 << 12), 55, 1)
    game.push(Enter("Anna", game.cell("fours"), points=20))
    assert space.state_of(game, "Anna", "main").upper == UPPER_CAP


@pytest.mark.parametrize(("discipline", "options"), CONFIGS)
def test_final_values_are_the_best_row_of_each_roll(
    discipline: Discipline, options: dict[str, Any]
) -> None:
    """The build's shortcut (:func:`final_values`) gives exactly the best of :func:`row_values`."""
    space = SheetSpace(get_variant("kniffel", options).options, discipline)
    values = np.random.default_rng(3).uniform(0, 300, space.size)
    levels = [space.states(n) for n in range(space.n_rows)]
    rng = np.random.default_rng(5)
    for level in levels:
        picked = rng.choice(len(level), size=min(len(level), 40), replace=False)
        batch = StateBatch(*(a[picked] for a in level))
        expected = np.full((len(ALL_ROLLS), len(batch)), -np.inf)
        for worth in row_values(space, values, batch):
            np.maximum(expected, worth, out=expected)
        np.testing.assert_array_equal(final_values(space, values, batch), expected)
