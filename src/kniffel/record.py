"""Game records ``kniffel-record/1``: read, validate, replay and write.

A record is to Kniffel what PGN is to chess: the variant, its options, the
players and every event of a game, in one JSON document.

>>> record = loads('{"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna"],'
...     ' "events": [{"type": "enter", "player": "Anna", "cell": "chance", "points": 23}]}')
>>> game = replay(record)
>>> game.total("Anna")
23
>>> state_dict(game)["turn"]["player"]
'Anna'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kniffel.rules import EVENT_TYPES as EVENTS
from kniffel.rules import (
    MAX_PLAYERS,
    Dice,
    Edit,
    Enter,
    Event,
    EventField,
    Game,
    KniffelError,
    Roll,
    Row,
    Sheet,
    Undo,
    Variant,
    event_fields,
    get_variant,
)
from kniffel.rules.errors import printable, shown
from kniffel.rules.variants import PRESETS

__all__ = [
    "EVENT_TYPES",
    "FORMAT",
    "Record",
    "RecordError",
    "dumps",
    "event_from_json",
    "event_to_json",
    "loads",
    "parse",
    "record_of",
    "replay",
    "state_dict",
]

FORMAT = "kniffel-record/1"
#: The event types of the format; ``announce`` came with Jamb and Yams (docs/record-format.md).
EVENT_TYPES = tuple(EVENTS)


class RecordError(KniffelError):
    """A record that cannot be read or replayed; ``event`` numbers the bad event from 1.

    Its ``code`` and ``params`` are those of the refusal (an event's carries the engine's code
    and params) with ``event`` added for an event.
    """

    default_code = "record_invalid"

    def __init__(
        self, message: str, event: int | None = None, *, code: str | None = None, **params: Any
    ) -> None:
        self.event = event
        self.reason = message
        if event is not None:
            params = {**params, "event": event}
        super().__init__(
            f"event {event}: {message}" if event is not None else message, code=code, **params
        )

    def __reduce__(self) -> tuple[Any, ...]:
        params = {k: v for k, v in self.params.items() if k != "event"}
        return (_rebuild_record, (self.reason, self.event, self.code, params))


def _rebuild_record(
    message: str, event: int | None, code: str, params: dict[str, Any]
) -> RecordError:
    return RecordError(message, event, code=code, **params)


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed record. ``events`` are raw JSON objects until :func:`replay` checks them."""

    variant: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[Any, ...] = ()
    #: The games evening the game belongs to (docs/record-format.md): carried, never replayed.
    evening: str | None = None

    def new_game(self) -> Game:
        return Game(get_variant(self.variant, self.options), self.players)


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text; raises :class:`RecordError` for a broken file."""
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(
            f"the file is not valid JSON ({exc})", code="record_not_json", reason=str(exc)
        ) from None
    except ValueError:
        # Python's own limit on reading integers (4300 digits), which valid JSON can pass.
        raise RecordError(
            "the file holds a number too long to read", code="record_not_json", reason="number"
        ) from None
    except RecursionError:
        raise RecordError(
            "the file is not valid JSON (nested too deeply)", code="record_not_json", reason="depth"
        ) from None
    return parse(document)


def parse(document: object) -> Record:
    """Validate a record outside its events (those are checked by :func:`replay`)."""
    if not isinstance(document, dict):
        raise RecordError("a record is a JSON object", code="record_not_object")
    fmt = document.get("format")
    if fmt != FORMAT:
        raise RecordError(
            f"the format must be {shown(FORMAT)}, got {shown(fmt)}",
            code="record_format",
            format=FORMAT,
            got=shown(fmt),
        )
    variant = document.get("variant")
    if not isinstance(variant, str) or variant not in PRESETS:
        raise RecordError(
            f"unknown variant {shown(variant)}; the variants are {', '.join(PRESETS)}",
            code="unknown_variant",
            variant=shown(variant),
            variants=list(PRESETS),
        )
    options = document.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("options must be a JSON object", code="record_field", field="options")
    try:
        get_variant(variant, options)
    except KniffelError as exc:
        raise RecordError(str(exc), code=exc.code, **exc.params) from None
    players = document.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise RecordError(
            f"players must be a list of 1 to {MAX_PLAYERS} names",
            code="record_players",
            max=MAX_PLAYERS,
        )
    for name in players:
        if not isinstance(name, str) or not name.strip() or not _is_unicode(name):
            raise RecordError("every player name must be non-blank text", code="player_name_blank")
    if len(set(players)) != len(players):
        twice = next(name for i, name in enumerate(players) if name in players[:i])
        raise RecordError(
            "player names must be distinct", code="player_names_repeat", name=printable(twice)
        )
    events = document.get("events")
    if events is None:
        events = []
    if not isinstance(events, list):
        raise RecordError("events must be a list", code="record_events")
    evening = document.get("evening")
    if evening is not None and (not isinstance(evening, str) or not _EVENING.fullmatch(evening)):
        raise RecordError(
            "evening must be an id of 1 to 32 letters, digits, - or _",
            code="record_evening",
        )
    return Record(variant, tuple(players), dict(options), tuple(events), evening)


#: A games evening's id, as the board writes it (a game id: ``secrets.token_urlsafe``).
_EVENING = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _is_unicode(text: str) -> bool:
    """False for a lone surrogate (JSON can escape one), which no sheet or terminal can show."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _article(kind: str) -> str:
    return "an" if kind in ("enter", "edit", "undo") else "a"


def _missing(kind: str, name: str) -> KniffelError:
    return KniffelError(
        f"{_article(kind)} {kind} event needs {name!r}",
        code="event_field",
        type=kind,
        field=name,
    )


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise KniffelError(
            f"{name!r} must be text, got {shown(value)}",
            code="event_text",
            field=name,
            value=shown(value),
        )
    return value


def _int(value: object, what: str, field: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise KniffelError(
            f"{what} must be a whole number, got {shown(value)}",
            code="event_number",
            field=field or what,
            value=shown(value),
        )
    return value


def _faces(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise KniffelError(
            f"{what} must be a list of faces, got {shown(value)}",
            code="event_faces",
            field=what,
            value=shown(value),
        )
    return [_int(v, f"every face in {what}", what) for v in value]


def _value(spec: EventField, value: object, game: Game) -> object:
    """One field of a JSON event as the event holds it (:func:`kniffel.rules.event_fields`)."""
    if spec.kind == "player":
        game.seat(_text(value, spec.name))
        return value
    if spec.kind == "cell":
        return game.cell(_text(value, spec.name))
    if spec.kind == "dice":
        return Dice.of(_faces(value, spec.name))
    if spec.kind == "keep":
        return tuple(sorted(_faces(value, spec.name)))
    return _int(value, spec.name)


def event_from_json(raw: object, game: Game) -> Event:
    """Turn one JSON event into an engine event (checks shape and types, not rules).

    The fields and their kinds are the event classes' own (:data:`kniffel.rules.EVENT_TYPES`,
    :func:`kniffel.rules.event_fields`); the first missing or malformed one is refused.
    """
    if not isinstance(raw, dict):
        raise KniffelError("an event is a JSON object", code="event_not_object")
    kind = raw.get("type")
    event_type = EVENTS.get(kind) if isinstance(kind, str) else None
    if event_type is None:
        raise KniffelError(
            f"unknown event type {shown(kind)}; the types are {', '.join(EVENT_TYPES)}",
            code="event_type",
            type=shown(kind),
            types=list(EVENT_TYPES),
        )
    name = str(kind)
    values: dict[str, Any] = {}
    for spec in event_fields(event_type):
        value = raw.get(spec.name)
        if spec.excludes and value is not None and raw.get(spec.excludes) is not None:
            raise KniffelError(
                f"{_article(name)} {name} event gives {spec.name} or {spec.excludes}, not both",
                code=f"{spec.name}_and_{spec.excludes}",
            )
        if value is None:  # null is absent (docs/record-format.md)
            if spec.required:
                raise _missing(name, spec.name)
            continue
        values[spec.name] = _value(spec, value, game)
    return event_type(**values)


def event_to_json(event: Event, game: Game | None = None) -> dict[str, Any]:
    """One engine event as a JSON object of the record."""
    if isinstance(event, Undo):
        return {"type": "undo"}
    if isinstance(event, Roll):
        out: dict[str, Any] = {"type": "roll", "player": event.player}
        if event.keep:
            out["keep"] = list(event.keep)
        out["dice"] = list(event.dice.faces)
        return out
    out = {"type": type(event).__name__.lower(), "player": event.player, "cell": str(event.cell)}
    if isinstance(event, Enter):
        if event.dice is not None:
            out["dice"] = list(event.dice.faces)
        if event.points is not None:
            out["points"] = event.points
        if event.roll is not None:
            out["roll"] = event.roll
    elif isinstance(event, Edit):
        out["points"] = event.points
    return out


def replay(record: Record, game: Game | None = None) -> Game:
    """Check and apply every event; the first bad one raises ``RecordError`` (event N)."""
    if game is None:
        game = record.new_game()
    for number, raw in enumerate(record.events, start=1):
        try:
            game.push(event_from_json(raw, game))
        except KniffelError as exc:
            raise RecordError(str(exc), number, code=exc.code, **exc.params) from None
    return game


def record_of(game: Game, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready object (every event, undos included)."""
    return {
        "format": FORMAT,
        "variant": game.variant.name,
        "options": dict(options) if options is not None else game.options.as_dict(),
        "players": list(game.players),
        "events": [event_to_json(e) for e in game.log],
    }


def dumps(game: Game, *, indent: int | None = 1) -> str:
    return json.dumps(record_of(game), indent=indent, ensure_ascii=False)


@cache
def _row_names(rows: tuple[Row, ...]) -> tuple[str, ...]:
    """The names of ``rows`` (an enum's ``value`` is a descriptor call: a state asks 78 of
    them for two players of Rauf-Runter, on every change the board answers)."""
    return tuple(row.value for row in rows)


def _column_dict(game: Game, player: int, column: str) -> dict[str, Any]:
    totals = game.column_totals(player, column)
    values = game.column_points(player, column)
    cells = dict(zip(_row_names(game.rows), values, strict=True))
    if game.options.sheet is Sheet.JAMB:
        return {
            "cells": cells,
            "sum1": totals.sum1,
            "sum2": totals.sum2,
            "sum3": totals.sum3,
            "total": totals.total,
        }
    return {
        "cells": cells,
        "upper": totals.upper,
        "bonus": totals.bonus,
        "lower": totals.lower,
        "kniffel_bonus": totals.kniffel_bonus,
        "total": totals.total,
    }


def state_dict(game: Game) -> dict[str, Any]:
    """The state as ``kniffel replay --json`` prints it (docs/record-format.md)."""
    p = game.current_player()
    turn: dict[str, Any] | None = None
    if p is not None:
        pending = game.pending(p)
        turn = {
            "player": game.players[p],
            "rolls": 0 if pending is None else pending[1],
            "dice": None if pending is None else list(pending[0].faces),
            "allowed": [str(cell) for cell in game.allowed_cells(p)],
        }
        announced = game.announced(p)
        if announced is not None:
            turn["announced"] = str(announced)
    players = []
    for i, name in enumerate(game.players):
        columns = {spec.id: _column_dict(game, i, spec.id) for spec in game.columns}
        # The player's total is the sum of the columns' (Game.total), each worked out once.
        total = sum(column["total"] for column in columns.values())
        players.append({"name": name, "total": total, "columns": columns})
    return {
        "variant": game.variant.name,
        "finished": game.is_finished,
        "winners": game.winners(),
        "turn": turn,
        "players": players,
    }


def new_record(variant: Variant | str, players: Sequence[str]) -> dict[str, Any]:
    """An empty record for a game not started yet."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    return {
        "format": FORMAT,
        "variant": v.name,
        "options": v.options.as_dict(),
        "players": list(players),
        "events": [],
    }
