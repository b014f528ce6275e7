"""What a sheet is worth after an entry: the value estimates the bots play by.

A bot ends each turn with the entry that maximises ``gain + after``, where
``after`` is a :class:`SheetValue`'s estimate of the points still to come
once the entry is made, and picks its keeps to maximise the expectation of
that (:mod:`kniffel.solver.exact.turn`). An estimate only has to rank the entries
of one turn, so adding the same amount to every slot changes nothing.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options, Row, holds_fifty
from kniffel.solver.exact.column import ColumnTable, solve_column
from kniffel.solver.play.sheets import Entries, SheetBatch
from kniffel.solver.raufrunter.bounds import N_SUMS

__all__ = ["ColumnValues", "NoValue", "SheetValue", "column_grid", "lookup"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Ints = npt.NDArray[np.signedinteger[Any]]
BoolArray = npt.NDArray[np.bool_]

_CAP = N_SUMS - 1


class SheetValue(Protocol):
    """An estimate of the points still to come after each entry of a turn."""

    def after(self, sheets: SheetBatch, entries: Entries) -> Array:
        """``[B, K, R]``: the points still to come after entering roll ``r`` in slot ``k``."""
        ...


class NoValue:
    """Nothing matters but this turn's points: the greedy bot's estimate."""

    def after(self, sheets: SheetBatch, entries: Entries) -> Array:
        return np.zeros(entries.points.shape)


def column_grid(table: ColumnTable) -> Array:
    """``table.values`` as ``[mask, capped upper sum, armed]``, for fancy indexing."""
    space = table.space
    return table.values.reshape(1 << space.n_rows, N_SUMS, space.armed_values)


def lookup(grid: Array, mask: Ints, upper: Ints, armed: BoolArray | None) -> Array:
    """Values of a column grid; ``armed`` is ignored where the table does not track it."""
    capped = np.minimum(upper, _CAP)
    if grid.shape[2] == 1 or armed is None:
        return np.asarray(grid[mask, capped, 0])
    return np.asarray(grid[mask, capped, armed.astype(np.intp)])


class ColumnValues:
    """Each column valued by its exact one-column table, times its factor.

    Exact for a one-column variant (the bot then plays the optimal strategy);
    for several free columns (Dreifach) it ranks an entry by what it does to
    its own column, as if each column were finished on its own.
    """

    def __init__(self, options: Options, disciplines: tuple[Discipline, ...]) -> None:
        self.grids = {d: column_grid(solve_column(options, d)) for d in set(disciplines)}
        self.disciplines = disciplines

    def _column(self, sheets: SheetBatch, c: int) -> Array:
        grid = self.grids[self.disciplines[c]]
        return lookup(grid, sheets.filled[:, c], sheets.upper[:, c], sheets.fifty[:, c])

    def after(self, sheets: SheetBatch, entries: Entries) -> Array:
        layout = sheets.layout
        factor = layout.factor.astype(np.float64)
        now = np.stack([self._column(sheets, c) for c in range(len(self.disciplines))], axis=1)
        base = (now * factor).sum(axis=1)  # [B]
        kniffel_row = sheets.rows.index(Row.KNIFFEL)
        result = np.empty(entries.points.shape)
        for c in range(len(self.disciplines)):
            slots = np.flatnonzero(layout.column == c)
            grid = self.grids[self.disciplines[c]]
            row = entries.row[:, slots][:, :, None]  # [B, S, 1]
            mask = sheets.filled[:, c][:, None, None] | np.left_shift(1, np.maximum(row, 0))
            fifty = holds_fifty(row == kniffel_row, entries.points[:, slots])
            armed = fifty | sheets.fifty[:, c][:, None, None]
            # closed slots may point at unreachable states (NaN); they are never legal
            later = lookup(grid, mask, entries.upper_after[:, slots], armed)
            result[:, slots] = (base - now[:, c] * factor[c])[:, None, None] + later * factor[c]
        return result
