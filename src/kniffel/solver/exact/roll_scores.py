"""The points of every roll in every row, as arrays indexed like ``dice_tables.ROLLS``."""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from kniffel.rules import Options, Row, raw_score, rows_for
from kniffel.rules.rows import FIXED_SCORES
from kniffel.solver.exact.dice_tables import ROLLS

__all__ = [
    "BONUS_POINTS",
    "BONUS_THRESHOLD",
    "IS_KNIFFEL",
    "KNIFFEL_FACE",
    "joker_scores",
    "raw_scores",
]

#: The upper bonus: 35 points once the upper block of a column holds 63 or more.
BONUS_THRESHOLD = 63
BONUS_POINTS = 35

#: ``IS_KNIFFEL[r]``: whether ``ROLLS[r]`` shows five equal faces.
IS_KNIFFEL: npt.NDArray[np.bool_] = np.array([dice.is_kniffel for dice in ROLLS])
#: ``KNIFFEL_FACE[r]``: the face of a Kniffel roll, 0 for any other roll.
KNIFFEL_FACE: npt.NDArray[np.int64] = np.array(
    [dice.faces[0] if dice.is_kniffel else 0 for dice in ROLLS]
)


@cache
def raw_scores(options: Options) -> npt.NDArray[np.int64]:
    """``raw_scores(o)[i, r]``: ``ROLLS[r]`` in ``rows_for(o)[i]``, without any joker."""
    table = np.array(
        [[raw_score(row, dice, options.pasch) for dice in ROLLS] for row in rows_for(options)],
        dtype=np.int64,
    )
    table.setflags(write=False)
    return table


@cache
def joker_scores(options: Options) -> npt.NDArray[np.int64]:
    """Like :func:`raw_scores`, but a Kniffel scores the joker's full value in every row."""
    table = raw_scores(options).copy()
    for i, row in enumerate(rows_for(options)):
        if row in FIXED_SCORES and row is not Row.KNIFFEL:
            table[i, IS_KNIFFEL] = FIXED_SCORES[row]
    table.setflags(write=False)
    return table
