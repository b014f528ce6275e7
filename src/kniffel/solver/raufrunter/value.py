"""The value estimate the Rauf-Runter bot plays by.

    V(sheet) = A(d, u, sd, su) + F(free mask, free upper sum) + C(d, u, free mask)

``A`` is the exact table of ↓ and ↑ played together (:mod:`kniffel.solver.raufrunter.bounds`)
with ``d``, ``u`` their progress and ``sd``, ``su`` their upper sums; ``F`` the
exact one-column table of the free column. ``A + F`` is the value of the plan
"finish ↓↑ first, then the free column": a lower bound of what is still to
come, exact as soon as either part is full. ``C`` (:mod:`kniffel.solver.raufrunter.correction`)
is learned from self-play: what choosing the column after each roll adds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options, Row, holds_fifty, rows_for
from kniffel.solver.exact.column import solve_column
from kniffel.solver.play.sheets import Entries, SheetBatch
from kniffel.solver.play.values import column_grid, lookup
from kniffel.solver.raufrunter.bounds import N_SUMS, arrow_table
from kniffel.solver.raufrunter.correction import Correction

__all__ = ["RaufRunterValue"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Ints = npt.NDArray[np.signedinteger[Any]]
BoolArray = npt.NDArray[np.bool_]

_DOWN, _UP, _FREE = 0, 1, 2
_CAP = N_SUMS - 1


class RaufRunterValue:
    """Value of a Rauf-Runter sheet (columns ↓, ↑, free in this order)."""

    def __init__(self, options: Options, correction: Correction | None = None) -> None:
        rows = rows_for(options)
        if correction is not None and correction.n_rows != len(rows):
            raise ValueError("the correction was fitted for another number of rows")
        self.options = options
        self.correction = correction
        self.arrows = arrow_table(options).values
        self.free = column_grid(solve_column(options, Discipline.FREE))
        self.n_rows = len(rows)
        self.kniffel_row = rows.index(Row.KNIFFEL)

    def _arrows(self, d: Ints, u: Ints, sd: Ints, su: Ints) -> Array:
        return np.asarray(self.arrows[d, u, np.minimum(sd, _CAP), np.minimum(su, _CAP)])

    def _free(self, mask: Ints, upper: Ints, armed: BoolArray | None) -> Array:
        return lookup(self.free, mask, upper, armed)

    def _correction(self, d: Ints, u: Ints, mask: Ints) -> Array:
        if self.correction is None:
            return np.zeros(np.shape(d))
        return self.correction.value(d, u, mask)

    @staticmethod
    def progress(sheets: SheetBatch) -> tuple[IntArray, IntArray]:
        """How many rows of ↓ and of ↑ are filled."""
        filled = sheets.filled
        d = np.bitwise_count(filled[:, _DOWN]).astype(np.int64)
        return d, np.bitwise_count(filled[:, _UP]).astype(np.int64)

    def state_value(self, sheets: SheetBatch) -> tuple[Array, Array]:
        """The plan value ``A + F`` and the correction ``C`` of every sheet, at a turn's start."""
        d, u = self.progress(sheets)
        armed: BoolArray = np.asarray(sheets.fifty.any(axis=1))
        plan = self._arrows(d, u, sheets.upper[:, _DOWN], sheets.upper[:, _UP]) + self._free(
            sheets.filled[:, _FREE], sheets.upper[:, _FREE], armed
        )
        return plan, self._correction(d, u, sheets.filled[:, _FREE])

    def after(self, sheets: SheetBatch, entries: Entries) -> Array:
        n = self.n_rows
        d, u = self.progress(sheets)
        sd, su = sheets.upper[:, _DOWN], sheets.upper[:, _UP]
        mask = sheets.filled[:, _FREE]
        armed: BoolArray = np.asarray(sheets.fifty.any(axis=1))
        free_now = self._free(mask, sheets.upper[:, _FREE], armed)
        arrows_now = self._arrows(d, u, sd, su)
        result = np.empty(entries.points.shape)
        # slot 0: the due cell of ↓; slot 1: the due cell of ↑; then the free rows
        d_next, u_next = np.minimum(d + 1, n), np.minimum(u + 1, n)
        down = self._arrows(d_next[:, None], u[:, None], entries.upper_after[:, 0], su[:, None])
        result[:, 0] = down + free_now[:, None]
        up = self._arrows(d[:, None], u_next[:, None], sd[:, None], entries.upper_after[:, 1])
        result[:, 1] = up + free_now[:, None]
        rows = np.arange(n)
        masks = mask[:, None] | (1 << rows)[None, :]  # [B, n]
        armed_after = None
        if self.free.shape[2] == 2:  # the extra-Kniffel bonus counts: a 50 arms it
            fifty = holds_fifty((rows == self.kniffel_row)[None, :, None], entries.points[:, 2:])
            armed_after = fifty | armed[:, None, None]
        free_after = self._free(masks[:, :, None], entries.upper_after[:, 2:], armed_after)
        result[:, 2:] = free_after + arrows_now[:, None, None]
        if self.correction is not None:
            slots_d = np.concatenate([d_next[:, None], d[:, None], np.repeat(d[:, None], n, 1)], 1)
            slots_u = np.concatenate([u[:, None], u_next[:, None], np.repeat(u[:, None], n, 1)], 1)
            slots_mask = np.concatenate([mask[:, None], mask[:, None], masks], 1)
            result += self.correction.value(slots_d, slots_u, slots_mask)[:, :, None]
        return result
