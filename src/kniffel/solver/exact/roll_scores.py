"""The rules as arrays: the points of every roll in every row (indexed like
``dice_tables.ROLLS``) and the tables of :mod:`kniffel.rules.scoring`.

Every value comes from a function of :mod:`kniffel.rules`, evaluated once per
roll, row or case: the solver's array forms look their rules up here instead of
stating them again.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    Discipline,
    Joker,
    Options,
    Row,
    due_table,
    extra_kniffel_bonus,
    joker_table,
    raw_score,
    rows_for,
    zero_table,
)
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.per_variant import per_variant

__all__ = [
    "IS_KNIFFEL",
    "KNIFFEL_FACE",
    "due_array",
    "joker_arrays",
    "joker_matters",
    "raw_scores",
    "row_faces",
    "zero_array",
]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: ``IS_KNIFFEL[r]``: whether ``ROLLS[r]`` shows five equal faces.
IS_KNIFFEL: npt.NDArray[np.bool_] = np.array([dice.is_kniffel for dice in ROLLS])
#: ``KNIFFEL_FACE[r]``: the face of a Kniffel roll, 0 for any other roll.
KNIFFEL_FACE: npt.NDArray[np.int64] = np.array(
    [dice.faces[0] if dice.is_kniffel else 0 for dice in ROLLS]
)


@per_variant
def raw_scores(options: Options) -> npt.NDArray[np.int64]:
    """``raw_scores(o)[i, r]``: ``ROLLS[r]`` in ``rows_for(o)[i]``, without any joker."""
    table = np.array(
        [[raw_score(row, dice, options.pasch) for dice in ROLLS] for row in rows_for(options)],
        dtype=np.int64,
    )
    table.setflags(write=False)
    return table


@cache
def due_array(discipline: Discipline, n_rows: int) -> IntArray:
    """:func:`kniffel.rules.due_table`: the due row of every fill mask, -1 for none."""
    return _frozen(np.array(due_table(discipline, n_rows), dtype=np.int64))


@cache
def zero_array(options: Options) -> BoolArray:
    """:func:`kniffel.rules.zero_table`: ``[row, upper_open]``, whether a zero is refused."""
    return _frozen(np.array(zero_table(options), dtype=np.bool_))


@cache
def row_faces(rows: tuple[Row, ...]) -> IntArray:
    """The face each row counts, 0 for the lower block."""
    return _frozen(np.array([row.face or 0 for row in rows], dtype=np.int64))


@cache
def joker_arrays(joker: Joker, rows: tuple[Row, ...]) -> tuple[BoolArray, BoolArray, IntArray]:
    """:func:`kniffel.rules.joker_table` as arrays: permitted, scores in full, the full points.

    Index them with :func:`kniffel.rules.joker_index`.
    """
    table = joker_table(joker, rows)
    return (
        _frozen(np.array([t[0] for t in table], dtype=np.bool_)),
        _frozen(np.array([t[1] for t in table], dtype=np.bool_)),
        _frozen(np.array([t[2] for t in table], dtype=np.int64)),
    )


@cache
def joker_matters(options: Options, rows: tuple[Row, ...]) -> bool:
    """Whether a further Kniffel may score or go anywhere else than an ordinary roll."""
    permitted, full, _ = joker_arrays(options.joker, rows)
    return bool(full.any() or not permitted.all() or extra_kniffel_bonus(options, True))


_F = TypeVar("_F", bound="npt.NDArray[Any]")


def _frozen(array: _F) -> _F:
    array.setflags(write=False)
    return array
