"""The sheet states of one column, as the exact solver counts them.

A turn starts in a state ``(mask, upper, armed)``: which rows are filled
(bit ``j`` for ``rows_for(options)[j]``), the upper sum capped at 63 (all the
upper bonus needs), and whether the ``kniffel`` cell holds 50 (all the
extra-Kniffel bonus needs; only tracked when ``kniffel_bonus`` is above 0).
Whether the ``kniffel`` cell is filled at all, which the joker needs, is
already in the mask. Every state has a flat index into one value array.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    UPPER_BONUS_THRESHOLD,
    Discipline,
    Game,
    Options,
    Row,
    fill_order,
    holds_fifty,
    rows_for,
)
from kniffel.solver.exact.roll_scores import due_array, joker_arrays, raw_scores

__all__ = ["UPPER_CAP", "SheetSpace", "SheetState", "StateBatch"]

UPPER_CAP = UPPER_BONUS_THRESHOLD
_UPPER_SUMS = UPPER_CAP + 1

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class SheetState(NamedTuple):
    """One column's state at the start of a turn."""

    mask: int
    upper: int
    armed: int


class StateBatch(NamedTuple):
    """Many states as parallel arrays."""

    mask: Ints
    upper: Ints
    armed: Ints

    def __len__(self) -> int:
        return len(self.mask)

    def part(self, start: int, stop: int) -> StateBatch:
        return StateBatch(self.mask[start:stop], self.upper[start:stop], self.armed[start:stop])


def _reachable_sums() -> Bools:
    """``reach[upper_mask, u]``: whether the filled upper rows can sum to ``u`` (capped)."""
    reach = np.zeros((64, _UPPER_SUMS), dtype=np.bool_)
    for upper_mask in range(64):
        sums = {0}
        for face in range(1, 7):
            if upper_mask >> (face - 1) & 1:
                sums = {min(UPPER_CAP, s + n * face) for s in sums for n in range(6)}
        reach[upper_mask, sorted(sums)] = True
    return reach


_REACH = _reachable_sums()


@dataclass(frozen=True)
class SheetSpace:
    """The states of a one-column game under ``options`` and ``discipline``."""

    options: Options
    discipline: Discipline = Discipline.FREE
    rows: tuple[Row, ...] = field(init=False)
    kniffel_bit: int = field(init=False)

    def __post_init__(self) -> None:
        rows = rows_for(self.options)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "kniffel_bit", rows.index(Row.KNIFFEL))

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def full_mask(self) -> int:
        return (1 << self.n_rows) - 1

    @property
    def armed_values(self) -> int:
        """2 when the ``kniffel`` cell's 50 matters (extra-Kniffel bonus), else 1."""
        return 2 if self.options.kniffel_bonus > 0 else 1

    @property
    def size(self) -> int:
        return (1 << self.n_rows) * _UPPER_SUMS * self.armed_values

    def index(self, mask: Ints, upper: Ints, armed: Ints) -> Ints:
        """The flat indices of many states."""
        return (mask * _UPPER_SUMS + upper) * self.armed_values + armed

    def flat_index(self, state: SheetState) -> int:
        mask, upper, armed = state
        if not (0 <= mask <= self.full_mask and 0 <= upper <= UPPER_CAP and 0 <= armed < 2):
            raise ValueError(f"no such sheet state: {state}")
        return (mask * _UPPER_SUMS + upper) * self.armed_values + min(armed, self.armed_values - 1)

    def masks(self, filled: int) -> Ints:
        """The masks with ``filled`` rows filled that the discipline can reach."""
        n = self.n_rows
        order = fill_order(self.discipline, n)
        if order is not None:  # ↓ and ↑: the first ``filled`` rows of their order
            return np.array([sum(1 << row for row in order[:filled])], dtype=np.int64)
        every = np.arange(1 << n, dtype=np.int64)
        counts = np.zeros_like(every)
        for bit in range(n):
            counts += (every >> bit) & 1
        return np.asarray(every[counts == filled])

    def states(self, filled: int) -> StateBatch:
        """Every reachable state with ``filled`` rows filled."""
        masks = self.masks(filled)
        which, upper = np.nonzero(_REACH[masks & 63])
        mask = masks[which]
        armed = np.zeros_like(mask)
        if self.armed_values == 2:
            has_kniffel = (mask >> self.kniffel_bit) & 1 == 1
            mask = np.concatenate([mask, mask[has_kniffel]])
            upper = np.concatenate([upper, upper[has_kniffel]])
            armed = np.concatenate([armed, np.ones(int(has_kniffel.sum()), dtype=np.int64)])
        return StateBatch(mask, upper.astype(np.int64), armed)

    def distinct(self, filled: int) -> tuple[StateBatch, Ints, Ints]:
        """The states of :meth:`states` that need solving, and which of the rest equals which.

        Once the open upper rows can no longer bring the upper sum to 63 (or none is open),
        the sum changes nothing ahead: the upper bonus is earned or lost for good, and no
        other rule reads the sum. The states that differ only in such a sum share one value;
        the first of them (the smallest sum) is solved, and ``values[to] = values[source]``
        (the flat indices returned with it) gives the others. For ``yahtzee`` that solves
        359,422 of the 536,448 states (and the 128 full sheets are worth 0).
        """
        batch = self.states(filled)
        room = self._upper_room()[batch.mask & 63]
        settled = (room == 0) | (batch.upper + room < UPPER_CAP)
        group = np.where(settled, batch.mask * 2 + batch.armed, -1)
        _, first, inverse = np.unique(group, return_index=True, return_inverse=True)
        source = first[inverse]
        copied = settled & (source != np.arange(len(batch)))
        flat = self.index(*batch)
        solved = StateBatch(*(np.ascontiguousarray(a[~copied]) for a in batch))
        return solved, flat[copied], flat[source[copied]]

    def _upper_room(self) -> Ints:
        """``room[upper_mask]``: the most points the upper rows left open can still add.

        Each open row adds at most its best score, joker included (from the rules' tables).
        """
        raw = raw_scores(self.options)
        _, _, full_points = joker_arrays(self.options.joker, self.rows)
        rulings = len(full_points) // self.n_rows  # joker_index: each row's rulings in a block
        best = [
            max(int(raw[j].max()), int(full_points[j * rulings : (j + 1) * rulings].max()))
            for j in range(6)
        ]
        every = np.arange(64, dtype=np.int64)
        room = np.zeros(64, dtype=np.int64)
        for j in range(6):
            room += np.where((every >> j) & 1 == 0, best[j], 0)
        return room

    def allowed(self, mask: Ints) -> Bools:
        """``allowed[j, s]``: whether row ``j`` may take the entry in state ``s`` (§4)."""
        bits = np.arange(self.n_rows, dtype=np.int64)[:, None]
        if self.discipline is Discipline.FREE:
            return np.asarray((mask[None, :] >> bits) & 1 == 0)
        return np.asarray(due_array(self.discipline, self.n_rows)[mask][None, :] == bits)

    def state_of(self, game: Game, player: str | int, column: str) -> SheetState:
        """The state of ``player``'s ``column`` in ``game`` (rows must match this space)."""
        mask = upper = 0
        armed = 0
        for j, row in enumerate(self.rows):
            points = game.points(player, game.cell(f"{column}.{row.value}"))
            if points is None:
                continue
            mask |= 1 << j
            if row.is_upper:
                upper += points
            if holds_fifty(row is Row.KNIFFEL, points) and self.armed_values == 2:
                armed = 1
        return SheetState(mask, min(upper, UPPER_CAP), armed)
