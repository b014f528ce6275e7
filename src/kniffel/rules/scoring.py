"""The scoring and entry rules of a sheet, each stated once (docs/rules.md §2 to §7).

Everything that decides what a cell may take and what it scores lives here as
a small pure function: the upper bonus, the column total with its factor, the
due row of an arrow column, the extra-Kniffel bonus, the joker and
``zero_only_upper``. :class:`~kniffel.rules.Game` applies them to one game;
the solver's array forms build their tables from them (``due_table``,
``joker_table``, ``zero_table``) or use the same functions on arrays (the
bonus and total functions are written so that numpy arrays go through them
unchanged), and the tests hold the two equal.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, overload

from kniffel.rules.rows import FIXED_SCORES, STRAIGHT_FIXED, Row, rows_for
from kniffel.rules.variants import Discipline, Joker, Options, Sheet

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "FIGURES",
    "JAMB_UPPER_BONUS",
    "JAMB_UPPER_BONUS_THRESHOLD",
    "MIDDLE_SPLIT",
    "SUM2_BONUS",
    "SUM2_BONUS_THRESHOLD",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "JokerCase",
    "SheetSums",
    "bonus_on_entry",
    "column_sum",
    "column_sum2",
    "column_total",
    "due_index",
    "due_table",
    "entry_gain",
    "extra_kniffel_bonus",
    "fill_order",
    "first_roll_only",
    "holds_fifty",
    "is_extra_kniffel",
    "jamb_sum1",
    "jamb_sum2",
    "joker_case",
    "joker_index",
    "joker_permits",
    "joker_points",
    "joker_scores_full",
    "joker_table",
    "open_indices",
    "sheet_sums",
    "sum2_bonus_of",
    "sum2_product",
    "upper_bonus",
    "zero_refused",
    "zero_table",
]

#: §2: the upper block of a column earns ``UPPER_BONUS`` once it holds this many points.
UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35

_A = TypeVar("_A", bound="npt.NDArray[np.integer[Any]]")
_B = TypeVar("_B", bound="npt.NDArray[np.bool_]")


# ------------------------------------------------------------------ §2 the upper bonus


@overload
def upper_bonus(upper: int) -> int: ...
@overload
def upper_bonus(upper: _A) -> _A: ...
def upper_bonus(upper: Any) -> Any:
    """The upper bonus of a column whose upper block holds ``upper`` (§2).

    >>> upper_bonus(62), upper_bonus(63)
    (0, 35)
    """
    return (upper >= UPPER_BONUS_THRESHOLD) * UPPER_BONUS


@overload
def bonus_on_entry(upper: int, points: int) -> int: ...
@overload
def bonus_on_entry(upper: _A, points: _A) -> _A: ...
@overload
def bonus_on_entry(upper: _A, points: int) -> _A: ...
def bonus_on_entry(upper: Any, points: Any) -> Any:
    """The upper bonus that an upper entry of ``points`` earns when the block held ``upper``.

    >>> bonus_on_entry(60, 3), bonus_on_entry(63, 6), bonus_on_entry(50, 12)
    (35, 0, 0)
    """
    return _bonus_between(upper, upper + points)


def _bonus_between(upper: Any, upper_after: Any) -> Any:
    """The upper bonus reached between two upper sums of one column."""
    return ((upper < UPPER_BONUS_THRESHOLD) & (upper_after >= UPPER_BONUS_THRESHOLD)) * UPPER_BONUS


@overload
def column_total(upper: int, lower: int, kniffel_bonus: int, factor: int) -> int: ...
@overload
def column_total(upper: _A, lower: _A, kniffel_bonus: _A, factor: _A | int) -> _A: ...
def column_total(upper: Any, lower: Any, kniffel_bonus: Any, factor: Any) -> Any:
    """A column's total: factor × (upper + bonus + lower + extra-Kniffel bonus) (§2, §3).

    >>> column_total(63, 100, 100, 3)
    894
    """
    return factor * (upper + upper_bonus(upper) + lower + kniffel_bonus)


def entry_gain(upper: Any, upper_after: Any, points: Any, kniffel_bonus: Any, factor: Any) -> Any:
    """What a column's total gains by one entry (§2, §3, §5); numpy arrays go through too.

    ``points`` is what the cell receives, ``upper`` and ``upper_after`` the upper block
    before and after (``upper_after`` is ``upper`` for a lower-block entry),
    ``kniffel_bonus`` the extra-Kniffel bonus the entry earns: the difference of
    :func:`column_total` after and before the entry.

    >>> entry_gain(60, 64, 4, 0, 2), entry_gain(0, 0, 25, 100, 3)
    (78, 375)
    """
    gain = points + _bonus_between(upper, upper_after)
    # on arrays each operation is a pass over them: skip the ones that change nothing
    if not (isinstance(kniffel_bonus, int) and kniffel_bonus == 0):
        gain += kniffel_bonus
    if not (isinstance(factor, int) and factor == 1):
        gain *= factor
    return gain


# ---------------------------------------------------------------- §4 due and allowed rows


def due_index(discipline: Discipline, filled: Sequence[bool]) -> int | None:
    """The index of the due row of an arrow column, given which rows are filled (§4).

    ``None`` for a free column (it has no due row) and for a full arrow column.

    >>> filled = [True, False, False]
    >>> due_index(Discipline.DOWN, filled), due_index(Discipline.UP, filled)
    (1, 2)
    """
    order = fill_order(discipline, len(filled))
    if order is None:
        return None
    return next((i for i in order if not filled[i]), None)


def fill_order(discipline: Discipline, n_rows: int) -> tuple[int, ...] | None:
    """The order in which an arrow column fills its ``n_rows`` rows (§4): ↓ from the top, ↑ from
    the bottom; ``None`` for a column without one order.

    >>> fill_order(Discipline.DOWN, 3), fill_order(Discipline.UP, 3), fill_order(Discipline.FREE, 3)
    ((0, 1, 2), (2, 1, 0), None)
    """
    if discipline is Discipline.DOWN:
        return tuple(range(n_rows))
    if discipline is Discipline.UP:
        return tuple(range(n_rows - 1, -1, -1))
    return None


def first_roll_only(discipline: Discipline, announced: bool = False) -> bool:
    """Whether a cell of a ``discipline`` column takes only the turn's first roll: a first-roll
    column (Ručna, sèche) always, an announce column unless it is the cell announced after the
    first roll (docs/rules.md, "Jamb").

    >>> first_roll_only(Discipline.HAND), first_roll_only(Discipline.ANNOUNCE, announced=True)
    (True, False)
    """
    return discipline is Discipline.HAND or (discipline is Discipline.ANNOUNCE and not announced)


@cache
def due_table(discipline: Discipline, n_rows: int) -> tuple[int, ...]:
    """``due_table(d, n)[mask]``: the due row index of every fill pattern, -1 for none.

    Bit ``j`` of ``mask`` is row ``j`` filled; the solver indexes this table with arrays.
    """
    table = []
    for mask in range(1 << n_rows):
        due = due_index(discipline, [(mask >> j) & 1 == 1 for j in range(n_rows)])
        table.append(-1 if due is None else due)
    return tuple(table)


#: Od sredine: rows above this index fill upward from Max (index 6), the rest downward
#: from Min (docs/rules.md, "Jamb").
MIDDLE_SPLIT = 7


def open_indices(discipline: Discipline, filled: Sequence[bool]) -> tuple[int, ...]:
    """The row indices a column may take now, by position alone (§4 and "Jamb").

    One due row for ↓ and ↑, the next row on each side for Od sredine (Max → 1,
    Min → Jamb), every empty row for the free, the announce and the first-roll columns.

    >>> open_indices(Discipline.MIDDLE, [False] * 13)
    (6, 7)
    >>> open_indices(Discipline.MIDDLE, [True] * 7 + [False] * 6)
    (7,)
    """
    if discipline.is_arrow:
        due = due_index(discipline, filled)
        return () if due is None else (due,)
    if discipline is Discipline.MIDDLE:
        up = next((i for i in range(MIDDLE_SPLIT - 1, -1, -1) if not filled[i]), None)
        down = next((i for i in range(MIDDLE_SPLIT, len(filled)) if not filled[i]), None)
        return tuple(i for i in (up, down) if i is not None)
    return tuple(i for i, done in enumerate(filled) if not done)


# ------------------------------------------------------------------------- Jamb's sums

#: Σ1 of a Jamb column earns ``JAMB_UPPER_BONUS`` once rows 1-6 hold this many points.
JAMB_UPPER_BONUS_THRESHOLD = 60
JAMB_UPPER_BONUS = 30
#: The house rule ``sum2_bonus``: Σ2 earns ``SUM2_BONUS`` once it reaches this many points.
SUM2_BONUS_THRESHOLD = 60
SUM2_BONUS = 30

#: The rules' figures that the words name, each by its placeholder: a message says
#: "Σ2-Bonus {sum2_bonus} ab {sum2_threshold}", never the figures themselves.
FIGURES = {
    "rows_without_chance": len(rows_for(Options(chance=False))),
    "sum2_bonus": SUM2_BONUS,
    "sum2_threshold": SUM2_BONUS_THRESHOLD,
    "straight_small": STRAIGHT_FIXED[1],
    "straight_large": STRAIGHT_FIXED[2],
}


def jamb_sum1(upper: int) -> int:
    """Σ1: rows 1-6 plus 30 once they hold 60 or more.

    >>> jamb_sum1(59), jamb_sum1(60)
    (59, 90)
    """
    return upper + (upper >= JAMB_UPPER_BONUS_THRESHOLD) * JAMB_UPPER_BONUS


def jamb_sum2(
    maximum: int | None,
    minimum: int | None,
    ones: int | None,
    bonus: int,
    negative: bool = False,
) -> int:
    """Σ2 = (Max − Min) × the column's ones, once all three are filled, never below 0 unless
    ``negative`` (the house rule ``sum2_negative``).

    ``bonus`` is what the house rule ``sum2_bonus`` adds at 60 or more (0 without it; 30, or
    ``sum2_bonus_points``: :func:`sum2_bonus_of`).

    >>> jamb_sum2(28, 8, 3, 0), jamb_sum2(8, 28, 3, 0), jamb_sum2(28, 8, None, 0)
    (60, 0, 0)
    >>> jamb_sum2(28, 8, 3, 30), jamb_sum2(28, 9, 3, 30), jamb_sum2(28, 8, 3, 40)
    (90, 57, 100)
    >>> jamb_sum2(8, 28, 3, 30, negative=True)
    -60
    """
    if maximum is None or minimum is None or ones is None:
        return 0
    sum2: int = sum2_product(maximum, minimum, ones, negative)
    return sum2 + (sum2 >= SUM2_BONUS_THRESHOLD) * bonus


def sum2_bonus_of(options: Options) -> int:
    """What a Σ2 of 60 or more earns under ``options``: 0 without the house rule ``sum2_bonus``,
    else ``sum2_bonus_points`` (30 or 40).

    >>> sum2_bonus_of(Options()), sum2_bonus_of(Options(sum2_bonus=True, sum2_bonus_points=40))
    (0, 40)
    """
    return options.sum2_bonus_points if options.sum2_bonus else 0


def sum2_product(maximum: Any, minimum: Any, ones: Any, negative: bool = False) -> Any:
    """Σ2 before its bonus: (Max − Min) × ones, never below 0 unless ``negative`` (the house
    rule ``sum2_negative``); numbers (expected ones too) or numpy arrays alike.

    >>> sum2_product(28, 8, 3), sum2_product(8, 28, 3), sum2_product(20.5, 10.0, 2.0)
    (60, 0, 21.0)
    >>> sum2_product(8, 28, 3, negative=True)
    -60
    """
    product = (maximum - minimum) * ones
    if negative:
        return product
    return product * (product > 0)


@dataclass(frozen=True, slots=True)
class SheetSums:
    """Where a column's sums read its cells, as positions in the sheet's row order
    (:func:`~kniffel.rules.rows_for`), and the upper bonus (§2; docs/rules.md, "Jamb").

    ``upper`` are the rows of the upper bonus, ``lower`` those added as they are, ``sum2`` the
    positions of Max, Min and the ones (Jamb's Σ2; ``None`` on a Kniffel sheet).
    """

    upper: slice
    lower: slice
    sum2: tuple[int, int, int] | None
    bonus_threshold: int
    bonus: int


@cache
def sheet_sums(options: Options) -> SheetSums:
    """The sums of ``options``' sheet.

    >>> from kniffel.rules import PRESETS
    >>> sums = sheet_sums(PRESETS["jamb"].options)
    >>> sums.upper, sums.lower, sums.sum2
    (slice(0, 6, None), slice(8, None, None), (6, 7, 0))
    """
    rows = rows_for(options)
    upper = slice(0, sum(row.is_upper for row in rows))
    if options.sheet is Sheet.JAMB:
        sum2 = (rows.index(Row.MAX), rows.index(Row.MIN), rows.index(Row.ONES))
        lower = slice(max(sum2) + 1, None)
        return SheetSums(upper, lower, sum2, JAMB_UPPER_BONUS_THRESHOLD, JAMB_UPPER_BONUS)
    return SheetSums(upper, slice(upper.stop, None), None, UPPER_BONUS_THRESHOLD, UPPER_BONUS)


def column_sum(
    options: Options, cells: Sequence[int | None], kniffel_bonus: int = 0, factor: int = 1
) -> int:
    """A column's total by the rules' sums from its cells in the sheet's row order (``None``:
    open): the upper block with its bonus, the lower rows, Jamb's Σ2, the extra-Kniffel bonus
    and the column's factor (§2; docs/rules.md, "Jamb").

    >>> from kniffel.rules import PRESETS
    >>> column_sum(PRESETS["jamb"].options, [3, 8, 12, 16, 20, 24, 28, 8] + [None] * 5)
    173
    """
    sums = sheet_sums(options)
    upper: int = sum(value or 0 for value in cells[sums.upper])
    lower: int = sum(value or 0 for value in cells[sums.lower])
    if sums.sum2 is None:
        return column_total(upper, lower, kniffel_bonus, factor)
    return jamb_sum1(upper) + column_sum2(options, cells) + lower


def column_sum2(options: Options, cells: Sequence[int | None]) -> int:
    """Σ2 of a Jamb column from its cells in the sheet's row order (0 while Max, Min or the
    ones are open, and on a Kniffel sheet).

    >>> from kniffel.rules import PRESETS
    >>> column_sum2(PRESETS["jamb"].options, [3, None, None, None, None, None, 28, 8] + [None] * 5)
    60
    """
    sum2 = sheet_sums(options).sum2
    if sum2 is None:
        return 0
    maximum, minimum, ones = (cells[i] for i in sum2)
    return jamb_sum2(maximum, minimum, ones, sum2_bonus_of(options), options.sum2_negative)


# ------------------------------------------------------------- §5 a further Kniffel


def is_extra_kniffel(five_equal: bool, kniffel_cells_filled: bool) -> bool:
    """Whether a roll is a further Kniffel: five equal faces, every Kniffel cell filled (§5)."""
    return five_equal and kniffel_cells_filled


@overload
def holds_fifty(is_kniffel_row: bool, points: int | None) -> bool: ...
@overload
def holds_fifty(is_kniffel_row: _B, points: _A) -> _B: ...
def holds_fifty(is_kniffel_row: Any, points: Any) -> Any:
    """Whether a cell arms the extra-Kniffel bonus: a Kniffel cell that holds 50 now (§5, §9).

    >>> holds_fifty(True, 50), holds_fifty(True, 0), holds_fifty(False, 50)
    (True, False, False)
    """
    return is_kniffel_row & (points == FIXED_SCORES[Row.KNIFFEL])


def extra_kniffel_bonus(options: Options, a_kniffel_cell_holds_50: bool) -> int:
    """The bonus a further Kniffel earns: ``kniffel_bonus`` once a Kniffel cell holds 50 (§5)."""
    return options.kniffel_bonus if a_kniffel_cell_holds_50 else 0


class JokerCase(enum.StrEnum):
    """Where a further Kniffel may go and what it scores there (§5)."""

    NONE = "none"  #: no joker: any allowed cell, usual points
    FREE = "free"  #: any allowed cell; Full House and the straights score in full
    MATCHING = "matching"  #: forced: only the matching upper row, usual points
    LOWER = "lower"  #: forced, matching row not open: the lower block, in full
    UPPER = "upper"  #: forced, nothing open below either: an upper cell, usual points (0)


def joker_case(joker: Joker, *, matching_open: bool, lower_open: bool) -> JokerCase:
    """The joker's case for a further Kniffel (§5).

    ``matching_open``: some allowed cell is in the upper row of the Kniffel's
    face; ``lower_open``: some allowed cell is in the lower block.
    """
    if joker is Joker.NONE:
        return JokerCase.NONE
    if joker is Joker.FREE:
        return JokerCase.FREE
    if matching_open:
        return JokerCase.MATCHING
    if lower_open:
        return JokerCase.LOWER
    return JokerCase.UPPER


def joker_permits(case: JokerCase, face: int, row: Row) -> bool:
    """Whether the joker lets a further Kniffel of ``face`` into an allowed cell of ``row``."""
    if case is JokerCase.MATCHING:
        return row.face == face
    if case is JokerCase.LOWER:
        return not row.is_upper
    return True


def joker_scores_full(case: JokerCase, row: Row) -> bool:
    """Whether ``row`` scores its full value (25, 30, 40) under the joker, not the usual points."""
    return case in (JokerCase.FREE, JokerCase.LOWER) and row in FIXED_SCORES


def joker_points(case: JokerCase, row: Row, usual: int) -> int:
    """What a further Kniffel scores in ``row`` (``usual``: its points without a joker)."""
    return FIXED_SCORES[row] if joker_scores_full(case, row) else usual


def joker_index(row_index: Any, face: Any, matching_open: Any, lower_open: Any) -> Any:
    """Where :func:`joker_table` holds a ruling for ``rows[row_index]`` (arrays broadcast)."""
    return ((row_index * 6 + face - 1) * 2 + matching_open) * 2 + lower_open


@cache
def joker_table(joker: Joker, rows: tuple[Row, ...]) -> tuple[tuple[bool, bool, int], ...]:
    """Every joker ruling as ``(permitted, full, points_if_full)``, at :func:`joker_index`.

    The solver's array forms look the joker up here instead of stating it again.
    """
    table: dict[int, tuple[bool, bool, int]] = {}
    for j, row in enumerate(rows):
        for face in range(1, 7):
            for matching_open in (0, 1):
                for lower_open in (0, 1):
                    case = joker_case(
                        joker, matching_open=bool(matching_open), lower_open=bool(lower_open)
                    )
                    full = joker_scores_full(case, row)
                    table[joker_index(j, face, matching_open, lower_open)] = (
                        joker_permits(case, face, row),
                        full,
                        FIXED_SCORES[row] if full else 0,
                    )
    return tuple(table[i] for i in range(len(table)))


# --------------------------------------------------------------------- §6 zero_only_upper


def zero_refused(options: Options, row: Row, points: int, upper_open: bool) -> bool:
    """Whether ``zero_only_upper`` refuses ``points`` in ``row`` (§6).

    A zero may go into the lower block only when none of the player's allowed
    cells (any column) is in the upper block; ``upper_open`` says whether one is.
    """
    return options.zero_only_upper and points == 0 and not row.is_upper and upper_open


@cache
def zero_table(options: Options) -> tuple[tuple[bool, bool], ...]:
    """``zero_table(o)[j][upper_open]``: whether a zero is refused in ``rows_for(o)[j]``."""
    return tuple(
        (zero_refused(options, row, 0, False), zero_refused(options, row, 0, True))
        for row in rows_for(options)
    )
