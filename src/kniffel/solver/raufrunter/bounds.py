"""Rauf-Runter-Kniffel: the exact table of ↓ and ↑ played together, and the bounds it gives.

The whole game has about 10^10 states, too many to solve here, but its two
arrow columns alone are small: a state is the progress of ↓ (rows filled from
the top), the progress of ↑ (rows filled from the bottom) and the upper sums
of both (capped at 63, the bonus is paid the moment a sum reaches it). Only
the sums of a column whose upper block is under way are kept; the others are
fixed, so the table has about a hundred thousand live states and solves in
seconds. No joker applies in it: in Rauf-Runter the joker needs the Kniffel
cell of the free column as well. A solved table is kept on disk
(:mod:`kniffel.solver.raufrunter.stored`), so a process reads it instead of solving it again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    UPPER,
    UPPER_BONUS_THRESHOLD,
    Discipline,
    Options,
    Row,
    bonus_on_entry,
    rows_for,
    zero_refused,
)
from kniffel.solver.exact import forking
from kniffel.solver.exact.keep_lattice import turn_values
from kniffel.solver.exact.roll_scores import raw_scores
from kniffel.solver.raufrunter import stored

__all__ = [
    "N_SUMS",
    "ArrowTable",
    "arrow_table",
    "arrow_table_solved",
    "capped_sum",
    "keep_arrow_table",
    "solve_bounds",
]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Upper sums are kept capped at the bonus threshold: 0..63.
N_SUMS = UPPER_BONUS_THRESHOLD + 1
_N_UPPER = len(UPPER)
_CHUNK = 1024  # states per turn_values call: enough to drown numpy's per-call cost


def capped_sum(upper: IntArray, points: IntArray) -> IntArray:
    """The upper sum after adding ``points``, capped at the threshold."""
    return np.asarray(np.minimum(upper + points, UPPER_BONUS_THRESHOLD), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class ArrowTable:
    """Expected points still to come with ↓ and ↑ played together, from the start of a turn.

    ``values[d, u, sd, su]``: ↓ has its first ``d`` rows filled with upper sum
    ``sd``, ↑ its last ``u`` rows with upper sum ``su`` (both capped at 63,
    bonuses already counted). Sums that cannot matter any more are ignored.
    """

    options: Options
    values: Array

    @property
    def n_rows(self) -> int:
        return int(self.values.shape[0]) - 1

    @property
    def ev(self) -> float:
        """The expected score of both columns from an empty sheet."""
        return float(self.values[0, 0, 0, 0])

    @property
    def down_alone(self) -> float:
        """↓ alone: the state where ↑ is already full."""
        return float(self.values[0, self.n_rows, 0, 0])

    @property
    def up_alone(self) -> float:
        """↑ alone: the state where ↓ is already full."""
        return float(self.values[self.n_rows, 0, 0, 0])


def _live_sums(filled_upper: int) -> IntArray:
    """The upper sums to tell apart after ``filled_upper`` of the six upper rows."""
    if 0 < filled_upper < _N_UPPER:
        return np.arange(N_SUMS)
    return np.zeros(1, dtype=np.int64)


def _entry_values(
    points: IntArray, is_upper: bool, sums: IntArray, next_values: Array, axis: int
) -> Array:
    """``points + bonus + next`` for every (live sum of the entered column, roll).

    ``next_values`` is the (sums of the entered column, other column's live sums)
    slice of the state after the entry; the result has the rolls last and the
    entered column's sums on ``axis`` (0 for ↓, 1 for ↑).
    """
    if is_upper:
        after = capped_sum(sums[:, None], points[None, :])  # (sums, rolls)
        gained = points[None, :] + bonus_on_entry(sums[:, None], points[None, :])
        following = next_values[after]  # (sums, rolls, other)
        result = gained[:, :, None] + following
        result = np.moveaxis(result, 1, 2)  # (sums, other, rolls)
    else:
        result = points[None, None, :] + next_values[sums][:, :, None]
    return result if axis == 0 else np.swapaxes(result, 0, 1)


#: The ↓↑ tables solved in this process (or handed in by :func:`keep_arrow_table`).
_SOLVED: dict[Options, ArrowTable] = {}


_arrow_key = stored.arrows_key


def arrow_table(options: Options, *, workers: int = 1) -> ArrowTable:
    """Solve ↓ and ↑ played together under ``options`` (no joker, no extra-Kniffel bonus).

    Kept in this process once solved or read; read from the disk cache when stored there by
    this code, else solved (by ``workers`` processes) and written there.
    """
    key = _arrow_key(options)
    table = _SOLVED.get(key)
    if table is None:
        values = stored.load(key, _shape(key))
        if values is None:
            table = _arrow_table(key, workers)
            stored.save(key, table.values)
        else:
            table = ArrowTable(key, values)
        table = _SOLVED.setdefault(key, table)
    return table


def arrow_table_solved(options: Options) -> bool:
    """Whether :func:`arrow_table` answers without solving: solved in this process, or stored."""
    key = _arrow_key(options)
    return key in _SOLVED or stored.is_stored(key)


def _shape(options: Options) -> tuple[int, int, int, int]:
    n = len(rows_for(options))
    return (n + 1, n + 1, N_SUMS, N_SUMS)


def keep_arrow_table(options: Options, values: Array) -> None:
    """Keeps a ↓↑ table solved elsewhere (the board's build process) for ``options``."""
    key = _arrow_key(options)
    _SOLVED.setdefault(key, ArrowTable(key, values))


def _arrow_table(options: Options, workers: int = 1) -> ArrowTable:
    """Solves the ↓↑ table level by level (rows filled in both columns together), each level's
    cells shared among ``workers`` processes (:mod:`kniffel.solver.exact.forking`); the values
    are the same whatever the number of workers (each cell is solved alone)."""
    n = len(rows_for(options))
    workers = forking.workers_here(workers)
    shape = (n + 1, n + 1, N_SUMS, N_SUMS)
    values = forking.shared_array(shape) if workers > 1 else np.zeros(shape)
    build = _Arrows(options, values, workers)
    with forking.forked(build, workers) as pool:
        for filled in range(2 * n - 1, -1, -1):
            forking.shares(pool, build, filled, workers)
    solved = values if workers == 1 else values.copy()
    solved.setflags(write=False)
    return ArrowTable(options, solved)


class _Arrows:
    """One ↓↑ build: its rules, its values, and how many processes share each level."""

    def __init__(self, options: Options, values: Array, workers: int) -> None:
        self.options, self.values, self.workers = options, values, workers
        self.rows = rows_for(options)
        self.scores = raw_scores(options)

    def share(self, filled: int, share: int) -> None:
        """Every ``workers``-th cell of level ``filled`` from the ``share``-th on."""
        n = len(self.rows)
        cells = range(max(0, filled - n), min(n, filled) + 1)
        for d in cells[share :: self.workers]:
            self.solve(d, filled - d)

    def solve(self, d: int, u: int) -> None:
        """The values of ``d`` rows filled in ↓ and ``u`` in ↑, from the level below."""
        rows, scores, values, options = self.rows, self.scores, self.values, self.options
        n = len(rows)
        sd = _live_sums(min(d, _N_UPPER))
        su = _live_sums(max(0, u - (n - _N_UPPER)))
        candidates: list[Array] = []
        down_row = rows[d] if d < n else None
        up_row = rows[n - 1 - u] if u < n else None
        if down_row is not None:
            down = _entry_values(scores[d], down_row.is_upper, sd, values[d + 1, u][:, su], axis=0)
            candidates.append(_refuse_zero(down, scores[d], down_row, up_row, options))
        if up_row is not None:
            after = values[d, u + 1][sd].T  # (sums of ↑, live sums of ↓)
            up = _entry_values(scores[n - 1 - u], up_row.is_upper, su, after, axis=1)
            candidates.append(_refuse_zero(up, scores[n - 1 - u], up_row, down_row, options))
        final = np.maximum.reduce(candidates) if len(candidates) > 1 else candidates[0]
        # a sum that is not live is broadcast: any lookup of it gives the same value
        values[d, u] = np.broadcast_to(_turn_values(final), (N_SUMS, N_SUMS))


def _refuse_zero(
    entry: Array, points: IntArray, row: Row, other_row: Row | None, options: Options
) -> Array:
    """``zero_only_upper``: no zero below while the other column is due above (§6)."""
    upper_open = other_row is not None and other_row.is_upper
    if not zero_refused(options, row, 0, upper_open):
        return entry
    return np.where(points == 0, -np.inf, entry)


def _turn_values(final: Array) -> Array:
    flat = final.reshape(-1, final.shape[-1])
    parts = [
        turn_values(np.ascontiguousarray(flat[i : i + _CHUNK].T))
        for i in range(0, len(flat), _CHUNK)
    ]
    return np.concatenate(parts).reshape(final.shape[:-1])


def solve_bounds(options: Options) -> dict[str, float]:
    """The exact parts of Rauf-Runter-Kniffel under ``options``.

    ``down_alone`` and ``up_alone``: each arrow column as a one-column game;
    ``down_up_together``: both arrow columns played together (26 turns, or 24
    without Chance); ``lower_bound``: that plus the free column played after
    them, which any strategy playing ↓↑ first and the free column last reaches.
    """
    from kniffel.solver.exact.column import solve_column

    together = arrow_table(options).ev
    free = solve_column(options, Discipline.FREE).ev
    return {
        "down_alone": solve_column(options, Discipline.DOWN).ev,
        "up_alone": solve_column(options, Discipline.UP).ev,
        "down_up_together": together,
        "lower_bound": together + free,
    }
