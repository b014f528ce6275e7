"""The rows of the sheets (Kniffel's thirteen, Jamb's thirteen) and how a roll scores in each."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cache

from kniffel.rules.dice import Dice
from kniffel.rules.variants import Options, Pasch, Sheet, Variant

__all__ = [
    "JAMB_ROWS",
    "LOWER",
    "ROWS",
    "STRAIGHT_BY_ROLL",
    "STRAIGHT_FIXED",
    "UPPER",
    "Row",
    "most_points",
    "point_ranges",
    "possible_points",
    "raw_score",
    "roll_matters",
    "rows_for",
    "sheet_score",
    "turns_of",
]


class Row(enum.StrEnum):
    """A row of the sheet; the value is the id used in game records."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_KIND = "three_kind"
    FOUR_KIND = "four_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    KNIFFEL = "kniffel"
    CHANCE = "chance"
    # Jamb's own rows (docs/rules.md, "Jamb"); Ful is FULL_HOUSE with Jamb's score
    MAX = "max"
    MIN = "min"
    TRIPS = "trips"
    STRAIGHT = "straight"
    POKER = "poker"
    JAMB = "jamb"

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def face(self) -> int | None:
        """The face an upper row counts (1..6), ``None`` for the lower block."""
        return _UPPER_FACE.get(self)


ROWS: tuple[Row, ...] = tuple(Row)[:13]
#: Jamb's rows top to bottom: 1-6, Max, Min, Triling, Kenta, Ful, Poker, Jamb.
JAMB_ROWS: tuple[Row, ...] = (
    *ROWS[:6],
    Row.MAX,
    Row.MIN,
    Row.TRIPS,
    Row.STRAIGHT,
    Row.FULL_HOUSE,
    Row.POKER,
    Row.JAMB,
)
UPPER: frozenset[Row] = frozenset(ROWS[:6])
#: The rows of five of a kind: Kniffel's (Yahtzee's, and Yams' "Yams") and Jamb's Jamb.
FIVE_OF_A_KIND: frozenset[Row] = frozenset({Row.KNIFFEL, Row.JAMB})
LOWER: frozenset[Row] = frozenset(ROWS[6:])
_UPPER_FACE = {row: i + 1 for i, row in enumerate(ROWS[:6])}

#: The rows with a fixed score, and that score (a Kniffel used as a joker counts it in full).
FIXED_SCORES = {Row.FULL_HOUSE: 25, Row.SMALL_STRAIGHT: 30, Row.LARGE_STRAIGHT: 40, Row.KNIFFEL: 50}


@cache
def rows_for(options: Options) -> tuple[Row, ...]:
    """The rows of every column under ``options`` (top to bottom)."""
    if options.sheet is Sheet.JAMB:
        return JAMB_ROWS
    if options.chance:
        return ROWS
    return ROWS[:-1]


def turns_of(variant: Variant) -> int:
    """How many turns each player has: one per cell of the sheet (docs/rules.md).

    >>> from kniffel.rules.variants import PRESETS
    >>> turns_of(PRESETS["kniffel"]), turns_of(PRESETS["rauf-runter"])
    (13, 39)
    >>> turns_of(PRESETS["dreifach"].with_options({"chance": False}))
    36
    """
    return len(variant.columns) * len(rows_for(variant.options))


@cache
def raw_score(row: Row, dice: Dice, pasch: Pasch = Pasch.ALL_DICE) -> int:
    """The ordinary value of ``dice`` in ``row``, without any joker.

    >>> raw_score(Row.THREE_KIND, Dice.of([5, 5, 5, 2, 1]))
    18
    >>> raw_score(Row.THREE_KIND, Dice.of([5, 5, 5, 2, 1]), Pasch.MATCHING_DICE)
    15
    >>> raw_score(Row.FULL_HOUSE, Dice.of([4, 4, 4, 4, 4]))
    0
    """
    counts = dice.counts
    face = row.face
    if face is not None:
        return face * counts[face - 1]
    if row in (Row.THREE_KIND, Row.FOUR_KIND):
        need = 3 if row is Row.THREE_KIND else 4
        for f in range(6, 0, -1):
            if counts[f - 1] >= need:
                return need * f if pasch is Pasch.MATCHING_DICE else dice.total
        return 0
    if row is Row.FULL_HOUSE:
        return FIXED_SCORES[row] if sorted(c for c in counts if c) == [2, 3] else 0
    if row is Row.SMALL_STRAIGHT:
        present = [c > 0 for c in counts]
        runs = (present[0:4], present[1:5], present[2:6])
        return FIXED_SCORES[row] if any(all(run) for run in runs) else 0
    if row is Row.LARGE_STRAIGHT:
        straight = max(counts) == 1 and (counts[0] == 0 or counts[5] == 0)
        return FIXED_SCORES[row] if straight else 0
    if row is Row.KNIFFEL:
        return FIXED_SCORES[row] if dice.is_kniffel else 0
    return dice.total  # Chance


#: Jamb's Kenta by the roll that made it: 66 on the first, 56 on the second, 46 on the third.
STRAIGHT_BY_ROLL = {1: 66, 2: 56, 3: 46}
#: Jamb's Kenta under the house rule ``straight_fixed``: 35 for 1-5, 45 for 2-6, any roll.
STRAIGHT_FIXED = {1: 35, 2: 45}
_JAMB_ADDS = {Row.TRIPS: 3, Row.POKER: 4, Row.JAMB: 5}
_JAMB_BONUS = {Row.POKER: 40, Row.JAMB: 50}
_FULL_BONUS = 30


def _straight_low_face(dice: Dice) -> int | None:
    """1 for a straight 1-5, 2 for 2-6, ``None`` for no straight."""
    counts = dice.counts
    if max(counts) != 1:
        return None
    return 2 if counts[0] == 0 else 1 if counts[5] == 0 else None


def roll_matters(row: Row, dice: Dice, options: Options) -> bool:
    """Whether what ``dice`` score in ``row`` depends on the roll that made them (Kenta)."""
    return (
        options.sheet is Sheet.JAMB
        and row is Row.STRAIGHT
        and not options.straight_fixed
        and _straight_low_face(dice) is not None
    )


@cache
def sheet_score(row: Row, dice: Dice, options: Options, roll: int = 1) -> int:
    """What ``dice``, made on roll number ``roll``, score in ``row`` of the options' sheet.

    On a Kniffel sheet this is :func:`raw_score`; on Jamb's (docs/rules.md, "Jamb"):

    >>> jamb = Options(sheet=Sheet.JAMB)
    >>> [sheet_score(Row.STRAIGHT, Dice.of([2, 3, 4, 5, 6]), jamb, r) for r in (1, 2, 3)]
    [66, 56, 46]
    >>> sheet_score(Row.TRIPS, Dice.of([4, 4, 4, 4, 1]), jamb)
    22
    >>> sheet_score(Row.MIN, Dice.of([1, 1, 2, 2, 3]), jamb)
    9
    >>> sheet_score(Row.FULL_HOUSE, Dice.of([6, 6, 6, 5, 5]), jamb)
    58
    >>> five, balkan = Dice.of([6, 6, 6, 6, 6]), Options(sheet=Sheet.JAMB, full_five=True)
    >>> sheet_score(Row.FULL_HOUSE, five, jamb), sheet_score(Row.FULL_HOUSE, five, balkan)
    (0, 60)
    """
    if options.sheet is not Sheet.JAMB:
        return raw_score(row, dice, options.pasch)
    counts = dice.counts
    face = row.face
    if face is not None:
        return face * counts[face - 1]
    if row in (Row.MAX, Row.MIN):
        return dice.total
    if row in _JAMB_ADDS:
        need = _JAMB_ADDS[row]
        for f in range(6, 0, -1):
            if counts[f - 1] >= need:
                bonus = options.trips_bonus if row is Row.TRIPS else _JAMB_BONUS[row]
                return need * f + bonus
        return 0
    if row is Row.STRAIGHT:
        low = _straight_low_face(dice)
        if low is None:
            return 0
        return STRAIGHT_FIXED[low] if options.straight_fixed else STRAIGHT_BY_ROLL[roll]
    if row is Row.FULL_HOUSE:
        made = sorted(c for c in counts if c)
        full = made == [2, 3] or (options.full_five and made == [5])
        return dice.total + _FULL_BONUS if full else 0
    raise ValueError(f"{row.value} is no row of Jamb")


def _jamb_possible(row: Row, options: Options) -> frozenset[int]:
    if row in (Row.MAX, Row.MIN):
        return frozenset(range(5, 31))
    if row in _JAMB_ADDS:
        need = _JAMB_ADDS[row]
        bonus = options.trips_bonus if row is Row.TRIPS else _JAMB_BONUS[row]
        return frozenset([0, *(need * f + bonus for f in range(1, 7))])
    if row is Row.STRAIGHT:
        made = STRAIGHT_FIXED if options.straight_fixed else STRAIGHT_BY_ROLL
        return frozenset([0, *made.values()])
    if row is Row.FULL_HOUSE:
        fulls = (3 * a + 2 * b + _FULL_BONUS for a in range(1, 7) for b in range(1, 7) if a != b)
        fives = (5 * a + _FULL_BONUS for a in range(1, 7)) if options.full_five else ()
        return frozenset([0, *fulls, *fives])
    raise ValueError(f"{row.value} is no row of Jamb")


@cache
def possible_points(row: Row, options: Options) -> frozenset[int]:
    """Every value ``row`` can hold under ``options`` (for points entries and edits)."""
    face = row.face
    if face is not None:
        return frozenset(face * n for n in range(6))
    if options.sheet is Sheet.JAMB:
        return _jamb_possible(row, options)
    if row in (Row.THREE_KIND, Row.FOUR_KIND):
        if options.pasch is Pasch.MATCHING_DICE:
            need = 3 if row is Row.THREE_KIND else 4
            return frozenset([0, *(need * f for f in range(1, 7))])
        return frozenset([0, *range(5, 31)])
    if row is Row.CHANCE:
        return frozenset(range(5, 31))
    return frozenset([0, FIXED_SCORES[row]])


@cache
def most_points(options: Options) -> int:
    """The most points any row holds under ``options`` (the bound of a points field).

    >>> most_points(Options())
    50
    """
    return max(max(possible_points(row, options)) for row in rows_for(options))


def point_ranges(values: Iterable[int], dash: str = "-") -> str:
    """Points as runs: ``[0, 5, 6, 7, 8]`` reads ``0, 5-8`` (``dash`` joins a run).

    >>> point_ranges(possible_points(Row.CHANCE, Options()), dash="–")
    '5–30'
    >>> point_ranges([0, 4, 8, 12])
    '0, 4, 8, 12'
    """
    ordered = sorted(values)
    parts: list[str] = []
    start = prev = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(str(start) if start == prev else f"{start}{dash}{prev}")
        if value is not None:
            start = prev = value
    return ", ".join(parts)
