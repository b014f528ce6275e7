"""The events of a game: the moves and corrections a game record holds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kniffel.rules.dice import Dice
from kniffel.rules.rows import Row

__all__ = [
    "Announce",
    "Cell",
    "Clear",
    "Edit",
    "Enter",
    "Event",
    "Roll",
    "Undo",
    "standing_events",
]


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """One cell of a sheet: a column id and a row, written ``COLUMN.ROW``."""

    column: str
    row: Row

    def __str__(self) -> str:
        return f"{self.column}.{self.row.value}"


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll: ``dice`` fell after keeping ``keep`` (a sorted multiset) of the last roll."""

    player: str
    dice: Dice
    keep: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Announce:
    """Najava / annoncée: after the first roll the player names the row the turn will fill."""

    player: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class Enter:
    """An entry into ``cell``: with the player's last roll, or with ``dice``, or ``points``.

    ``roll`` (1 to 3) says which roll of the turn made typed dice or points, where the
    rules ask (Jamb's Kenta, the first-roll and announce columns); rolled dice say it
    themselves.
    """

    player: str
    cell: Cell
    dice: Dice | None = None
    points: int | None = None
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """A correction of a filled cell's points in place."""

    player: str
    cell: Cell
    points: int


@dataclass(frozen=True, slots=True)
class Clear:
    """Empties a filled cell again."""

    player: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class Undo:
    """Takes back the last event that has not been taken back yet."""


Event = Roll | Announce | Enter | Edit | Clear | Undo


def standing_events(events: Iterable[Event]) -> list[tuple[int, Event]]:
    """The events no undo has taken back, with their numbers (1-based, as in the record).

    Each undo takes back the last event still standing, never an undo (docs/rules.md §8);
    an undo with nothing left to take back leaves the list empty here (the engine refuses it).

    >>> ones, twos = Cell("main", Row.ONES), Cell("main", Row.TWOS)
    >>> [n for n, _ in standing_events([Clear("A", ones), Undo(), Clear("B", twos)])]
    [3]
    """
    standing: list[tuple[int, Event]] = []
    for number, event in enumerate(events, start=1):
        if isinstance(event, Undo):
            if standing:
                standing.pop()
        else:
            standing.append((number, event))
    return standing
