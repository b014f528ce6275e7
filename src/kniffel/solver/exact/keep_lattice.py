"""The three-roll turn for many sheet states at once, on the lattice of keeps.

:mod:`kniffel.solver.exact.turn` states a turn as dense 462 x 252 matrix
products; that is clear, but for half a million sheet states the matrices
cost more than the structure needs. Here the keeps are walked level by level
(a keep of ``k`` dice is worth the mean over the sixth face of the keeps of
``k + 1`` dice), and the best keep after a roll is the best over the keep's
sub-multisets, built up one die at a time. Arrays are ``(252, S)``: one column
per sheet state, so every step is one numpy call over all states.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST

__all__ = ["TurnWorkspace", "turn_values"]

Array = npt.NDArray[np.float64]
_Index = npt.NDArray[np.intp]

_LEVELS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(k for k in KEEPS if len(k) == size) for size in range(6)
)


def _children() -> tuple[_Index, ...]:
    """``children[k][i, f]``: the keep of level ``k + 1`` that adds face ``f + 1`` to keep ``i``."""
    result = []
    for size in range(5):
        upper = {keep: i for i, keep in enumerate(_LEVELS[size + 1])}
        result.append(
            np.array(
                [[upper[tuple(sorted((*keep, f)))] for f in range(1, 7)] for keep in _LEVELS[size]],
                dtype=np.intp,
            )
        )
    return tuple(result)


def _parents() -> tuple[_Index, ...]:
    """``parents[k - 1][i]``: the keeps of level ``k - 1`` left by dropping one die of keep ``i``.

    Padded by repeating the last parent, which a maximum ignores.
    """
    result = []
    for size in range(1, 6):
        lower = {keep: i for i, keep in enumerate(_LEVELS[size - 1])}
        rows = [
            sorted({lower[keep[:i] + keep[i + 1 :]] for i in range(size)}) for keep in _LEVELS[size]
        ]
        width = max(len(r) for r in rows)
        result.append(np.array([r + [r[-1]] * (width - len(r)) for r in rows], dtype=np.intp))
    return tuple(result)


_CHILDREN = _children()
_PARENTS = _parents()


class TurnWorkspace:
    """Scratch arrays for batches of ``width`` states, reused so that numpy does not
    map and fault in fresh memory for every step (that cost more than the sums)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.levels = [np.empty((len(level), width)) for level in _LEVELS]
        self.best = [np.empty((len(level), width)) for level in _LEVELS]
        self.after_two = np.empty((len(_LEVELS[5]), width))
        self.gathered = np.empty((len(_LEVELS[5]), width))


def _expectations(rolls: Array, work: TurnWorkspace) -> list[Array]:
    """Expected value of every keep, level by level, when roll ``r`` is worth ``rolls[r]``."""
    levels = [*work.levels[:5], rolls]
    for size in range(4, -1, -1):
        children = _CHILDREN[size]
        total = levels[size]
        gathered = work.gathered[: len(total)]
        np.take(levels[size + 1], children[:, 0], axis=0, out=total, mode="clip")
        for f in range(1, 6):
            np.take(levels[size + 1], children[:, f], axis=0, out=gathered, mode="clip")
            total += gathered
        total *= 1 / 6
    return levels


def _best_keeps(levels: list[Array], work: TurnWorkspace, out: Array) -> Array:
    """For every roll, the best expectation over the keeps it allows (keeping all = stopping)."""
    best = levels[0]
    for size in range(1, 6):
        current = out if size == 5 else work.best[size]
        gathered = work.gathered[: len(current)]
        np.copyto(current, levels[size])
        parents = _PARENTS[size - 1]
        for j in range(parents.shape[1]):
            np.take(best, parents[:, j], axis=0, out=gathered, mode="clip")
            np.maximum(current, gathered, out=current)
        best = current
    return best


def turn_values(final: Array, work: TurnWorkspace | None = None) -> Array:
    """Expected value at the start of a turn, per state: ``final[r, s]`` is roll ``r`` at the end.

    The same numbers as :func:`kniffel.solver.exact.turn.turn_value` on ``final.T``.
    ``final`` is overwritten.
    """
    if work is None or work.width != final.shape[1]:
        work = TurnWorkspace(final.shape[1])
    after_two = _best_keeps(_expectations(final, work), work, work.after_two)
    after_one = _best_keeps(_expectations(after_two, work), work, final)
    return np.asarray(P_FIRST @ after_one)
