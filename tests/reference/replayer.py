"""An independent reference replayer for ``kniffel-record/1``.

Written from docs/rules.md and docs/record-format.md alone, without looking at ``kniffel.rules``
or ``kniffel.record``, so that the differential test compares two readings of the
rules rather than one reading twice. It deliberately uses another shape: plain dicts
and tuples, one fresh table per event, and undo as "go back to the table before the
undone event" (which is the table obtained by replaying the remaining events).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

FORMAT = "kniffel-record/1"
ROWS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "kniffel",
    "chance",
)
UPPER = ROWS[:6]
# Rows that the joker scores at their full value although five equal faces do not fit them.
JOKER_FULL = {"full_house": 25, "small_straight": 30, "large_straight": 40}

PRESETS: dict[str, dict[str, Any]] = {
    "kniffel": {"columns": (("main", "free", 1),), "kniffel_bonus": 0, "joker": "free"},
    "yahtzee": {"columns": (("main", "free", 1),), "kniffel_bonus": 100, "joker": "forced"},
    "rauf-runter": {
        "columns": (("down", "down", 1), ("up", "up", 1), ("free", "free", 1)),
        "kniffel_bonus": 0,
        "joker": "free",
    },
    "dreifach": {
        "columns": (("x1", "free", 1), ("x2", "free", 2), ("x3", "free", 3)),
        "kniffel_bonus": 0,
        "joker": "free",
    },
}


class Refused(Exception):
    """The record is not valid: ``event`` is the 1-based event number, None at file level."""

    def __init__(self, event: int | None, why: str) -> None:
        super().__init__(f"event {event}: {why}" if event is not None else why)
        self.event = event
        self.why = why


class _Bad(Exception):
    """An event breaks a rule (numbered by the caller)."""


def _integer(value: Any) -> bool:
    return type(value) is int


def _unicode(text: str) -> bool:
    """False for strings JSON can carry but Unicode cannot (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _options_of(variant: str, raw: Any) -> dict[str, Any]:
    preset = PRESETS[variant]
    options: dict[str, Any] = {
        "chance": True,
        "pasch": "all_dice",
        "kniffel_bonus": preset["kniffel_bonus"],
        "joker": preset["joker"],
        "zero_only_upper": False,
    }
    if raw is None:
        return options
    if not isinstance(raw, dict):
        raise Refused(None, "options must be an object")
    for key, value in raw.items():
        if key not in options:
            raise Refused(None, f"unknown option {key!r}")
        if value is None:
            continue
        if key in ("chance", "zero_only_upper"):
            ok = isinstance(value, bool)
        elif key == "pasch":
            ok = value in ("all_dice", "matching_dice")
        elif key == "joker":
            ok = value in ("free", "forced", "none")
        else:
            ok = _integer(value) and value >= 0
        if not ok:
            raise Refused(None, f"bad value for option {key}: {value!r}")
        options[key] = value
    return options


def new_table(record: Any) -> dict[str, Any]:
    """The empty table of a record, after checking everything outside its events."""
    if not isinstance(record, dict):
        raise Refused(None, "a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise Refused(None, "not a kniffel-record/1")
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in PRESETS:
        raise Refused(None, f"unknown variant {variant!r}")
    options = _options_of(variant, record.get("options"))
    names = record.get("players")
    if not isinstance(names, list) or not 1 <= len(names) <= 8:
        raise Refused(None, "players must be a list of 1 to 8 names")
    if any(not isinstance(n, str) or not n.strip() or not _unicode(n) for n in names):
        raise Refused(None, "player names must be non-blank text")
    if len(set(names)) != len(names):
        raise Refused(None, "player names must be distinct")
    rows = ROWS if options["chance"] else ROWS[:-1]
    columns = PRESETS[variant]["columns"]
    return {
        "variant": variant,
        "options": options,
        "names": list(names),
        "columns": columns,
        "rows": rows,
        # sheet[p][column][row] -> points or None; bonus[p][column][row] -> extra-Kniffel bonus
        "sheet": [{c: dict.fromkeys(rows) for c, _, _ in columns} for _ in names],
        "bonus": [{c: {} for c, _, _ in columns} for _ in names],
        # pending[p] -> (last dice, rolls made) until p's next entry
        "pending": [None for _ in names],
    }


def filled(table: dict[str, Any], p: int) -> int:
    return sum(v is not None for col in table["sheet"][p].values() for v in col.values())


def mover(table: dict[str, Any]) -> int | None:
    """The seat to move, or None once every cell of every player is filled."""
    full = len(table["columns"]) * len(table["rows"])
    counts = [filled(table, p) for p in range(len(table["names"]))]
    if min(counts) == full:
        return None
    return counts.index(min(counts))


def allowed(table: dict[str, Any], p: int) -> list[tuple[str, str]]:
    """The cells p may enter into, in column order then row order."""
    cells = []
    for column, discipline, _ in table["columns"]:
        empty = [r for r in table["rows"] if table["sheet"][p][column][r] is None]
        if not empty:
            continue
        if discipline == "down":
            cells.append((column, empty[0]))
        elif discipline == "up":
            cells.append((column, empty[-1]))
        else:
            cells.extend((column, r) for r in empty)
    return cells


def usual_points(row: str, dice: list[int], pasch: str) -> int:
    counts = Counter(dice)
    face, most = counts.most_common(1)[0]
    if row in UPPER:
        f = UPPER.index(row) + 1
        return f * counts[f]
    if row in ("three_kind", "four_kind"):
        need = 3 if row == "three_kind" else 4
        if most < need:
            return 0
        return sum(dice) if pasch == "all_dice" else need * face
    if row == "full_house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if row == "small_straight":
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= set(dice) for run in runs) else 0
    if row == "large_straight":
        return 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if row == "kniffel":
        return 50 if most == 5 else 0
    return sum(dice)


def possible_points(row: str, pasch: str) -> set[int]:
    if row in UPPER:
        f = UPPER.index(row) + 1
        return {f * k for k in range(6)}
    if row in ("three_kind", "four_kind"):
        if pasch == "matching_dice":
            n = 3 if row == "three_kind" else 4
            return {0} | {n * f for f in range(1, 7)}
        return {0, *range(5, 31)}
    if row == "chance":
        return set(range(5, 31))
    return {0, {"full_house": 25, "small_straight": 30, "large_straight": 40, "kniffel": 50}[row]}


def _seat(table: dict[str, Any], event: dict[str, Any]) -> int:
    name = event.get("player")
    if not isinstance(name, str):
        raise _Bad("player must be a name")
    if name not in table["names"]:
        raise _Bad(f"unknown player {name!r}")
    return table["names"].index(name)


def _cell(table: dict[str, Any], event: dict[str, Any]) -> tuple[str, str]:
    text = event.get("cell")
    if not isinstance(text, str):
        raise _Bad("cell must be a string")
    columns = [c for c, _, _ in table["columns"]]
    if "." not in text and len(columns) == 1:
        text = f"{columns[0]}.{text}"
    column, _, row = text.partition(".")
    if column not in columns or row not in table["rows"]:
        raise _Bad(f"unknown cell {text!r}")
    return column, row


def _faces(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or any(not _integer(v) or not 1 <= v <= 6 for v in value):
        raise _Bad(f"{what} must be a list of faces 1-6")
    return list(value)


def _dice(value: Any) -> list[int]:
    dice = _faces(value, "dice")
    if len(dice) != 5:
        raise _Bad("dice must be five faces")
    return dice


def _points(value: Any, row: str, pasch: str) -> int:
    if not _integer(value):
        raise _Bad("points must be an integer")
    if value not in possible_points(row, pasch):
        raise _Bad(f"{value} points are not possible in {row}")
    return int(value)


def _to_move(table: dict[str, Any], p: int) -> None:
    if mover(table) != p:
        raise _Bad(f"it is not {table['names'][p]}'s turn")


def _roll(table: dict[str, Any], event: dict[str, Any]) -> None:
    p = _seat(table, event)
    _to_move(table, p)
    dice = _dice(event.get("dice"))
    keep = [] if event.get("keep") is None else _faces(event["keep"], "keep")
    before = table["pending"][p]
    if before is None:
        if keep:
            raise _Bad("the first roll keeps nothing")
        table["pending"][p] = (dice, 1)
        return
    last, rolls = before
    if rolls >= 3:
        raise _Bad("no rolls left in this turn")
    if Counter(keep) - Counter(last) or Counter(keep) - Counter(dice):
        raise _Bad("keep must be part of the previous and the new dice")
    table["pending"][p] = (dice, rolls + 1)


def _enter(table: dict[str, Any], event: dict[str, Any]) -> None:
    p = _seat(table, event)
    _to_move(table, p)
    column, row = _cell(table, event)
    options = table["options"]
    given_dice, given_points = event.get("dice"), event.get("points")
    if given_dice is not None and given_points is not None:
        raise _Bad("an entry gives dice or points, not both")
    pending = table["pending"][p]
    if pending is not None and (given_dice is not None or given_points is not None):
        raise _Bad("the player has rolled dice pending")
    if pending is None and given_dice is None and given_points is None:
        raise _Bad("no dice to enter")
    open_cells = allowed(table, p)
    if (column, row) not in open_cells:
        raise _Bad(f"{column}.{row} may not be entered now")
    bonus = 0
    if given_points is not None:
        points = _points(given_points, row, options["pasch"])
    else:
        dice = _dice(given_dice) if given_dice is not None else pending[0]
        points = usual_points(row, dice, options["pasch"])
        kniffels = [table["sheet"][p][c]["kniffel"] for c, _, _ in table["columns"]]
        if len(set(dice)) == 1 and None not in kniffels:
            joker = options["joker"]
            if joker != "none" and row in JOKER_FULL:
                points = JOKER_FULL[row]
            if joker == "forced":
                face_row = UPPER[dice[0] - 1]
                matching = [c for c in open_cells if c[1] == face_row]
                lower = [c for c in open_cells if c[1] not in UPPER]
                if (column, row) not in (matching or lower or open_cells):
                    raise _Bad("joker: the Kniffel must go elsewhere")
            if options["kniffel_bonus"] > 0 and 50 in kniffels:
                bonus = options["kniffel_bonus"]
    if (
        options["zero_only_upper"]
        and points == 0
        and row not in UPPER
        and any(r in UPPER for _, r in open_cells)
    ):
        raise _Bad("a zero may go into the lower block only when no upper cell is open")
    table["sheet"][p][column][row] = points
    if bonus:
        table["bonus"][p][column][row] = bonus
    table["pending"][p] = None


def _owned_filled_cell(table: dict[str, Any], event: dict[str, Any]) -> tuple[int, str, str]:
    p = _seat(table, event)
    column, row = _cell(table, event)
    if table["sheet"][p][column][row] is None:
        raise _Bad(f"{column}.{row} is empty")
    return p, column, row


def _edit(table: dict[str, Any], event: dict[str, Any]) -> None:
    p, column, row = _owned_filled_cell(table, event)
    table["sheet"][p][column][row] = _points(event.get("points"), row, table["options"]["pasch"])


def _clear(table: dict[str, Any], event: dict[str, Any]) -> None:
    p, column, row = _owned_filled_cell(table, event)
    table["sheet"][p][column][row] = None
    table["bonus"][p][column].pop(row, None)


def _fresh_copy(table: dict[str, Any]) -> dict[str, Any]:
    """A copy whose sheets, bonuses and pending dice can change without touching the original."""
    return {
        **table,
        "sheet": [{c: dict(rows) for c, rows in sheet.items()} for sheet in table["sheet"]],
        "bonus": [{c: dict(rows) for c, rows in bonus.items()} for bonus in table["bonus"]],
        "pending": list(table["pending"]),
    }


STEPS = {"roll": _roll, "enter": _enter, "edit": _edit, "clear": _clear}


class Replay:
    """A record being replayed: ``tables[-1]`` is the current table."""

    def __init__(self, record: Any) -> None:
        self.tables = [new_table(record)]
        self.count = 0  # events pushed, undos included: the number of the next one is count + 1

    @property
    def table(self) -> dict[str, Any]:
        return self.tables[-1]

    def push(self, event: Any) -> None:
        """Apply one event; raise Refused (numbered) and change nothing if it is wrong."""
        number = self.count + 1
        try:
            if isinstance(event, dict) and event.get("type") == "undo":
                if len(self.tables) < 2:
                    raise _Bad("nothing to undo")
                self.tables = self.tables[:-1]
            else:
                self.tables = [*self.tables, self._after(event)]
        except _Bad as exc:
            raise Refused(number, str(exc)) from None
        self.count = number

    def _after(self, event: Any) -> dict[str, Any]:
        if not isinstance(event, dict):
            raise _Bad("an event must be an object")
        kind = event.get("type")
        if not isinstance(kind, str) or kind not in STEPS:
            raise _Bad(f"unknown event type {kind!r}")
        table = _fresh_copy(self.table)
        STEPS[kind](table, event)
        return table


def state(table: dict[str, Any]) -> dict[str, Any]:
    """The ``replay --json`` object of a table."""
    names = table["names"]
    players = []
    for p, name in enumerate(names):
        columns = {}
        for column, _, factor in table["columns"]:
            cells = dict(table["sheet"][p][column])
            upper = sum(cells[r] or 0 for r in UPPER)
            lower = sum(cells[r] or 0 for r in table["rows"] if r not in UPPER)
            bonus = 35 if upper >= 63 else 0
            extra = sum(table["bonus"][p][column].values())
            columns[column] = {
                "cells": cells,
                "upper": upper,
                "bonus": bonus,
                "lower": lower,
                "kniffel_bonus": extra,
                "total": factor * (upper + bonus + lower + extra),
            }
        total = sum(c["total"] for c in columns.values())
        players.append({"name": name, "total": total, "columns": columns})
    seat = mover(table)
    turn = None
    if seat is not None:
        pending = table["pending"][seat]
        turn = {
            "player": names[seat],
            "rolls": 0 if pending is None else pending[1],
            "dice": None if pending is None else list(pending[0]),
            "allowed": [f"{c}.{r}" for c, r in allowed(table, seat)],
        }
    best = max(pl["total"] for pl in players)
    return {
        "variant": table["variant"],
        "finished": seat is None,
        "winners": [pl["name"] for pl in players if pl["total"] == best] if seat is None else [],
        "turn": turn,
        "players": players,
    }


def replay_record(record: Any) -> dict[str, Any]:
    """Replay a parsed record; return its state or raise Refused."""
    game = Replay(record)
    events = record.get("events")
    if events is None:
        events = []
    if not isinstance(events, list):
        raise Refused(None, "events must be a list")
    for event in events:
        game.push(event)
    return state(game.table)


def replay_text(text: str | bytes) -> dict[str, Any]:
    """Replay the text of a record file; return its state or raise Refused."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # ValueError covers bad UTF-8 and integers too long for Python to read;
        # RecursionError covers nesting too deep to parse.
        raise Refused(None, f"not JSON: {exc}") from None
    return replay_record(record)
