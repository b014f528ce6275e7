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

from kniffel.rules import scoring
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
from kniffel.rules.events import (
    EVENT_TYPES,
    Announce,
    Cell,
    Clear,
    Edit,
    Enter,
    Event,
    EventField,
    Roll,
    Undo,
    event_fields,
    standing_events,
)
from kniffel.rules.game import (
    MAX_PLAYERS,
    MAX_ROLLS,
    Action,
    AnnounceAction,
    ColumnTotals,
    EnterAction,
    EntryOption,
    Game,
    RollAction,
)
from kniffel.rules.rows import (
    FIVE_OF_A_KIND,
    FIXED_SCORES,
    JAMB_ROWS,
    LOWER,
    ROWS,
    STRAIGHT_BY_ROLL,
    UPPER,
    Row,
    most_points,
    point_ranges,
    possible_points,
    raw_score,
    roll_matters,
    rows_for,
    sheet_score,
    turns_of,
)
from kniffel.rules.scoring import *  # noqa: F403 (the names of scoring.__all__)
from kniffel.rules.variants import (
    HOUSE_RULES,
    PRESETS,
    ColumnSpec,
    Discipline,
    HouseRule,
    Joker,
    Options,
    Pasch,
    Sheet,
    Variant,
    check_new_options,
    get_variant,
    house_rule,
)

__all__ = [  # and every name of kniffel.rules.scoring
    "ALL_ROLLS",
    "CODES",
    "EVENT_TYPES",
    "FIVE_OF_A_KIND",
    "FIXED_SCORES",
    "HOUSE_RULES",
    "JAMB_ROWS",
    "LOWER",
    "MAX_PLAYERS",
    "MAX_ROLLS",
    "PRESETS",
    "ROWS",
    "STRAIGHT_BY_ROLL",
    "UPPER",
    "Action",
    "Announce",
    "AnnounceAction",
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
    "EventField",
    "Game",
    "HouseRule",
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
    "Sheet",
    "Undo",
    "UnknownCellError",
    "UnknownPlayerError",
    "Variant",
    "event_fields",
    "check_new_options",
    "get_variant",
    "house_rule",
    "keeps_of",
    "outcome_probabilities",
    "most_points",
    "point_ranges",
    "possible_points",
    "raw_score",
    "roll_matters",
    "rows_for",
    "sheet_score",
    "standing_events",
    "turns_of",
    *scoring.__all__,
]
