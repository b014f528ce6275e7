"""The rules of Kniffel and its variants: pure, typed, no I/O.

>>> from kniffel.rules import Game, get_variant, Enter, Dice
>>> game = Game(get_variant("kniffel"), ["Anna"])
>>> game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66613")))
>>> game.column_totals("Anna", "main").upper
18
"""

from __future__ import annotations

from kniffel.rules.dice import ALL_ROLLS, Dice, keeps_of, outcome_probabilities
from kniffel.rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidPointsError,
    KniffelError,
    NotYourTurnError,
    UnknownCellError,
    UnknownPlayerError,
)
from kniffel.rules.events import Cell, Clear, Edit, Enter, Event, Roll, Undo
from kniffel.rules.game import (
    MAX_PLAYERS,
    MAX_ROLLS,
    Action,
    ColumnTotals,
    EnterAction,
    EntryOption,
    Game,
    RollAction,
)
from kniffel.rules.rows import LOWER, ROWS, UPPER, Row, possible_points, raw_score, rows_for
from kniffel.rules.variants import (
    PRESETS,
    ColumnSpec,
    Discipline,
    Joker,
    Options,
    Pasch,
    Variant,
    get_variant,
)

__all__ = [
    "ALL_ROLLS",
    "LOWER",
    "MAX_PLAYERS",
    "MAX_ROLLS",
    "PRESETS",
    "ROWS",
    "UPPER",
    "Action",
    "Cell",
    "Clear",
    "ColumnSpec",
    "ColumnTotals",
    "Dice",
    "Discipline",
    "Edit",
    "Enter",
    "EnterAction",
    "EntryOption",
    "Event",
    "Game",
    "IllegalMoveError",
    "InvalidDiceError",
    "InvalidPointsError",
    "Joker",
    "KniffelError",
    "NotYourTurnError",
    "Options",
    "Pasch",
    "Roll",
    "RollAction",
    "Row",
    "Undo",
    "UnknownCellError",
    "UnknownPlayerError",
    "Variant",
    "get_variant",
    "keeps_of",
    "outcome_probabilities",
    "possible_points",
    "raw_score",
    "rows_for",
]
