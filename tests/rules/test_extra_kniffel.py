"""A further Kniffel (bonus and joker), zero_only_upper and points entries (docs/rules.md §5-§7)."""

from __future__ import annotations

from typing import Any

import pytest

from kniffel.rules import ROWS as KNIFFEL_ROWS
from kniffel.rules import (
    Clear,
    Dice,
    Edit,
    Enter,
    EntryOption,
    Game,
    IllegalMoveError,
    InvalidPointsError,
    Row,
)

from .moves import enter, fill, new_game, refused

UPPER_ROWS = [r.value for r in KNIFFEL_ROWS][:6]
LOWER_UP_ORDER = [r.value for r in reversed(KNIFFEL_ROWS)][:7]  # chance .. three_kind
LOWER_BUT_KNIFFEL = [row for row in LOWER_UP_ORDER if row != "kniffel"]


def points(game: Game, cell: str) -> int | None:
    return game.points("Anna", game.cell(cell))


def bonus(game: Game, cell: str) -> int:
    return game.cell_bonus("Anna", game.cell(cell))


def refuse_entry(game: Game, cell: str, dice: str) -> str:
    event = Enter("Anna", game.cell(cell), Dice.parse(dice))
    return refused(game, event, IllegalMoveError)


# ------------------------------------------------------------------ the bonus


def test_a_further_kniffel_earns_the_bonus_in_the_receiving_column() -> None:
    game = new_game("kniffel", kniffel_bonus=100)
    enter(game, "kniffel", dice="33333")
    assert game.is_extra_kniffel("Anna", Dice.parse("66666"))
    enter(game, "sixes", dice="66666")
    assert (points(game, "sixes"), bonus(game, "sixes")) == (30, 100)
    totals = game.column_totals("Anna", "main")
    assert (totals.upper, totals.lower, totals.kniffel_bonus, totals.total) == (30, 50, 100, 180)


def test_the_bonus_needs_a_fifty_in_some_kniffel_cell() -> None:
    game = new_game("kniffel", kniffel_bonus=100)
    enter(game, "kniffel", points=0)
    enter(game, "sixes", dice="66666")
    assert (points(game, "sixes"), bonus(game, "sixes")) == (30, 0)


def test_no_bonus_while_the_option_is_zero() -> None:
    game = new_game("kniffel")
    enter(game, "kniffel", points=50)
    enter(game, "sixes", dice="66666")
    assert bonus(game, "sixes") == 0


def test_before_every_kniffel_cell_is_filled_a_kniffel_is_an_ordinary_roll() -> None:
    game = new_game("rauf-runter", kniffel_bonus=100)
    enter(game, "free.kniffel", dice="22222")
    assert not game.is_extra_kniffel("Anna", Dice.parse("44444"))
    enter(game, "free.full_house", dice="44444")
    assert (points(game, "free.full_house"), bonus(game, "free.full_house")) == (0, 0)
    enter(game, "up.chance", dice="44444")
    message = refuse_entry(game, "down.kniffel", "55555")
    assert message == "down.kniffel is not due; the due cell of down is ones"
    enter(game, "up.kniffel", dice="55555")
    assert (points(game, "up.kniffel"), bonus(game, "up.kniffel")) == (50, 0)


def test_dreifach_credits_the_bonus_to_the_column_and_multiplies_it() -> None:
    game = new_game("dreifach", kniffel_bonus=100)
    enter(game, "x1.kniffel", points=0)
    enter(game, "x2.kniffel", points=50)
    enter(game, "x3.kniffel", points=0)
    enter(game, "x3.threes", dice="33333")
    enter(game, "x1.chance", dice="11111")
    x1, x2, x3 = (game.column_totals("Anna", c) for c in ("x1", "x2", "x3"))
    assert (x1.kniffel_bonus, x1.total) == (100, 105)
    assert (x2.kniffel_bonus, x2.total) == (0, 100)
    assert (x3.kniffel_bonus, x3.total) == (100, 3 * (15 + 100))
    assert game.total("Anna") == 105 + 100 + 345


def test_the_bonus_stays_on_edits_and_goes_with_a_clear() -> None:
    game = new_game("kniffel", kniffel_bonus=100)
    enter(game, "kniffel", points=50)
    enter(game, "fours", dice="44444")
    game.push(Edit("Anna", game.cell("fours"), 8))
    assert bonus(game, "fours") == 100
    game.push(Edit("Anna", game.cell("kniffel"), 0))
    assert bonus(game, "fours") == 100
    assert game.column_totals("Anna", "main").kniffel_bonus == 100
    game.push(Clear("Anna", game.cell("fours")))
    assert bonus(game, "fours") == 0
    assert game.column_totals("Anna", "main").kniffel_bonus == 0


def test_points_entries_never_earn_the_bonus_or_use_the_joker() -> None:
    game = new_game("yahtzee")
    enter(game, "kniffel", points=50)
    enter(game, "full_house", points=25)  # with dice 44444 the joker would force fours
    enter(game, "sixes", points=30)
    assert bonus(game, "full_house") == bonus(game, "sixes") == 0
    assert game.column_totals("Anna", "main").kniffel_bonus == 0


# ------------------------------------------------------------------ the joker


@pytest.mark.parametrize(
    ("cell", "score"),
    [
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("three_kind", 20),
        ("four_kind", 20),
        ("chance", 20),
        ("fours", 20),
        ("ones", 0),
    ],
)
def test_free_joker_scores_full_values_in_any_allowed_cell(cell: str, score: int) -> None:
    game = new_game("kniffel")
    enter(game, "kniffel", points=50)
    enter(game, cell, dice="44444")
    assert points(game, cell) == score


@pytest.mark.parametrize(
    ("cell", "score"),
    [("full_house", 0), ("small_straight", 0), ("large_straight", 0), ("fours", 20), ("ones", 0)],
)
def test_no_joker_scores_as_usual(cell: str, score: int) -> None:
    game = new_game("kniffel", joker="none")
    enter(game, "kniffel", points=50)
    enter(game, cell, dice="44444")
    assert points(game, cell) == score


def test_the_joker_applies_when_the_kniffel_cell_holds_zero() -> None:
    game = new_game("kniffel")
    enter(game, "kniffel", points=0)
    enter(game, "large_straight", dice="22222")
    assert points(game, "large_straight") == 40


def test_forced_joker_takes_the_matching_upper_cell_first() -> None:
    game = new_game("yahtzee")
    enter(game, "kniffel", points=50)
    message = refuse_entry(game, "full_house", "44444")
    assert message == "joker: the Kniffel must go into fours"
    refuse_entry(game, "ones", "44444")
    assert game.entry_options(dice=Dice.parse("44444")) == [
        EntryOption(game.cell("fours"), 20, kniffel_bonus=100, joker=True)
    ]
    enter(game, "fours", dice="44444")
    assert (points(game, "fours"), bonus(game, "fours")) == (20, 100)


def test_forced_joker_then_the_lower_block_with_full_values() -> None:
    game = new_game("yahtzee")
    enter(game, "kniffel", points=50)
    enter(game, "fours", points=8)
    message = refuse_entry(game, "ones", "44444")
    assert (
        message
        == "joker: the Kniffel must go into the lower block, since its upper row is not open"
    )
    options = game.entry_options(dice=Dice.parse("44444"))
    assert {str(o.cell.row): o.points for o in options} == {
        "three_kind": 20,
        "four_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    enter(game, "small_straight", dice="44444")
    assert (points(game, "small_straight"), bonus(game, "small_straight")) == (30, 100)


def test_forced_joker_last_an_upper_cell_scoring_zero() -> None:
    game = new_game("yahtzee")
    enter(game, "kniffel", points=50)
    fill(game, "fours", *LOWER_BUT_KNIFFEL)
    options = game.entry_options(dice=Dice.parse("44444"))
    assert {str(o.cell.row) for o in options} == {"ones", "twos", "threes", "fives", "sixes"}
    enter(game, "twos", dice="44444")
    assert (points(game, "twos"), bonus(game, "twos")) == (0, 100)


def rauf_runter_with_every_kniffel_filled(**options: Any) -> Game:
    """Down filled to its Kniffel (50), up to its Kniffel (0), free Kniffel 0; up is due at
    large_straight, down at chance."""
    game = new_game("rauf-runter", **options)
    fill(game, *(f"down.{row}" for row in UPPER_ROWS))
    fill(game, "down.three_kind", "down.four_kind", "down.full_house")
    fill(game, "down.small_straight", "down.large_straight")
    enter(game, "down.kniffel", points=50)
    fill(game, "up.chance")
    enter(game, "up.kniffel", points=0)
    enter(game, "free.kniffel", points=0)
    return game


def test_forced_joker_in_rauf_runter_needs_a_matching_cell_that_is_allowed() -> None:
    game = rauf_runter_with_every_kniffel_filled(joker="forced", kniffel_bonus=100)
    assert refuse_entry(game, "up.large_straight", "44444") == (
        "joker: the Kniffel must go into free.fours"
    )
    enter(game, "free.fours", dice="44444")
    assert (points(game, "free.fours"), bonus(game, "free.fours")) == (20, 100)
    assert game.column_totals("Anna", "free").kniffel_bonus == 100
    assert game.column_totals("Anna", "up").kniffel_bonus == 0


def test_forced_joker_names_every_matching_cell() -> None:
    game = rauf_runter_with_every_kniffel_filled(joker="forced")
    fill(game, *(f"up.{row}" for row in LOWER_UP_ORDER[2:]), "up.sixes", "up.fives")
    assert game.due_row("Anna", "up") is Row.FOURS
    message = refuse_entry(game, "down.chance", "44444")
    assert message == "joker: the Kniffel must go into up.fours or free.fours"
    enter(game, "up.fours", dice="44444")
    assert points(game, "up.fours") == 20


def test_forced_joker_ignores_an_upper_cell_that_is_not_due() -> None:
    game = rauf_runter_with_every_kniffel_filled(joker="forced")
    fill(game, "free.fours")  # up.fours is empty but not due
    refuse_entry(game, "free.ones", "44444")
    enter(game, "up.large_straight", dice="44444")
    assert points(game, "up.large_straight") == 40


def test_forced_joker_with_no_lower_cell_allowed_in_any_column() -> None:
    game = rauf_runter_with_every_kniffel_filled(joker="forced", kniffel_bonus=100)
    fill(game, "down.chance", *(f"up.{row}" for row in LOWER_UP_ORDER[2:]))
    fill(game, *(f"free.{row}" for row in LOWER_BUT_KNIFFEL), "free.twos")
    allowed = [str(c) for c in game.allowed_cells()]
    assert allowed == [
        "up.sixes",
        "free.ones",
        "free.threes",
        "free.fours",
        "free.fives",
        "free.sixes",
    ]
    enter(game, "up.sixes", dice="22222")
    assert (points(game, "up.sixes"), bonus(game, "up.sixes")) == (0, 100)


def test_free_joker_in_rauf_runter_uses_any_allowed_cell() -> None:
    game = rauf_runter_with_every_kniffel_filled()
    enter(game, "up.large_straight", dice="55555")
    assert points(game, "up.large_straight") == 40
    message = refuse_entry(game, "up.full_house", "55555")
    assert message == "up.full_house is not due; the due cell of up is small_straight"


def test_no_joker_in_rauf_runter_scores_as_usual_in_any_allowed_cell() -> None:
    game = rauf_runter_with_every_kniffel_filled(joker="none", kniffel_bonus=100)
    enter(game, "up.large_straight", dice="55555")
    assert (points(game, "up.large_straight"), bonus(game, "up.large_straight")) == (0, 100)
    enter(game, "free.ones", dice="55555")
    assert points(game, "free.ones") == 0


# ------------------------------------------------------------- zero_only_upper


def test_zero_only_upper_refuses_a_lower_zero_while_an_upper_cell_is_open() -> None:
    game = new_game("kniffel", zero_only_upper=True)
    message = refuse_entry(game, "full_house", "12346")
    assert message == "a zero may go into the lower block only when no upper cell is open"
    refused(game, Enter("Anna", game.cell("kniffel"), points=0), IllegalMoveError)
    options = {str(o.cell.row) for o in game.entry_options(dice=Dice.parse("12346"))}
    assert options == {*UPPER_ROWS, "small_straight", "chance"}
    enter(game, "fives", dice="12346")  # a zero above is fine
    assert points(game, "fives") == 0


def test_zero_only_upper_allows_a_lower_zero_once_no_upper_cell_is_allowed() -> None:
    game = new_game("kniffel", zero_only_upper=True)
    fill(game, *UPPER_ROWS)
    enter(game, "full_house", dice="12346")
    enter(game, "kniffel", points=0)
    assert points(game, "full_house") == points(game, "kniffel") == 0


def test_zero_only_upper_looks_at_every_column() -> None:
    game = new_game("rauf-runter", zero_only_upper=True)
    fill(game, *(f"free.{row}" for row in UPPER_ROWS))
    refuse_entry(game, "free.full_house", "12346")  # down.ones is due
    fill(game, *(f"down.{row}" for row in UPPER_ROWS))
    enter(game, "free.full_house", dice="12346")
    assert points(game, "free.full_house") == 0


def test_zero_only_upper_is_not_checked_on_edit() -> None:
    game = new_game("kniffel", zero_only_upper=True)
    enter(game, "full_house", points=25)
    game.push(Edit("Anna", game.cell("full_house"), 0))
    assert points(game, "full_house") == 0


# ------------------------------------------------------------------ points


@pytest.mark.parametrize(
    ("row", "good", "bad"),
    [
        ("ones", [0, 1, 5], [6, -1]),
        ("sixes", [0, 6, 30], [5, 36]),
        ("three_kind", [0, 5, 30], [4, 31]),
        ("four_kind", [0, 5, 30], [1, 31]),
        ("full_house", [0, 25], [20, 50]),
        ("small_straight", [0, 30], [25, 40]),
        ("large_straight", [0, 40], [30, 50]),
        ("kniffel", [0, 50], [49, 100]),
        ("chance", [5, 30], [0, 4, 31]),
    ],
)
def test_points_entries_and_edits_must_fit_the_row(
    row: str, good: list[int], bad: list[int]
) -> None:
    for value in good:
        game = new_game("kniffel")
        enter(game, row, points=value)
        assert points(game, row) == value
        for other in good:
            game.push(Edit("Anna", game.cell(row), other))
            assert points(game, row) == other
    game = new_game("kniffel")
    for value in bad:
        message = refused(game, Enter("Anna", game.cell(row), points=value), InvalidPointsError)
        assert message.startswith(f"{value} points are not possible in {row}; possible are ")
    enter(game, row, points=good[-1])
    for value in bad:
        refused(game, Edit("Anna", game.cell(row), value), InvalidPointsError)


def test_the_message_lists_the_possible_points() -> None:
    game = new_game("kniffel", pasch="matching_dice")
    message = refused(game, Enter("Anna", game.cell("three_kind"), points=17), InvalidPointsError)
    assert (
        message == "17 points are not possible in three_kind; possible are 0, 3, 6, 9, 12, 15, 18"
    )
    message = refused(game, Enter("Anna", game.cell("four_kind"), points=5), InvalidPointsError)
    assert message.endswith("possible are 0, 4, 8, 12, 16, 20, 24")
    message = refused(game, Enter("Anna", game.cell("chance"), points=0), InvalidPointsError)
    assert message.endswith("possible are 5-30")


@pytest.mark.parametrize("value", [12.0, True, "12", None])
def test_points_must_be_whole_numbers(value: object) -> None:
    game = new_game("kniffel")
    enter(game, "sixes", points=12)
    message = refused(game, Edit("Anna", game.cell("sixes"), value), InvalidPointsError)  # type: ignore[arg-type]
    spelled = {12.0: "12.0", True: "true", "12": "'12'", None: "null"}[value]  # type: ignore[index]
    assert message == f"points must be a whole number, got {spelled}"
