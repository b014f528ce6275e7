"""Random ``kniffel-record/1`` files for the differential test.

Mostly legal play (rolls with keeps, entries with pending dice, given dice or points,
edits, clears, chains of undos), steered towards the hard corners: five equal dice once
the ``kniffel`` cells are filled, the forced joker in three-column variants, arrow columns
near their due cells, corrections that hand the turn to someone else while dice are
pending. Now and then one event is illegal or malformed (the record usually ends there),
and now and then the file itself is broken.

The reference replayer steers the play (who is to move, which cells are allowed); it
does not decide the outcome, which the differential test compares.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from .replayer import (
    PRESETS,
    ROWS,
    UPPER,
    Refused,
    Replay,
    allowed,
    mover,
    possible_points,
)

NAMES = ("Anna", "Ben", "Cem", "Dörte", "Eva", "Finn", "Gül", "Hans", "anna", "Ben ")
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "chance": (True, False),
    "pasch": ("all_dice", "matching_dice"),
    "kniffel_bonus": (0, 100, 100, 50, 1, 7),
    "joker": ("free", "forced", "forced", "none"),
    "zero_only_upper": (True, False),
}


def record_text(seed: int | random.Random) -> str:
    """The text of one random record file (mostly a valid header, sometimes not)."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    record = _Writer(rng).record()
    if rng.random() < 0.04:
        return _broken_file(rng, record)
    return json.dumps(record, ensure_ascii=rng.random() < 0.5)


def _header(rng: random.Random) -> dict[str, Any]:
    variant = rng.choice(sorted(PRESETS))
    record: dict[str, Any] = {"format": "kniffel-record/1", "variant": variant}
    options = {
        key: rng.choice(values) for key, values in OPTION_VALUES.items() if rng.random() < 0.4
    }
    if options or rng.random() < 0.2:
        record["options"] = options
    # Long games need few players; many players get short records.
    count = rng.choice((1, 1, 1, 2, 2, 3)) if rng.random() < 0.8 else rng.randint(1, 8)
    record["players"] = rng.sample(NAMES, count)
    return record


def _five_equal(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6)] * 5


def _dice(rng: random.Random, kniffel_bias: float) -> list[int]:
    draw = rng.random()
    if draw < kniffel_bias:
        dice = _five_equal(rng)
    elif draw < kniffel_bias + 0.1:
        a, b = rng.sample(range(1, 7), 2)
        start = rng.randint(1, 2)
        dice = rng.choice(
            (
                [a, a, a, b, b],
                [a, a, a, a, b],
                list(range(start, start + 5)),
                [*range(start, start + 4), rng.randint(1, 6)],
            )
        )
    else:
        dice = [rng.randint(1, 6) for _ in range(5)]
    rng.shuffle(dice)
    return dice


class _Writer:
    """Writes one record, asking the reference what is legal as it goes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.head = _header(rng)
        self.game = Replay(self.head)
        self.events: list[Any] = []
        self.kniffel_bias = rng.choice((0.05, 0.2, 0.4))
        self.points_share = rng.choice((0.1, 0.3, 0.7))
        self.illegal_share = rng.choice((0.0, 0.0, 0.003, 0.01, 0.05))
        self.correction_share = rng.choice((0.02, 0.08, 0.2))
        self.undo_share = rng.choice((0.0, 0.03, 0.1))
        # Share of entries written without asking the reference first, so that a legal
        # entry the reference wrongly refuses still reaches the engine.
        self.blind_share = rng.choice((0.0, 0.02, 0.1))

    @property
    def names(self) -> list[str]:
        return list(self.head["players"])

    def record(self) -> dict[str, Any]:
        limit = self.rng.choice((5, 20, 60, 150, 400))
        while len(self.events) < limit:
            if not self.step():
                self._trailing()
                break
        record = {**self.head, "events": self.events}
        if not self.events and self.rng.random() < 0.5:
            del record["events"]
        if self.rng.random() < 0.05:
            record["meta"] = {"app": "test", "at": "2026-01-01T00:00:00Z"}
        return record

    # -- steps ---------------------------------------------------------------------------

    def step(self) -> bool:
        """Write one event (or a few); False when the record has just been broken."""
        rng = self.rng
        table = self.game.table
        seat = mover(table)
        draw = rng.random()
        if draw < self.illegal_share:
            return self.offer(self.illegal())
        draw -= self.illegal_share
        if seat is None or draw < self.correction_share:
            return self.correction()
        if draw < self.correction_share + self.undo_share:
            return self.undo_chain()
        pending = table["pending"][seat]
        # Someone else corrects a cell while these dice wait (the turn may move away).
        if pending is not None and pending[1] < 3 and rng.random() < 0.12:
            return self.correction(avoid=seat)
        if pending is None:
            if rng.random() < 0.5:
                return self.offer(self.first_roll(seat))
            return self.enter(seat, given=True)
        if pending[1] < 3 and rng.random() < 0.5:
            return self.offer(self.next_roll(seat, pending[0]))
        return self.enter(seat, given=False)

    def offer(self, events: list[Any] | dict[str, Any]) -> bool:
        """Append events until the reference refuses one; False if it did."""
        for event in events if isinstance(events, list) else [events]:
            self.events.append(event)
            try:
                self.game.push(event)
            except Refused:
                return False
        return True

    def offer_first_legal(self, candidates: list[dict[str, Any]]) -> bool:
        """Append the first candidate the reference accepts (joker and zero rules refuse some)."""
        if candidates and self.rng.random() < self.blind_share:
            return self.offer(candidates[0])
        for event in candidates:
            try:
                self.game.push(event)
            except Refused:
                continue
            self.events.append(event)
            return True
        return True

    def _trailing(self) -> None:
        # Events after the broken one must not matter; add a few to be sure.
        for _ in range(self.rng.choice((0, 0, 1, 3))):
            self.events.append(self.rng.choice(({"type": "undo"}, {"type": "roll"}, None)))

    # -- legal play ----------------------------------------------------------------------

    def _extras(self, event: dict[str, Any]) -> dict[str, Any]:
        if self.rng.random() < 0.05:
            event["at"] = "12:00"
        if self.rng.random() < 0.03:
            event["meta"] = {"note": None}
        return event

    def first_roll(self, seat: int) -> dict[str, Any]:
        event: dict[str, Any] = {
            "type": "roll",
            "player": self.names[seat],
            "dice": _dice(self.rng, self.kniffel_bias),
        }
        if self.rng.random() < 0.1:
            event["keep"] = self.rng.choice(([], None))
        return self._extras(event)

    def next_roll(self, seat: int, last: list[int]) -> dict[str, Any]:
        rng = self.rng
        face, _ = Counter(last).most_common(1)[0]
        if rng.random() < 0.5:
            keep = [d for d in last if d == face]
        else:
            keep = [d for d in last if rng.random() < 0.5]
        rest = 5 - len(keep)
        if rng.random() < self.kniffel_bias:
            new = [face] * rest
        else:
            new = [rng.randint(1, 6) for _ in range(rest)]
        dice = keep + new
        rng.shuffle(dice)
        rng.shuffle(keep)
        event: dict[str, Any] = {"type": "roll", "player": self.names[seat], "dice": dice}
        if keep or rng.random() < 0.5:
            event["keep"] = keep
        return self._extras(event)

    def _ranked_cells(self, seat: int, dice: list[int] | None) -> list[tuple[str, str]]:
        cells = allowed(self.game.table, seat)
        self.rng.shuffle(cells)
        if dice is not None and len(set(dice)) == 1 and self.rng.random() < 0.8:
            # Fill kniffel cells first so that later Kniffels meet the joker and the bonus.
            cells.sort(key=lambda c: c[1] != "kniffel")
        return cells

    def _cell_name(self, column: str, row: str) -> str:
        if len(self.game.table["columns"]) == 1 and self.rng.random() < 0.5:
            return row
        return f"{column}.{row}"

    def enter(self, seat: int, *, given: bool) -> bool:
        rng = self.rng
        name = self.names[seat]
        table = self.game.table
        candidates: list[dict[str, Any]] = []
        if not given:
            dice = table["pending"][seat][0]
            for column, row in self._ranked_cells(seat, dice):
                event = {"type": "enter", "player": name, "cell": self._cell_name(column, row)}
                if rng.random() < 0.1:
                    event.update(rng.choice(({"dice": None}, {"points": None})))
                candidates.append(self._extras(event))
        elif rng.random() < self.points_share:
            for column, row in self._ranked_cells(seat, None):
                choices = sorted(possible_points(row, table["options"]["pasch"]))
                points = rng.choice(choices[-2:] if rng.random() < 0.4 else choices)
                event = {"type": "enter", "player": name, "cell": self._cell_name(column, row)}
                event["points"] = points
                candidates.append(self._extras(event))
        else:
            dice = _dice(rng, self.kniffel_bias)
            for column, row in self._ranked_cells(seat, dice):
                event = {"type": "enter", "player": name, "cell": self._cell_name(column, row)}
                event["dice"] = dice
                candidates.append(self._extras(event))
        return self.offer_first_legal(candidates)

    def _filled_cells(self, seat: int) -> list[tuple[str, str]]:
        sheet = self.game.table["sheet"][seat]
        return [(c, r) for c, rows in sheet.items() for r, v in rows.items() if v is not None]

    def correction(self, avoid: int | None = None) -> bool:
        """An edit or a clear of a random filled cell; True (no event) when none is filled."""
        rng = self.rng
        seats = [p for p in range(len(self.names)) if p != avoid and self._filled_cells(p)]
        if not seats:
            return True
        seat = rng.choice(seats)
        cells = self._filled_cells(seat)
        # Kniffel cells and arrow cells near the due cell are where corrections bite.
        keen = [c for c in cells if c[1] in ("kniffel", "ones", "chance", "sixes", "three_kind")]
        column, row = rng.choice(keen if keen and rng.random() < 0.5 else cells)
        event: dict[str, Any] = {
            "player": self.names[seat],
            "cell": self._cell_name(column, row),
        }
        if rng.random() < 0.5:
            event["type"] = "clear"
        else:
            event["type"] = "edit"
            event["points"] = rng.choice(
                sorted(possible_points(row, self.game.table["options"]["pasch"]))
            )
        return self.offer(self._extras(event))

    def undo_chain(self) -> bool:
        depth = self.rng.choice((1, 1, 1, 2, 3, 6))
        if self.rng.random() < 0.9:
            depth = min(depth, len(self.game.tables) - 1)
        return self.offer([{"type": "undo"} for _ in range(depth)])

    # -- illegal and malformed events ----------------------------------------------------

    def illegal(self) -> list[Any]:
        """Usually one bad event (sometimes after a few legal ones that set it up)."""
        rng = self.rng
        table = self.game.table
        seat = mover(table)
        seat = seat if seat is not None else rng.randrange(len(self.names))
        name = self.names[seat]
        dice = _dice(rng, 0.3)
        empty = [
            (c, r) for c, rows in table["sheet"][seat].items() for r, v in rows.items() if v is None
        ]
        filled = self._filled_cells(seat)
        anywhere = rng.choice(empty or filled)
        cell = self._cell_name(*anywhere)
        others = [n for n in self.names if n != name]
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
            return [enter | {"cell": self._cell_name(*rng.choice(filled)), "dice": dice}]
        if kind == 3:
            rolls = [] if pending is None else [None] * pending[1]
            events = [] if pending else [self.first_roll(seat)]
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
            return [enter | {"cell": self._cell_name(*target), "dice": [face] * 5}]
        if kind == 6:
            lower = [c for c in allowed(table, seat) if c[1] not in UPPER] or [anywhere]
            return [enter | {"cell": self._cell_name(*rng.choice(lower)), "points": 0}]
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
                        "cell": self._cell_name(column, row),
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
                        "cell": self._cell_name(*rng.choice(filled)),
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
                        "cell": self._cell_name(*rng.choice(filled)),
                        "points": None,
                    }
                ]
            return [enter | {field: None, "dice": dice}]
        if kind == 12:
            return [enter | {"dice": dice, "points": rng.choice((0, 25, None, 12.0))}]
        if kind == 13:
            return [
                {"type": "undo", "player": rng.choice((name, "Zoe"))}
                for _ in range(len(self.events) + rng.randint(0, 2))
            ]
        if kind == 14:
            if pending is None:
                return [self.first_roll(seat), enter | {"dice": dice}]
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
                    "cell": self._cell_name(*(empty or [anywhere])[0]),
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
            events = [] if pending else [self.first_roll(seat)]
            other = rng.choice(others)
            filled_other = self._filled_cells(self.names.index(other))
            if filled_other:
                events.append(
                    {
                        "type": "clear",
                        "player": other,
                        "cell": self._cell_name(*rng.choice(filled_other)),
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
                        "cell": self._cell_name(column, row),
                        "points": min(possible_points(row, pasch)),
                        "dice": dice,
                    }
                ]
            return [{"type": "roll", "player": name, "dice": dice, "keep": [], "points": "x"}]
        return [enter | {"cell": rng.choice([r for r in ROWS if r not in UPPER]), "dice": dice}]


def _broken_file(rng: random.Random, record: dict[str, Any]) -> str:
    """A record that is wrong outside its events (or not JSON at all)."""
    broken = dict(record)
    kind = rng.randrange(16)
    if kind == 0:
        return json.dumps(record)[: rng.randint(0, 40)]
    if kind == 1:
        return json.dumps(rng.choice(([record], None, "kniffel", 3, [])))
    if kind == 2 and rng.random() < 0.3:
        # Beyond what Python's json reads: too deep, or an integer of 5000 digits.
        return rng.choice(
            ("[" * 5000 + "]" * 5000, json.dumps(record)[:-1] + f', "n": {"7" * 5000}}}')
        )
    if kind == 10 and rng.random() < 0.3:
        # A lone surrogate (half a UTF-16 pair) and a whole pair, both escaped.
        name = rng.choice(("\\ud800", "\\udfff", "\\ud83c\\udfb2"))
        return json.dumps({**record, "players": ["Anna"], "events": []}).replace("Anna", name, 1)
    if kind == 2:
        broken["format"] = rng.choice(("kniffel-record/2", None, "", 1, "Kniffel-Record/1"))
    elif kind == 3:
        del broken["format"]
    elif kind == 4:
        broken["variant"] = rng.choice(("Kniffel", "triple", None, "", 3, ["kniffel"]))
    elif kind == 5:
        del broken["variant"]
    elif kind == 6:
        broken["options"] = rng.choice(({"jokers": "free"}, {"bonus": 100}, {"Chance": True}))
    elif kind == 7:
        broken["options"] = rng.choice(
            (
                {"chance": "yes"},
                {"chance": 1},
                {"kniffel_bonus": -100},
                {"kniffel_bonus": 100.0},
                {"kniffel_bonus": True},
                {"kniffel_bonus": "100"},
                {"joker": "maybe"},
                {"joker": True},
                {"pasch": "some_dice"},
                {"zero_only_upper": "false"},
                {"zero_only_upper": 0},
            )
        )
    elif kind == 8:
        broken["options"] = rng.choice(([], "yahtzee", 100, True))
    elif kind == 9:
        broken["players"] = rng.choice(([], [f"P{i}" for i in range(9)], ["Anna", "Anna"]))
    elif kind == 10:
        broken["players"] = rng.choice(([""], ["  "], ["Anna", "\t"], [1], ["Anna", None]))
    elif kind == 11:
        broken["players"] = rng.choice(("Anna", None, {"Anna": 1}, [["Anna"]]))
    elif kind == 12:
        del broken["players"]
    elif kind == 13:
        broken["events"] = rng.choice(({}, "roll", 5, {"type": "undo"}))
    elif kind == 14:
        # Harmless: null options, null events, and an unknown top-level field.
        broken["options"] = None
        broken["events"] = broken.get("events") or None
        broken["comment"] = "ignored"
    else:
        broken["options"] = {**broken.get("options", {}), "chance": None, "joker": None}
    return json.dumps(broken)
