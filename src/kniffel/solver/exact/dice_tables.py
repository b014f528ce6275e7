"""Dice as arrays: the 252 rolls, the 462 keeps and the probabilities between them.

Shared by every solver and bot: index ``r`` names ``ROLLS[r]`` and index ``k``
names ``KEEPS[k]`` (a sorted multiset of 0 to 5 faces).
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from kniffel.rules.dice import ALL_ROLLS, FACES, Dice, keeps_of, outcome_probabilities

__all__ = [
    "KEEPS",
    "KEEP_INDEX",
    "P_FIRST",
    "P_KEEP",
    "ROLLS",
    "ROLL_INDEX",
    "ROLL_KEEPS",
]

ROLLS: tuple[Dice, ...] = ALL_ROLLS
ROLL_INDEX: dict[Dice, int] = {dice: i for i, dice in enumerate(ROLLS)}

KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep for size in range(6) for keep in itertools.combinations_with_replacement(FACES, size)
)
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}


def _keep_matrix() -> npt.NDArray[np.float64]:
    matrix = np.zeros((len(KEEPS), len(ROLLS)))
    for k, keep in enumerate(KEEPS):
        for dice, p in outcome_probabilities(keep):
            matrix[k, ROLL_INDEX[dice]] += p
    return matrix


#: ``P_KEEP[k, r]``: probability that keeping ``KEEPS[k]`` and rolling the rest gives ``ROLLS[r]``.
P_KEEP: npt.NDArray[np.float64] = _keep_matrix()
#: Probabilities of the first roll of a turn (all five dice).
P_FIRST: npt.NDArray[np.float64] = P_KEEP[KEEP_INDEX[()]].copy()


def _roll_keeps() -> npt.NDArray[np.intp]:
    width = max(len(keeps_of(d)) for d in ROLLS)
    table = np.zeros((len(ROLLS), width), dtype=np.intp)
    for r, dice in enumerate(ROLLS):
        ks = [KEEP_INDEX[k] for k in keeps_of(dice)]
        ks += [ks[-1]] * (width - len(ks))  # pad with a repeat; max() ignores repeats
        table[r] = ks
    return table


#: ``ROLL_KEEPS[r]``: the keep indices reachable from ``ROLLS[r]`` (padded by repeats).
ROLL_KEEPS: npt.NDArray[np.intp] = _roll_keeps()
