"""The events of a game: the moves and corrections a game record holds."""

from __future__ import annotations

import types
from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields
from typing import Literal, Union, get_args, get_origin, get_type_hints

from kniffel.rules.dice import Dice
from kniffel.rules.rows import Row

__all__ = [
    "EVENT_TYPES",
    "MAX_ROLLS",
    "Announce",
    "Cell",
    "Clear",
    "Edit",
    "Enter",
    "Event",
    "EventField",
    "Roll",
    "Undo",
    "event_fields",
    "standing_events",
]

#: The rolls of a turn (docs/rules.md §1); the entries that need to know say which made their dice.
MAX_ROLLS = 3


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

    ``roll`` (1 to :data:`MAX_ROLLS`) says which roll of the turn made typed dice or points,
    where the rules ask (Jamb's Kenta, the first-roll and announce columns); rolled dice say it
    themselves.
    """

    player: str
    cell: Cell
    dice: Dice | None = field(default=None, metadata={"excludes": "points"})
    points: int | None = None
    roll: int | None = field(
        default=None, metadata={"doc": f"which roll made typed dice or points (1-{MAX_ROLLS})"}
    )


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

#: Each event by the type a record names it with (docs/record-format.md), in the record's order.
EVENT_TYPES: dict[str, type[Event]] = {
    "roll": Roll,
    "announce": Announce,
    "enter": Enter,
    "edit": Edit,
    "clear": Clear,
    "undo": Undo,
}


@dataclass(frozen=True, slots=True)
class EventField:
    """A field of an event as a record writes it, read from the event's class: ``kind`` is
    ``player`` (a seat's name), ``cell`` (``COLUMN.ROW``), ``dice`` (five faces), ``keep`` (the
    faces kept, any order) or ``whole`` (a whole number); ``doc`` says what it means where its
    name does not, ``excludes`` the field it may not come with (an entry's dice or points)."""

    name: str
    kind: Literal["player", "cell", "dice", "keep", "whole"]
    required: bool
    doc: str = ""
    excludes: str = ""


_KINDS: dict[object, Literal["player", "cell", "dice", "keep", "whole"]] = {
    str: "player",
    Cell: "cell",
    Dice: "dice",
    tuple[int, ...]: "keep",
    int: "whole",
}


_FIELDS: dict[type[Event], tuple[EventField, ...]] = {}


def event_fields(event: type[Event]) -> tuple[EventField, ...]:
    """The fields of ``event`` as a record writes them, in order: the one source of the record
    reader (:func:`kniffel.record.event_from_json`) and of the API's event models.

    >>> [(f.name, f.kind, f.required) for f in event_fields(Roll)]
    [('player', 'player', True), ('dice', 'dice', True), ('keep', 'keep', False)]
    """
    known = _FIELDS.get(event)  # a type's fields never change; every entry parsed asks
    if known is None:
        known = _FIELDS[event] = _read_fields(event)
    return known


def _read_fields(event: type[Event]) -> tuple[EventField, ...]:
    hints = get_type_hints(event)
    found = []
    for f in fields(event):
        hint = hints[f.name]
        if get_origin(hint) in (Union, types.UnionType):
            hint = next(arg for arg in get_args(hint) if arg is not type(None))
        required = f.default is MISSING and f.default_factory is MISSING
        doc, excludes = f.metadata.get("doc", ""), f.metadata.get("excludes", "")
        found.append(EventField(f.name, _KINDS[hint], required, doc, excludes))
    return tuple(found)


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
