"""The value estimate the Rauf-Runter bot plays by.

V(sheet) = A(↓ progress, ↑ progress, their upper sums) + F(free column)

A is the exact table of ↓ and ↑ played together (:mod:`kniffel.solver.raufrunter`),
F the exact one-column table of the free column: together, the value of the
plan "finish ↓↑ first, then the free column", which is a lower bound of what
is still to come.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options, Row, rows_for
from kniffel.solver.column import solve_column
from kniffel.solver.raufrunter import N_SUMS, arrow_table
from kniffel.solver.sheets import Entries, SheetBatch
from kniffel.solver.values import column_grid, lookup

__all__ = ["RaufRunterValue"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Ints = npt.NDArray[np.signedinteger[Any]]
BoolArray = npt.NDArray[np.bool_]

_DOWN, _UP, _FREE = 0, 1, 2
_CAP = N_SUMS - 1


class RaufRunterValue:
    """Plan value of a Rauf-Runter sheet (columns ↓, ↑, free in this order)."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.arrows = arrow_table(options).values
        self.free = column_grid(solve_column(options, Discipline.FREE))
        self.n_rows = len(rows_for(options))
        self.kniffel_row = rows_for(options).index(Row.KNIFFEL)

    def _arrows(self, d: Ints, u: Ints, sd: Ints, su: Ints) -> Array:
        return np.asarray(self.arrows[d, u, np.minimum(sd, _CAP), np.minimum(su, _CAP)])

    def _free(self, mask: Ints, upper: Ints, armed: BoolArray | None) -> Array:
        return lookup(self.free, mask, upper, armed)

    def after(self, sheets: SheetBatch, entries: Entries) -> Array:
        n = self.n_rows
        filled = sheets.filled
        d = np.bitwise_count(filled[:, _DOWN]).astype(np.int64)
        u = np.bitwise_count(filled[:, _UP]).astype(np.int64)
        sd, su = sheets.upper[:, _DOWN], sheets.upper[:, _UP]
        armed: BoolArray = np.asarray(sheets.fifty.any(axis=1))
        free_now = self._free(filled[:, _FREE], sheets.upper[:, _FREE], armed)
        arrows_now = self._arrows(d, u, sd, su)
        shape = entries.points.shape
        result = np.empty(shape)
        # slot 0: the due cell of ↓; slot 1: the due cell of ↑; then the free rows
        down_after = self._arrows(
            np.minimum(d + 1, n)[:, None], u[:, None], entries.upper_after[:, 0], su[:, None]
        )
        result[:, 0] = down_after + free_now[:, None]
        up_after = self._arrows(
            d[:, None], np.minimum(u + 1, n)[:, None], sd[:, None], entries.upper_after[:, 1]
        )
        result[:, 1] = up_after + free_now[:, None]
        rows = np.arange(n)
        mask = (filled[:, _FREE][:, None] | (1 << rows)[None, :])[:, :, None]
        armed_after = None
        if self.free.shape[2] == 2:  # the extra-Kniffel bonus counts: a 50 arms it
            fifty = (rows == self.kniffel_row)[None, :, None] & (entries.points[:, 2:] == 50)
            armed_after = fifty | armed[:, None, None]
        free_after = self._free(mask, entries.upper_after[:, 2:], armed_after)
        result[:, 2:] = free_after + arrows_now[:, None, None]
        return result
