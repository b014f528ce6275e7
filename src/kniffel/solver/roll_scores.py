"""The points of every roll in every row, as arrays indexed like ``dice_tables.ROLLS``.

The points come from :func:`kniffel.rules.raw_score`, evaluated once per roll and row.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from kniffel.rules import Options, raw_score, rows_for
from kniffel.solver.dice_tables import ROLLS

__all__ = ["IS_KNIFFEL", "KNIFFEL_FACE", "raw_scores"]

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
