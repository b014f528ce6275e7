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
