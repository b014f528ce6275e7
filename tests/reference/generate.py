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

from .broken import broken_file
from .dice import roll_dice
from .illegal import illegal_events
from .replayer import (
    PRESETS,
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
    record = Writer(rng).record()
    if rng.random() < 0.04:
        return broken_file(rng, record)
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


class Writer:
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
            return self.offer(illegal_events(self))
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
            "dice": roll_dice(self.rng, self.kniffel_bias),
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

    def cell_name(self, column: str, row: str) -> str:
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
                event = {"type": "enter", "player": name, "cell": self.cell_name(column, row)}
                if rng.random() < 0.1:
                    event.update(rng.choice(({"dice": None}, {"points": None})))
                candidates.append(self._extras(event))
        elif rng.random() < self.points_share:
            for column, row in self._ranked_cells(seat, None):
                choices = sorted(possible_points(row, table["options"]["pasch"]))
                points = rng.choice(choices[-2:] if rng.random() < 0.4 else choices)
                event = {"type": "enter", "player": name, "cell": self.cell_name(column, row)}
                event["points"] = points
                candidates.append(self._extras(event))
        else:
            dice = roll_dice(rng, self.kniffel_bias)
            for column, row in self._ranked_cells(seat, dice):
                event = {"type": "enter", "player": name, "cell": self.cell_name(column, row)}
                event["dice"] = dice
                candidates.append(self._extras(event))
        return self.offer_first_legal(candidates)

    def filled_cells(self, seat: int) -> list[tuple[str, str]]:
        sheet = self.game.table["sheet"][seat]
        return [(c, r) for c, rows in sheet.items() for r, v in rows.items() if v is not None]

    def correction(self, avoid: int | None = None) -> bool:
        """An edit or a clear of a random filled cell; True (no event) when none is filled."""
        rng = self.rng
        seats = [p for p in range(len(self.names)) if p != avoid and self.filled_cells(p)]
        if not seats:
            return True
        seat = rng.choice(seats)
        cells = self.filled_cells(seat)
        # Kniffel cells and arrow cells near the due cell are where corrections bite.
        keen = [c for c in cells if c[1] in ("kniffel", "ones", "chance", "sixes", "three_kind")]
        column, row = rng.choice(keen if keen and rng.random() < 0.5 else cells)
        event: dict[str, Any] = {
            "player": self.names[seat],
            "cell": self.cell_name(column, row),
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
