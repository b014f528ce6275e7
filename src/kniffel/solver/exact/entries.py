"""What each entry is worth: the value of ending a turn in each row, for many states at once.

For a state ``s`` and a final roll ``r``, entering into row ``j`` is worth
its points, the upper bonus if this entry reaches 63, the extra-Kniffel bonus,
and the value of the state it leads to (``values``, indexed by
:class:`~kniffel.solver.exact.sheet_space.SheetSpace`). A row that may not take the
roll is worth ``-inf``. The rules are those of :meth:`kniffel.rules.Game.entry_options`
(docs/rules.md §3 to §6), looked up over arrays in the tables of
:mod:`kniffel.rules.scoring` (see :mod:`kniffel.solver.exact.roll_scores`): the tests
hold the two to the same legal cells and points.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import Options, Row, bonus_on_entry, extra_kniffel_bonus, joker_index
from kniffel.solver.exact.dice_tables import ROLL_INDEX, ROLLS
from kniffel.solver.exact.roll_scores import joker_arrays, joker_matters, raw_scores, zero_array
from kniffel.solver.exact.sheet_space import UPPER_CAP, SheetSpace, SheetState, StateBatch
from kniffel.solver.per_variant import per_variant

__all__ = ["KNIFFEL_ROLLS", "entry_values", "final_values", "row_values"]

Array = npt.NDArray[np.float64]
_Index = npt.NDArray[np.intp]

#: Roll indices of 1-1-1-1-1 .. 6-6-6-6-6.
KNIFFEL_ROLLS: _Index = np.array(
    [ROLL_INDEX[next(d for d in ROLLS if d.faces == (f,) * 5)] for f in range(1, 7)],
    dtype=np.intp,
)
_SIX: _Index = np.arange(len(KNIFFEL_ROLLS), dtype=np.intp)
#: ``_FACE_COUNT[f - 1, r]``: how many dice of roll ``r`` show face ``f``.
_FACE_COUNT: _Index = np.array([[d.counts[f] for d in ROLLS] for f in range(6)], dtype=np.intp)


@dataclass(frozen=True)
class _Scores:
    """Per-row score tables under one set of options."""

    raw: Array  # (rows, 252): the ordinary points
    nonzero: _Index  # (rows, 252): 1 where the ordinary points are above 0


@per_variant
def _scores(options: Options) -> _Scores:
    raw = raw_scores(options).astype(float)
    return _Scores(raw, (raw > 0).astype(np.intp))


@dataclass(frozen=True)
class _Context:
    """What every row of a batch needs: who may enter where, and the extra-Kniffel facts."""

    allowed: npt.NDArray[np.bool_]  # (rows, S)
    upper_allowed: npt.NDArray[np.bool_]  # (S,): some upper row may take an entry
    lower_allowed: npt.NDArray[np.bool_]  # (S,)
    extra: npt.NDArray[np.bool_]  # (S,): the kniffel cell is filled, so a Kniffel is "extra"
    bonus: Array  # (S,): the extra-Kniffel bonus a Kniffel earns now


def _context(space: SheetSpace, batch: StateBatch) -> _Context:
    allowed = space.allowed(batch.mask)
    extra = (batch.mask >> space.kniffel_bit) & 1 == 1
    options = space.options
    bonus = np.where(
        batch.armed == 1, extra_kniffel_bonus(options, True), extra_kniffel_bonus(options, False)
    ).astype(float)
    upper_allowed = np.asarray(allowed[:6].any(axis=0))
    lower_allowed = np.asarray(allowed[6:].any(axis=0))
    return _Context(allowed, upper_allowed, lower_allowed, extra, bonus)


@dataclass(frozen=True)
class _RowParts:
    """Row ``j`` in a batch: the few distinct outcomes of an entry, and which roll takes which.

    Roll ``r`` entered into the row is worth ``ahead[choice[r]] + points[r]``
    (``-inf`` where the row may not take it), before the joker's rewrite.
    """

    ahead: Array  # (outcomes, S)
    choice: _Index  # (252,)
    points: Array | None  # (252,), or None when ``ahead`` holds the points already
    following: Array  # (S,): the value of the state after the entry, bonuses aside


def _parts(
    space: SheetSpace, values: Array, batch: StateBatch, context: _Context
) -> list[_RowParts]:
    """Every row's :class:`_RowParts`, in sheet order."""
    return [
        *_upper_parts(space, values, batch, context),
        *(_lower_parts(space, values, batch, context, j) for j in range(6, space.n_rows)),
    ]


def _upper_parts(
    space: SheetSpace, values: Array, batch: StateBatch, context: _Context
) -> list[_RowParts]:
    """The six upper rows at once: ``0..5`` dice of the row's face, each outcome leading to its
    own upper sum (and maybe the bonus), as ``(6 rows, 6 outcomes, S)`` arrays."""
    mask, upper, armed = batch
    faces = np.array([row.face for row in space.rows[:6]], dtype=np.int64)
    points = (faces[:, None] * np.arange(6))[:, :, None]  # (rows, dice, 1)
    after = (mask[None, :] | (1 << np.arange(6))[:, None])[:, None, :]
    sums = np.minimum(UPPER_CAP, upper[None, None, :] + points)
    reached = values[space.index(after, sums, armed[None, None, :])]  # (rows, dice, S)
    ahead = reached + points + bonus_on_entry(upper[None, None, :], points)
    ahead[:, 0] = reached[:, 0]
    ahead = np.where(context.allowed[:6, None, :], ahead, -np.inf)
    return [
        _RowParts(ahead[j], _FACE_COUNT[face - 1], None, reached[j, 0])
        for j, face in enumerate(faces)
    ]


def _lower_parts(
    space: SheetSpace, values: Array, batch: StateBatch, context: _Context, j: int
) -> _RowParts:
    """Lower row ``j``: a 0, or the roll's points (the Kniffel row's 50 may arm the bonus)."""
    options = space.options
    scores = _scores(options)
    mask, upper, armed = batch
    after = mask | (1 << j)
    allowed = context.allowed[j]
    following = values[space.index(after, upper, armed)]
    on_points = following
    if space.rows[j] is Row.KNIFFEL:
        # A 50 arms the extra-Kniffel bonus; the cell was empty, so ``armed`` is 0 here.
        on_points = values[space.index(after, upper, armed + space.armed_values - 1)]
    ahead = np.where(allowed, np.stack([following, on_points]), -np.inf)
    zero_refused = zero_array(options)[j]  # [upper_open]
    if zero_refused.any():
        ahead[0, zero_refused[context.upper_allowed.astype(np.intp)]] = -np.inf
    return _RowParts(ahead, scores.nonzero[j], scores.raw[j], following)


def _row(
    space: SheetSpace,
    context: _Context,
    j: int,
    parts: _RowParts,
    worth: Array,
    kniffels_only: bool = False,
) -> None:
    """Row ``j``'s worth of each roll into ``worth``: ``(252, S)``, or ``(6, S)`` for the
    six Kniffel rolls alone (in :data:`KNIFFEL_ROLLS` order) when ``kniffels_only``."""
    choice, points = parts.choice, parts.points
    if kniffels_only:
        choice = choice[KNIFFEL_ROLLS]
        points = None if points is None else points[KNIFFEL_ROLLS]
    np.take(parts.ahead, choice, axis=0, out=worth, mode="clip")
    if points is not None:
        worth += points[:, None]
    at = _SIX if kniffels_only else KNIFFEL_ROLLS
    _apply_joker(space, context, j, worth, parts.following, at)


def _apply_joker(
    space: SheetSpace, context: _Context, j: int, worth: Array, following: Array, at: _Index
) -> None:
    """Rewrite the six Kniffel rolls (rows ``at`` of ``worth``) where they are extra Kniffels.

    The joker's ruling for row ``j`` is looked up in ``kniffel.rules.joker_table`` by
    the Kniffel's face and whether its upper row and the lower block may take it.
    """
    options = space.options
    if not joker_matters(options, space.rows):
        return
    extra = np.flatnonzero(context.extra)  # only these states see a further Kniffel
    if not len(extra):
        return
    where = np.ix_(at, extra)
    kniffels = worth[where]  # (6, E)
    permitted, full, full_points = joker_arrays(options.joker, space.rows)
    faces = np.arange(1, 7)[:, None]
    matching_open = context.allowed[:6, extra].astype(np.intp)  # rows[f - 1] counts face f
    lower_open = context.lower_allowed[extra].astype(np.intp)[None, :]
    ruling = joker_index(j, faces, matching_open, lower_open)
    in_full = full_points[ruling] + np.where(context.allowed[j, extra], following[extra], -np.inf)
    ruled = np.where(permitted[ruling], np.where(full[ruling], in_full, kniffels), -np.inf)
    worth[where] = ruled + context.bonus[extra][None, :]


def row_values(
    space: SheetSpace, values: Array, batch: StateBatch, worth: Array | None = None
) -> Iterator[Array]:
    """For each row in sheet order: ``(252, S)``, the value of ending each roll there.

    Every row is written into the same array (``worth``, if given): use it before the next.
    """
    context = _context(space, batch)
    if worth is None:
        worth = np.empty((len(ROLLS), len(batch)))
    for j, parts in enumerate(_parts(space, values, batch, context)):
        _row(space, context, j, parts, worth)
        yield worth


@per_variant
def _positive_rolls(options: Options) -> tuple[_Index | None, ...]:
    """Per row: the rolls other than Kniffels that score above 0 (``None``: every roll does)."""
    scores = _scores(options)
    others = np.ones(len(ROLLS), dtype=np.bool_)
    others[KNIFFEL_ROLLS] = False
    result: list[_Index | None] = []
    for j in range(len(scores.raw)):
        positive = scores.raw[j] > 0
        result.append(None if positive.all() else np.flatnonzero(positive & others))
    return tuple(result)


def final_values(
    space: SheetSpace,
    values: Array,
    batch: StateBatch,
    out: Array | None = None,
    worth: Array | None = None,
) -> Array:
    """``(252, S)``: the value of ending the turn with each roll (best legal row).

    The same numbers as the maximum over :func:`row_values`, with less work. Away
    from the six Kniffel rolls (no joker, no bonus) an entry into a lower row
    leads to the same state whatever it scores, so it is worth that state's
    value plus the points: the value alone (a 0, which every roll may enter
    unless ``zero_only_upper`` refuses it) is one vector for all rolls, and only
    the rolls that score in the row need their own sum. The Kniffel rolls are
    then worked out row by row as :func:`row_values` does.
    """
    best = np.empty((len(ROLLS), len(batch))) if out is None else out
    worth = np.empty((len(ROLLS), len(batch))) if worth is None else worth
    context = _context(space, batch)
    scores = _scores(space.options)
    best.fill(-np.inf)
    zero = np.full(len(batch), -np.inf)
    positive = _positive_rolls(space.options)
    at_kniffels = np.full((len(KNIFFEL_ROLLS), len(batch)), -np.inf)
    kniffels = np.empty_like(at_kniffels)
    for j, (row, parts) in enumerate(
        zip(space.rows, _parts(space, values, batch, context), strict=True)
    ):
        _row(space, context, j, parts, kniffels, kniffels_only=True)
        np.maximum(at_kniffels, kniffels, out=at_kniffels)
        if row.is_upper:
            np.take(parts.ahead, parts.choice, axis=0, out=worth, mode="clip")
            np.maximum(best, worth, out=best)
            continue
        np.maximum(zero, parts.ahead[0], out=zero)  # -inf where a 0 may not go here
        rolls = positive[j]
        if row is Row.KNIFFEL or (rolls is not None and not len(rolls)):
            continue  # away from the Kniffel rolls, the Kniffel row only takes a 0
        following = parts.ahead[1]  # -inf where the row may not take the roll
        if rolls is None:
            np.add(scores.raw[j][:, None], following[None, :], out=worth)
            np.maximum(best, worth, out=best)
        else:
            part = best[rolls]
            np.maximum(part, scores.raw[j][rolls][:, None] + following[None, :], out=part)
            best[rolls] = part
    np.maximum(best, zero[None, :], out=best)
    best[KNIFFEL_ROLLS] = at_kniffels
    return best


def entry_values(space: SheetSpace, values: Array, state: SheetState) -> Array:
    """``(rows, 252)`` for one state: the value of entering each roll into each row."""
    batch = StateBatch(*(np.array([x], dtype=np.int64) for x in state))
    return np.stack([worth[:, 0].copy() for worth in row_values(space, values, batch)])
