"""Typed errors of the rules engine.

Every error the engine raises is a :class:`KniffelError`, which is a
:class:`ValueError`; its message says in plain (English) words what is wrong
and, where it helps, what is allowed instead. Each also carries a stable
``code`` and its ``params`` (plain JSON values: ids of columns, rows and cells,
names, numbers), from which the board says the same in the reader's language
(:mod:`kniffel.locales.refusals`). :data:`CODES` lists every code with its
params (docs/architecture.md, "Refusals").

>>> error = IllegalMoveError("down.threes is not due", code="not_due", column="down",
...                          row="threes", due_row="ones", cell="down.threes")
>>> error.code, error.params["due_row"], str(error)
('not_due', 'ones', 'down.threes is not due')
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CODES",
    "IllegalMoveError",
    "InvalidDiceError",
    "InvalidPointsError",
    "KniffelError",
    "NotYourTurnError",
    "UnknownCellError",
    "UnknownPlayerError",
    "printable",
    "shown",
]


#: Every refusal code of the engine and of the record reader, with the names of its params.
#: A record error adds ``event`` (1-based) to the code of the event's refusal.
CODES: dict[str, tuple[str, ...]] = {
    # who and where
    "players_count": ("min", "max", "got"),
    "player_name_blank": (),
    "player_names_repeat": ("name",),
    "unknown_player": ("player", "players"),
    "unknown_seat": ("seat", "seats"),
    "cell_syntax": ("cell",),
    "unknown_cell": ("cell",),
    "unknown_column": ("column", "columns"),
    "unknown_row": ("row", "rows"),
    # turns and rolls
    "game_finished": (),
    "not_your_turn": ("player", "to_move"),
    "nothing_to_undo": (),
    "roll_needs_dice": (),
    "first_roll_keeps": ("keep",),
    "no_rolls_left": (),
    "keep_not_in_roll": ("keep", "dice"),
    "dice_miss_keep": ("dice", "keep"),
    # entries
    "cell_filled": ("cell",),
    "cell_empty": ("cell",),
    "not_due": ("cell", "column", "row", "due_row"),
    "dice_and_points": (),
    "dice_pending": ("player", "dice"),
    "no_dice": ("player",),
    "points_not_whole": ("points",),
    "impossible_points": ("row", "points", "allowed"),
    "joker_forced": ("cells",),
    "joker_lower": (),
    "zero_only_upper": (),
    # Jamb and Yams: announcements, first-roll columns, the roll number (docs/rules.md, "Jamb")
    "first_roll_only": ("cell", "roll"),
    "announce_first": ("cell", "roll"),
    "roll_needed": ("cell",),
    "announce_column": ("cell",),
    "announce_twice": ("cell",),
    "announce_late": ("roll",),
    "announced_elsewhere": ("cell", "announced"),
    "middle_order": ("cell", "rows"),
    "roll_number": ("value",),
    "roll_mismatch": ("roll", "rolls"),
    "first_roll_cells_only": (),
    # dice and options
    "invalid_dice": ("value",),
    "dice_count": ("got",),
    "keep_count": ("got",),
    "unknown_variant": ("variant", "variants"),
    "unknown_option": ("option", "options"),
    "invalid_option": ("option", "value", "allowed"),
    "option_alone": ("option", "needs", "points"),
    "unknown_event": ("event",),
    # the record file
    "record_not_json": ("reason",),
    "record_not_object": (),
    "record_format": ("format", "got"),
    "record_field": ("field",),
    "record_players": ("max",),
    "record_events": (),
    "event_not_object": (),
    "event_type": ("type", "types"),
    "event_field": ("type", "field"),
    "event_text": ("field", "value"),
    "event_number": ("field", "value"),
    "event_faces": ("field", "value"),
}


class KniffelError(ValueError):
    """Base class of every rules error: an English message, a ``code`` and its ``params``."""

    #: The code of an error raised without one (a subclass may name its own).
    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = params

    @property
    def message(self) -> str:
        return str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), self.code, self.params))


def _rebuild(
    cls: type[KniffelError], message: str, code: str, params: dict[str, Any]
) -> KniffelError:
    return cls(message, code=code, **params)


class InvalidDiceError(KniffelError):
    """Dice or kept dice that are not five (or fewer) faces from 1 to 6."""

    default_code = "invalid_dice"


class InvalidPointsError(KniffelError):
    """Points that the row cannot score under the game's options."""

    default_code = "impossible_points"


class UnknownCellError(KniffelError):
    """A cell name that does not exist in this variant."""

    default_code = "unknown_cell"


class UnknownPlayerError(KniffelError):
    """A player name that does not sit at this table."""

    default_code = "unknown_player"


class NotYourTurnError(KniffelError):
    """A roll or an entry by somebody who is not the player to move."""

    default_code = "not_your_turn"


class IllegalMoveError(KniffelError):
    """A move the rules forbid: a locked cell, a fourth roll, a joker breach."""


def shown(value: object, limit: int = 40) -> str:
    """A value for an error message: text quoted, other values as JSON spells them (``true``,
    ``null``), on one line and cut short."""
    import json

    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def printable(text: str) -> str:
    """``text`` with control characters escaped, so a message stays one plain line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
