"""Typed errors of the rules engine.

Every error the engine raises is a :class:`KniffelError`, which is a
:class:`ValueError`; its message says in plain words what is wrong and,
where it helps, what is allowed instead.
"""

from __future__ import annotations

__all__ = [
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


class KniffelError(ValueError):
    """Base class of every rules error."""


class InvalidDiceError(KniffelError):
    """Dice or kept dice that are not five (or fewer) faces from 1 to 6."""


class InvalidPointsError(KniffelError):
    """Points that the row cannot score under the game's options."""


class UnknownCellError(KniffelError):
    """A cell name that does not exist in this variant."""


class UnknownPlayerError(KniffelError):
    """A player name that does not sit at this table."""


class NotYourTurnError(KniffelError):
    """A roll or an entry by somebody who is not the player to move."""


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
