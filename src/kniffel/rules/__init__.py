"""The rules of Kniffel and its variants: pure, typed, no I/O (docs/rules.md).

Every rule has its one home here: the rows and their scores (``rows``), the
scoring and entry rules (``scoring``), the variants and options (``variants``)
and the state of a game that applies them (``game``).

>>> from kniffel.rules import Game, get_variant, Enter, Dice
>>> game = Game(get_variant("kniffel"), ["Anna"])
>>> game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66613")))
>>> game.column_totals("Anna", "main").upper
18
"""

from __future__ import annotations

from kniffel.rules.dice import ALL_ROLLS, Dice, keeps_of, outcome_probabilities
from kniffel.rules.errors import (
    CODES,
    IllegalMoveError,
    InvalidDiceError,
    InvalidPointsError,
    KniffelError,
    NotYourTurnError,
    UnknownCellError,
    UnknownPlayerError,
)
from kniffel.rules.events import Cell, Clear, Edit, Enter, Event, Roll, Undo, standing_events
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
from kniffel.rules.rows import (
    FIXED_SCORES,
    LOWER,
    ROWS,
    UPPER,
    Row,
    point_ranges,
    possible_points,
    raw_score,
    rows_for,
)
from kniffel.rules.scoring import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    JokerCase,
    bonus_on_entry,
    column_total,
    due_index,
    due_table,
    entry_gain,
    extra_kniffel_bonus,
    holds_fifty,
    is_extra_kniffel,
    joker_case,
    joker_index,
    joker_permits,
    joker_points,
    joker_scores_full,
    joker_table,
    upper_bonus,
    zero_refused,
    zero_table,
)
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
    "CODES",
    "FIXED_SCORES",
    "LOWER",
    "MAX_PLAYERS",
    "MAX_ROLLS",
    "PRESETS",
    "ROWS",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
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
    "JokerCase",
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
    "bonus_on_entry",
    "column_total",
    "due_index",
    "due_table",
    "entry_gain",
    "extra_kniffel_bonus",
    "get_variant",
    "holds_fifty",
    "is_extra_kniffel",
    "joker_case",
    "joker_index",
    "joker_permits",
    "joker_points",
    "joker_scores_full",
    "joker_table",
    "keeps_of",
    "outcome_probabilities",
    "point_ranges",
    "possible_points",
    "raw_score",
    "rows_for",
    "standing_events",
    "upper_bonus",
    "zero_refused",
    "zero_table",
]
