"""The board words the engine's ruling on a further Kniffel; it decides nothing itself.

For each joker case the explanation must name what ``Game.entry_options`` allows.
"""

from __future__ import annotations

from typing import Any

import pytest

from kniffel.board.turn_view import turn_view
from kniffel.locales import Translator
from kniffel.rules import Dice, Enter, Game, JokerCase, Row, get_variant

DE = Translator("de")


def game_with(options: dict[str, Any], filled: dict[str, int]) -> Game:
    game = Game(get_variant("kniffel", options), ["Anna"])
    for row, points in filled.items():
        game.push(Enter("Anna", game.cell(row), points=points))
    return game


def explained(game: Game, dice: str) -> tuple[str, ...]:
    return turn_view(game, DE, 0, "physical", Dice.parse(dice)).extra_kniffel


LOWER_FILLED = {
    "three_kind": 20,
    "four_kind": 20,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "chance": 20,
}


@pytest.mark.parametrize(
    ("options", "filled", "case", "line", "rows"),
    [
        (
            {"joker": "free"},
            {"kniffel": 50},
            JokerCase.FREE,
            "Joker: Jedes erlaubte Feld; Full House, Kleine und Große Straße zählen voll.",
            None,
        ),
        (
            {"joker": "forced"},
            {"kniffel": 50, "fours": 8},
            JokerCase.LOWER,
            "Joker (Pflicht): Das passende Feld oben ist nicht offen, "
            "also unten mit vollen Punkten.",
            {Row.THREE_KIND, Row.FOUR_KIND, Row.FULL_HOUSE, Row.SMALL_STRAIGHT}
            | {Row.LARGE_STRAIGHT, Row.CHANCE},
        ),
        (
            {"joker": "forced"},
            {"kniffel": 0, "fours": 8, **LOWER_FILLED},
            JokerCase.UPPER,
            "Joker (Pflicht): Unten ist nichts offen; oben zählt er 0.",
            {Row.ONES, Row.TWOS, Row.THREES, Row.FIVES, Row.SIXES},
        ),
        (
            {"joker": "none"},
            {"kniffel": 50},
            JokerCase.NONE,
            "Kein Joker: Der Wurf zählt überall normal.",
            None,
        ),
    ],
)
def test_each_joker_case_is_worded_as_the_engine_rules(
    options: dict[str, Any],
    filled: dict[str, int],
    case: JokerCase,
    line: str,
    rows: set[Row] | None,
) -> None:
    game = game_with(options, filled)
    dice = Dice.parse("44444")
    assert game.joker_case(0, dice) is case
    assert explained(game, "44444") == ("Weiterer Kniffel!", line)
    allowed = {o.cell.row for o in game.entry_options(0, dice)}
    assert allowed == (rows if rows is not None else {c.row for c in game.allowed_cells(0)})


def test_the_bonus_line_follows_the_kniffel_cell() -> None:
    fifty = game_with({"kniffel_bonus": 100}, {"kniffel": 50})
    assert explained(fifty, "66666")[1] == (
        "+100 Kniffel-Bonus in der Spalte, in die du ihn einträgst."
    )
    zero = game_with({"kniffel_bonus": 100}, {"kniffel": 0})
    assert explained(zero, "66666")[1] == "Kein Kniffel-Bonus: Kein Kniffel-Feld hat 50 Punkte."
    assert {o.kniffel_bonus for o in zero.entry_options(0, Dice.parse("66666"))} == {0}


def test_no_explanation_before_every_kniffel_cell_is_filled() -> None:
    assert explained(game_with({}, {}), "44444") == ()
    assert explained(game_with({}, {"kniffel": 50}), "44443") == ()
