"""The exact mean and variance of a one-column game's final total under optimal play.

The solver's recursion (docs/solver.md, "What it computes") gives the value
``V``, the expected points still to come, by choosing the best keep after
every roll and the best entry of every final roll. Here the second moment
``S`` of the points still to come follows the same choices:

- entering final roll ``r`` into the best row ``j`` (the one the solver
  picks) gains ``g`` and leads to state ``s'``, so the points still to come are
  ``g + X'`` with second moment ``(g + V(s'))^2 + (S(s') - V(s')^2)``;
- a keep's second moment is the mean over its outcomes, like its value;
- after a roll, the second moment is that of the keep with the best value.

The entry rules come from :func:`kniffel.solver.exact.entries.row_values`, run over
``V`` (worth ``g + V(s')``), over ``S - V^2`` (``g + Var(s')``) and over zeros
(``g``). Only the states reachable from a given state are solved, so a late
position costs little; the empty sheet costs about as much as the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.dice_tables import P_FIRST, P_KEEP, ROLL_KEEPS
from kniffel.solver.exact.entries import row_values
from kniffel.solver.exact.sheet_space import SheetSpace, SheetState, StateBatch
from kniffel.solver.play.bots import best_index

__all__ = ["Moments", "column_moments"]

Array = npt.NDArray[np.float64]

_BATCH = 512


@dataclass(frozen=True)
class Moments:
    """Of the points still to come from the start of a turn."""

    mean: float
    variance: float

    @property
    def std(self) -> float:
        return float(np.sqrt(max(self.variance, 0.0)))


def _follow(values: Array, companion: Array) -> tuple[Array, Array]:
    """After a roll: the best keep's value and its companion moment (``[S, 252]`` each)."""
    candidates = values[:, ROLL_KEEPS]  # [S, 252, 32]
    best = best_index(candidates)[..., None]
    return (
        np.take_along_axis(candidates, best, axis=-1)[..., 0],
        np.take_along_axis(companion[:, ROLL_KEEPS], best, axis=-1)[..., 0],
    )


def _turn(final: Array, second: Array) -> tuple[Array, Array]:
    """Start-of-turn value and second moment for ``[S, 252]`` final rolls."""
    after_two = _follow(final @ P_KEEP.T, second @ P_KEEP.T)
    after_one = _follow(after_two[0] @ P_KEEP.T, after_two[1] @ P_KEEP.T)
    return after_one[0] @ P_FIRST, after_one[1] @ P_FIRST


def _solve_batch(space: SheetSpace, values: Array, spread: Array, batch: StateBatch) -> Array:
    """``S`` of the states of ``batch`` (their successors are solved)."""
    zeros = np.zeros_like(values)
    size = len(batch)
    best = np.full((252, size), -np.inf)
    second = np.zeros((252, size))
    rows_v = row_values(space, values, batch)
    rows_w = row_values(space, spread, batch)
    rows_g = row_values(space, zeros, batch)
    for worth, var_worth, gain in zip(rows_v, rows_w, rows_g, strict=True):
        better = np.round(worth, 9) > np.round(best, 9)
        with np.errstate(invalid="ignore"):  # -inf - -inf where a row is closed
            m2 = worth**2 + (var_worth - gain)
        best = np.where(better, worth, best)
        second = np.where(better, m2, second)
    _, start = _turn(best.T, second.T)
    return np.asarray(start)


def column_moments(
    options: Options, state: SheetState, discipline: Discipline = Discipline.FREE
) -> Moments:
    """Mean and variance of the points still to come from ``state`` under optimal play."""
    table = solve_column(options, discipline)
    space = table.space
    values = table.values
    spread = np.full(space.size, np.nan)  # S - V^2, per state
    start_index = space.flat_index(state)
    first = state.mask
    n_filled = bin(first).count("1")
    for filled in range(space.n_rows, n_filled - 1, -1):
        states = space.states(filled)
        keep = (states.mask & first) == first
        if filled == n_filled:
            keep &= (states.upper == state.upper) & (states.armed == state.armed)
        states = StateBatch(*(a[keep] for a in states))
        index = space.index(*states)
        if filled == space.n_rows:
            spread[index] = 0.0
            continue
        for lo in range(0, len(states), _BATCH):
            part = states.part(lo, lo + _BATCH)
            second = _solve_batch(space, values, spread, part)
            mean = values[space.index(*part)]
            spread[space.index(*part)] = second - mean**2
    if np.isnan(spread[start_index]):
        raise ValueError(f"the table has no value for {state}")
    return Moments(float(values[start_index]), float(spread[start_index]))
