"""Illegal and malformed events for the random records: one rule or one type broken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dice import roll_dice
from .replayer import ROWS, UPPER, allowed, mover, possible_points

if TYPE_CHECKING:
    from .generate import Writer


def illegal_events(writer: Writer) -> list[Any]:
    """Usually one bad event (sometimes after a few legal ones that set it up)."""
    rng = writer.rng
    table = writer.game.table
    seat = mover(table)
    seat = seat if seat is not None else rng.randrange(len(writer.names))
    name = writer.names[seat]
    dice = roll_dice(rng, 0.3)
    empty = [
        (c, r) for c, rows in table["sheet"][seat].items() for r, v in rows.items() if v is None
    ]
    filled = writer.filled_cells(seat)
    anywhere = rng.choice(empty or filled)
    cell = writer.cell_name(*anywhere)
    others = [n for n in writer.names if n != name]
    pending = table["pending"][seat]
    pasch = table["options"]["pasch"]
    kind = rng.randrange(22)
    enter: dict[str, Any] = {"type": "enter", "player": name, "cell": cell}
    if kind == 0 and others:
        return [
            {"type": rng.choice(("roll", "enter")), "player": rng.choice(others)}
            | {
                "dice": dice,
                "cell": cell,
            }
        ]
    if kind == 1:
        arrow = [
            (c, r)
            for c, r in empty
            if dict((col, d) for col, d, _ in table["columns"])[c] != "free"
        ]
        if arrow:
            return [enter | {"cell": "{}.{}".format(*rng.choice(arrow)), "dice": dice}]
    if kind == 2 and filled:
        return [enter | {"cell": writer.cell_name(*rng.choice(filled)), "dice": dice}]
    if kind == 3:
        rolls = [] if pending is None else [None] * pending[1]
        events = [] if pending else [writer.first_roll(seat)]
        for _ in range(3 - len(rolls) - len(events)):
            events.append({"type": "roll", "player": name, "dice": dice, "keep": []})
        return [*events, {"type": "roll", "player": name, "dice": dice}]
    if kind == 4:
        last = pending[0] if pending else dice
        missing = rng.choice([f for f in range(1, 7) if f not in last] or [7])
        keep = rng.choice(([missing], [*last, last[0]], [dice[0]], [0]))
        return [{"type": "roll", "player": name, "dice": dice, "keep": keep}]
    if kind == 5:
        face = rng.randint(1, 6)
        lower = [c for c in allowed(table, seat) if c[1] not in UPPER]
        target = rng.choice(lower or allowed(table, seat) or [anywhere])
        return [enter | {"cell": writer.cell_name(*target), "dice": [face] * 5}]
    if kind == 6:
        lower = [c for c in allowed(table, seat) if c[1] not in UPPER] or [anywhere]
        return [enter | {"cell": writer.cell_name(*rng.choice(lower)), "points": 0}]
    if kind == 7:
        row = anywhere[1]
        bad = [
            p
            for p in (-5, -1, 1, 2, 7, 26, 31, 36, 49, 51, 99)
            if p not in possible_points(row, pasch)
        ]
        points = rng.choice(bad)
        if filled and rng.random() < 0.5:
            column, row = rng.choice(filled)
            return [
                {
                    "type": "edit",
                    "player": name,
                    "cell": writer.cell_name(column, row),
                    "points": points,
                }
            ]
        return [enter | {"points": points}]
    if kind == 8:
        return [enter | {"player": rng.choice(("Zoe", "", "ANNA", None, 3, ["Anna"]))}]
    if kind == 9:
        bogus = (
            "main.chance",
            "down.ones",
            "x4.ones",
            "ones",
            "free",
            "free.",
            ".ones",
            "main.bonus",
            "upper",
            "Main.Ones",
            "x1.ones.x",
            5,
            None,
            ["main", "ones"],
        )
        return [enter | {"cell": rng.choice(bogus), "dice": dice}]
    if kind == 10:
        wrong = rng.choice((12.0, True, False, "12", "4", 4.0, [4], {"n": 4}))
        target = rng.choice(("dice", "points", "keep", "edit"))
        if target == "points":
            return [enter | {"points": wrong}]
        if target == "edit" and filled:
            return [
                {
                    "type": "edit",
                    "player": name,
                    "cell": writer.cell_name(*rng.choice(filled)),
                    "points": wrong,
                }
            ]
        spoilt = list(dice)
        spoilt[rng.randrange(5)] = wrong
        if target == "keep" and pending:
            return [{"type": "roll", "player": name, "dice": dice, "keep": [wrong]}]
        return [
            enter | {"dice": spoilt}
            if pending is None
            else {"type": "roll", "player": name, "dice": spoilt}
        ]
    if kind == 11:
        field = rng.choice(("dice", "points", "cell", "player", "type"))
        if field == "dice":
            return [{"type": "roll", "player": name, "dice": None}]
        if field == "points" and filled:
            return [
                {
                    "type": "edit",
                    "player": name,
                    "cell": writer.cell_name(*rng.choice(filled)),
                    "points": None,
                }
            ]
        return [enter | {field: None, "dice": dice}]
    if kind == 12:
        return [enter | {"dice": dice, "points": rng.choice((0, 25, None, 12.0))}]
    if kind == 13:
        return [
            {"type": "undo", "player": rng.choice((name, "Zoe"))}
            for _ in range(len(writer.events) + rng.randint(0, 2))
        ]
    if kind == 14:
        if pending is None:
            return [writer.first_roll(seat), enter | {"dice": dice}]
        return [enter | {"points": 5}]
    if kind == 15:
        return [enter if pending is None else {"type": "enter", "player": name}]
    if kind == 16:
        faces = rng.choice(
            (
                [1, 2, 3, 4],
                [1, 2, 3, 4, 5, 6],
                [0, 1, 2, 3, 4],
                [7, 1, 1, 1, 1],
                [],
                "11156",
                11156,
                {"a": 1},
            )
        )
        return [
            {"type": rng.choice(("roll", "enter")), "player": name, "cell": cell, "dice": faces}
        ]
    if kind == 17:
        row = anywhere[1]
        return [
            {
                "type": rng.choice(("edit", "clear")),
                "player": name,
                "cell": writer.cell_name(*(empty or [anywhere])[0]),
                "points": max(possible_points(row, pasch)),
            }
        ]
    if kind == 18:
        return [
            rng.choice(
                (
                    None,
                    [],
                    "undo",
                    7,
                    {"player": name},
                    {"type": None},
                    {"type": "Roll", "player": name, "dice": dice},
                    {"type": "pass", "player": name},
                    {"type": 1},
                )
            )
        ]
    if kind == 19 and others:
        # A roll or entry after a correction handed the turn to someone else.
        events = [] if pending else [writer.first_roll(seat)]
        other = rng.choice(others)
        filled_other = writer.filled_cells(writer.names.index(other))
        if filled_other:
            events.append(
                {
                    "type": "clear",
                    "player": other,
                    "cell": writer.cell_name(*rng.choice(filled_other)),
                }
            )
        events.append({"type": "enter", "player": name, "cell": cell})
        return events
    if kind == 20:
        # Ignored fields: a points on a roll, dice on an edit, a player on an undo.
        if pending is None:
            return [{"type": "roll", "player": name, "dice": dice, "points": 12, "cell": 3}]
        if filled:
            column, row = rng.choice(filled)
            return [
                {
                    "type": "edit",
                    "player": name,
                    "cell": writer.cell_name(column, row),
                    "points": min(possible_points(row, pasch)),
                    "dice": dice,
                }
            ]
        return [{"type": "roll", "player": name, "dice": dice, "keep": [], "points": "x"}]
    return [enter | {"cell": rng.choice([r for r in ROWS if r not in UPPER]), "dice": dice}]
