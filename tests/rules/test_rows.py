"""The thirteen rows: how a roll scores in each, and which points a row can hold."""

from __future__ import annotations

from collections import Counter

import pytest

from kniffel.rules import (
    ALL_ROLLS,
    LOWER,
    ROWS,
    UPPER,
    Dice,
    Options,
    Pasch,
    Row,
    possible_points,
    raw_score,
    rows_for,
)

ALL = Pasch.ALL_DICE
MATCHING = Pasch.MATCHING_DICE


def test_rows_in_sheet_order_with_fixed_ids() -> None:
    assert [r.value for r in ROWS] == [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_kind",
        "four_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "kniffel",
        "chance",
    ]
    assert frozenset(ROWS[:6]) == UPPER
    assert frozenset(ROWS[6:]) == LOWER
    assert [r.face for r in ROWS[:6]] == [1, 2, 3, 4, 5, 6]
    assert all(r.face is None and not r.is_upper for r in ROWS[6:])


def test_german_labels() -> None:
    from kniffel.locales import Translator

    assert [Translator("de").row(r) for r in ROWS] == [
        "Einser",
        "Zweier",
        "Dreier",
        "Vierer",
        "Fünfer",
        "Sechser",
        "Dreierpasch",
        "Viererpasch",
        "Full House",
        "Kleine Straße",
        "Große Straße",
        "Kniffel",
        "Chance",
    ]


@pytest.mark.parametrize(
    ("row", "dice", "points"),
    [
        # The examples of the Kniffel rules (seed 004).
        (Row.ONES, "11456", 2),
        (Row.TWOS, "22236", 6),
        (Row.THREES, "33331", 12),
        (Row.FOURS, "44425", 12),
        (Row.FIVES, "55552", 20),
        (Row.SIXES, "66613", 18),
        (Row.SIXES, "12345", 0),
        (Row.THREE_KIND, "55521", 18),
        (Row.FOUR_KIND, "66663", 27),
        (Row.THREE_KIND, "66663", 27),
        (Row.THREE_KIND, "55443", 0),
        (Row.FOUR_KIND, "55521", 0),
        (Row.THREE_KIND, "44444", 20),
        (Row.FOUR_KIND, "44444", 20),
        (Row.FULL_HOUSE, "11222", 25),
        (Row.FULL_HOUSE, "66655", 25),
        (Row.FULL_HOUSE, "44444", 0),
        (Row.FULL_HOUSE, "66665", 0),
        (Row.FULL_HOUSE, "66543", 0),
        (Row.SMALL_STRAIGHT, "12346", 30),
        (Row.SMALL_STRAIGHT, "23451", 30),
        (Row.SMALL_STRAIGHT, "34566", 30),
        (Row.SMALL_STRAIGHT, "12356", 0),
        (Row.SMALL_STRAIGHT, "12345", 30),
        (Row.LARGE_STRAIGHT, "12345", 40),
        (Row.LARGE_STRAIGHT, "65432", 40),
        (Row.LARGE_STRAIGHT, "12346", 0),
        (Row.LARGE_STRAIGHT, "13456", 0),
        (Row.LARGE_STRAIGHT, "12344", 0),
        (Row.KNIFFEL, "33333", 50),
        (Row.KNIFFEL, "33332", 0),
        (Row.CHANCE, "66655", 28),
        (Row.CHANCE, "11111", 5),
    ],
)
def test_scores_of_the_rules(row: Row, dice: str, points: int) -> None:
    assert raw_score(row, Dice.parse(dice), ALL) == points


@pytest.mark.parametrize(
    ("row", "dice", "points"),
    [
        (Row.THREE_KIND, "55521", 15),
        (Row.THREE_KIND, "55555", 15),
        (Row.FOUR_KIND, "66663", 24),
        (Row.FOUR_KIND, "66666", 24),
        (Row.FOUR_KIND, "66633", 0),
        (Row.THREE_KIND, "11223", 0),
        (Row.CHANCE, "66655", 28),
        (Row.SIXES, "66655", 18),
    ],
)
def test_matching_dice_pasch_counts_only_the_equal_dice(row: Row, dice: str, points: int) -> None:
    assert raw_score(row, Dice.parse(dice), MATCHING) == points


def _reference(row: Row, faces: tuple[int, ...], pasch: Pasch) -> int:
    """docs/rules.md §2, written as plainly as possible."""
    counts = Counter(faces)
    kinds = {Row.THREE_KIND: 3, Row.FOUR_KIND: 4}
    if row.is_upper:
        face = ROWS.index(row) + 1
        return face * counts[face]
    if row in kinds:
        for face, n in counts.items():
            if n >= kinds[row]:
                return kinds[row] * face if pasch is MATCHING else sum(faces)
        return 0
    if row is Row.FULL_HOUSE:
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if row is Row.SMALL_STRAIGHT:
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= set(faces) for run in runs) else 0
    if row is Row.LARGE_STRAIGHT:
        return 40 if set(faces) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if row is Row.KNIFFEL:
        return 50 if len(counts) == 1 else 0
    return sum(faces)


@pytest.mark.parametrize("pasch", list(Pasch))
def test_every_roll_in_every_row_scores_as_the_rules_say(pasch: Pasch) -> None:
    for dice in ALL_ROLLS:
        for row in ROWS:
            points = raw_score(row, dice, pasch)
            assert points == _reference(row, dice.faces, pasch), (row, dice)
            assert points in possible_points(row, Options(pasch=pasch)), (row, dice)


def test_points_each_row_can_hold() -> None:
    options = Options()
    assert possible_points(Row.ONES, options) == {0, 1, 2, 3, 4, 5}
    assert possible_points(Row.SIXES, options) == {0, 6, 12, 18, 24, 30}
    assert possible_points(Row.THREE_KIND, options) == {0, *range(5, 31)}
    assert possible_points(Row.FOUR_KIND, options) == {0, *range(5, 31)}
    assert possible_points(Row.FULL_HOUSE, options) == {0, 25}
    assert possible_points(Row.SMALL_STRAIGHT, options) == {0, 30}
    assert possible_points(Row.LARGE_STRAIGHT, options) == {0, 40}
    assert possible_points(Row.KNIFFEL, options) == {0, 50}
    assert possible_points(Row.CHANCE, options) == set(range(5, 31))


def test_points_of_a_matching_dice_pasch() -> None:
    options = Options(pasch=MATCHING)
    assert possible_points(Row.THREE_KIND, options) == {0, 3, 6, 9, 12, 15, 18}
    assert possible_points(Row.FOUR_KIND, options) == {0, 4, 8, 12, 16, 20, 24}
    assert possible_points(Row.CHANCE, options) == set(range(5, 31))


@pytest.mark.parametrize("pasch", list(Pasch))
def test_every_possible_value_can_be_rolled(pasch: Pasch) -> None:
    """Section 7 lists exactly the values some roll scores (without the joker)."""
    options = Options(pasch=pasch)
    for row in ROWS:
        rolled = {raw_score(row, dice, pasch) for dice in ALL_ROLLS}
        assert rolled == possible_points(row, options), row


def test_no_chance_option_removes_the_chance_row() -> None:
    assert rows_for(Options()) == ROWS
    assert rows_for(Options(chance=False)) == ROWS[:-1]
    assert Row.CHANCE not in rows_for(Options(chance=False))
