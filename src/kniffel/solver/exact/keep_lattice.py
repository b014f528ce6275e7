"""The three-roll turn for many sheet states at once, on the lattice of keeps.

:mod:`kniffel.solver.exact.turn` states a turn as dense 462 x 252 matrix
products; that is clear, but for half a million sheet states the matrices
cost more than the structure needs. Here the keeps are walked level by level
(a keep of ``k`` dice is worth the mean over the sixth face of the keeps of
``k + 1`` dice), and the best keep after a roll is the best over the keep's
sub-multisets, built up one die at a time. Arrays are ``(keeps, S)``: one
column per sheet state, so every step is one numpy call over all states.

Inside a turn the keeps of each size are ordered by their number of distinct
faces, most first: a keep with ``d`` distinct faces has ``d`` sub-keeps one
die smaller, so the ``j``-th sub-keeps concern a prefix of the level and the
maxima run over exactly the pairs that exist (1,260 per state and stage, not
the 1,980 of a padded table). The five-dice level is the rolls: the first
stage reads them in :data:`~kniffel.solver.dice_tables.ROLLS` order and hands
its result on in the inner order, which the second stage reads as it is.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST, ROLLS

__all__ = [
    "CHILDREN",
    "CHILDREN_OF_ROLLS",
    "PARENTS",
    "P_FIRST_INNER",
    "ROLL_ORDER",
    "TurnWorkspace",
    "expectations",
    "turn_values",
]

Array = npt.NDArray[np.float64]
_Index = npt.NDArray[np.intp]
_Keep = tuple[int, ...]


def _ordered(size: int) -> tuple[_Keep, ...]:
    """The keeps of ``size`` dice, most distinct faces first (ties in KEEPS order)."""
    return tuple(sorted((k for k in KEEPS if len(k) == size), key=lambda k: -len(set(k))))


_LEVELS: tuple[tuple[_Keep, ...], ...] = tuple(_ordered(size) for size in range(6))
_POSITION = [{keep: i for i, keep in enumerate(level)} for level in _LEVELS]
_ROLL_POSITION = {dice.faces: r for r, dice in enumerate(ROLLS)}
#: ``ROLL_ORDER[i]``: the ROLLS index of the ``i``-th roll in the inner order.
ROLL_ORDER: _Index = np.array([_ROLL_POSITION[k] for k in _LEVELS[5]], dtype=np.intp)
#: The first roll's probabilities in the inner order.
P_FIRST_INNER = P_FIRST[ROLL_ORDER].copy()


def _children(size: int, position: dict[_Keep, int]) -> _Index:
    """``[i, f]``: where (by ``position``) keep ``i`` of ``size`` dice plus face ``f + 1`` is."""
    return np.array(
        [[position[tuple(sorted((*keep, f)))] for f in range(1, 7)] for keep in _LEVELS[size]],
        dtype=np.intp,
    )


#: ``CHILDREN[k]``: keeps of ``k + 1`` dice from keeps of ``k``, in the inner orders.
CHILDREN = tuple(_children(size, _POSITION[size + 1]) for size in range(5))
#: The same for four dice, pointing at the rolls in ROLLS order (the first stage).
CHILDREN_OF_ROLLS = _children(4, _ROLL_POSITION)


def _parents(size: int) -> tuple[tuple[_Index, int], ...]:
    """``(indices, n)`` per ``j``: the ``j``-th sub-keep (one die less) of the first ``n`` keeps."""
    lower = _POSITION[size - 1]
    rows = [
        sorted({lower[keep[:i] + keep[i + 1 :]] for i in range(size)}) for keep in _LEVELS[size]
    ]
    result = []
    for j in range(max(len(r) for r in rows)):
        n = sum(1 for r in rows if len(r) > j)
        assert all(len(r) > j for r in rows[:n])  # the order makes them a prefix
        result.append((np.array([r[j] for r in rows[:n]], dtype=np.intp), n))
    return tuple(result)


PARENTS = {size: _parents(size) for size in range(1, 6)}


class TurnWorkspace:
    """Scratch arrays for batches of ``width`` states, reused so that numpy does not
    map and fault in fresh memory for every step (that cost more than the sums)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.levels = [np.empty((len(level), width)) for level in _LEVELS]
        self.best = [np.empty((len(level), width)) for level in _LEVELS]
        self.after_two = np.empty((len(_LEVELS[5]), width))
        self.gathered = np.empty((len(_LEVELS[5]), width))


def expectations(rolls: Array, children_of_rolls: _Index, work: TurnWorkspace) -> list[Array]:
    """Expected value of every keep, level by level, when roll ``r`` is worth ``rolls[r]``."""
    levels = [*work.levels[:5], rolls]
    for size in range(4, -1, -1):
        children = children_of_rolls if size == 4 else CHILDREN[size]
        total = levels[size]
        gathered = work.gathered[: len(total)]
        np.take(levels[size + 1], children[:, 0], axis=0, out=total, mode="clip")
        for f in range(1, 6):
            np.take(levels[size + 1], children[:, f], axis=0, out=gathered, mode="clip")
            total += gathered
        total *= 1 / 6
    return levels


def _best_keeps(levels: list[Array], rolls_in_order: bool, work: TurnWorkspace, out: Array) -> None:
    """For every roll (inner order, into ``out``), the best expectation over the keeps it allows.

    Keeping all five dice is stopping: ``levels[5]``, in ROLLS order when
    ``rolls_in_order``, else already in the inner order.
    """
    best = levels[0]
    for size in range(1, 6):
        current = out if size == 5 else work.best[size]
        if size == 5 and rolls_in_order:
            np.take(levels[5], ROLL_ORDER, axis=0, out=current, mode="clip")
        else:
            np.copyto(current, levels[size])
        for parents, n in PARENTS[size]:
            gathered = work.gathered[:n]
            np.take(best, parents, axis=0, out=gathered, mode="clip")
            np.maximum(current[:n], gathered, out=current[:n])
        best = current


def turn_values(final: Array, work: TurnWorkspace | None = None) -> Array:
    """Expected value at the start of a turn, per state: ``final[r, s]`` is roll ``r`` at the end.

    The same numbers as :func:`kniffel.solver.exact.turn.turn_value` on ``final.T``.
    ``final`` is overwritten.
    """
    if work is None or work.width != final.shape[1]:
        work = TurnWorkspace(final.shape[1])
    _best_keeps(expectations(final, CHILDREN_OF_ROLLS, work), True, work, work.after_two)
    levels = expectations(work.after_two, CHILDREN[4], work)
    _best_keeps(levels, False, work, final)
    return np.asarray(P_FIRST_INNER @ final)
