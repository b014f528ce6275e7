"""Dice: the sorted multiset of five faces, rolls, keeps and their probabilities."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from kniffel.rules import ALL_ROLLS, Dice, InvalidDiceError, keeps_of, outcome_probabilities


def test_dice_are_a_sorted_multiset() -> None:
    assert Dice.of([6, 2, 6, 3, 1]).faces == (1, 2, 3, 6, 6)
    assert Dice.of([6, 2, 6, 3, 1]) == Dice.of([1, 2, 3, 6, 6])
    assert str(Dice.of([5, 6, 5, 6, 6])) == "55666"


@pytest.mark.parametrize("text", ["66655", "6 6 6 5 5", "6,6,6,5,5", "6-6-6-5-5", "56566"])
def test_parse_reads_digits_and_ignores_separators(text: str) -> None:
    assert Dice.parse(text) == Dice.of([5, 5, 6, 6, 6])


def test_counts_total_and_kniffel() -> None:
    dice = Dice.parse("66655")
    assert dice.counts == (0, 0, 0, 0, 2, 3)
    assert dice.total == 28
    assert not dice.is_kniffel
    assert Dice.parse("44444").is_kniffel
    assert len(dice) == 5
    assert list(dice) == [5, 5, 6, 6, 6]


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([1, 2, 3, 4], "a roll has exactly 5 dice, got 4"),
        ([1, 2, 3, 4, 5, 6], "a roll has exactly 5 dice, got 6"),
        ([1, 2, 3, 4, 7], "dice must be faces from 1 to 6, got 7"),
        ([0, 2, 3, 4, 5], "dice must be faces from 1 to 6, got 0"),
        ([1, 2, 3, 4, 5.0], "dice must be whole numbers from 1 to 6, got 5.0"),
        ([1, 2, 3, 4, True], "dice must be whole numbers from 1 to 6, got true"),
        ([1, 2, 3, 4, "5"], "dice must be whole numbers from 1 to 6, got '5'"),
    ],
)
def test_bad_dice_are_refused_with_a_plain_message(faces: list[object], message: str) -> None:
    with pytest.raises(InvalidDiceError) as excinfo:
        Dice.of(faces)
    assert str(excinfo.value) == message
    assert isinstance(excinfo.value, ValueError)


def test_parse_refuses_other_characters() -> None:
    with pytest.raises(InvalidDiceError, match="dice are digits from 1 to 6, got '7'"):
        Dice.parse("12347")


def test_there_are_252_distinct_rolls_in_sorted_order() -> None:
    assert len(ALL_ROLLS) == 252 == math.comb(6 + 5 - 1, 5)
    assert len(set(ALL_ROLLS)) == 252
    assert list(ALL_ROLLS) == sorted(ALL_ROLLS)


def test_keeps_are_every_sub_multiset() -> None:
    assert len(keeps_of(Dice.parse("12345"))) == 2**5
    assert keeps_of(Dice.parse("11111")) == ((), (1,), (1, 1), (1, 1, 1), (1, 1, 1, 1), (1,) * 5)
    # from 1-1-2-2-3: none to two 1s, none to two 2s, none or the 3
    assert len(keeps_of(Dice.parse("11223"))) == 3 * 3 * 2
    distinct = {keep for roll in ALL_ROLLS for keep in keeps_of(roll)}
    assert len(distinct) == 462


@pytest.mark.parametrize("keep", [(), (6,), (6, 6), (1, 2, 3, 4), (3, 3, 3, 3, 3)])
def test_outcome_probabilities_sum_to_one_and_keep_the_kept_dice(keep: tuple[int, ...]) -> None:
    outcomes = outcome_probabilities(keep)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert len({dice for dice, _ in outcomes}) == len(outcomes)
    for dice, _ in outcomes:
        rest = list(dice.faces)
        for face in keep:
            rest.remove(face)


def test_outcome_probabilities_known_values() -> None:
    kniffel_after_four = dict(outcome_probabilities((4, 4, 4, 4)))[Dice.parse("44444")]
    assert Fraction(kniffel_after_four).limit_denominator(1000) == Fraction(1, 6)
    first_roll = dict(outcome_probabilities(()))
    assert len(first_roll) == 252
    assert first_roll[Dice.parse("12345")] == pytest.approx(120 / 6**5)
    assert first_roll[Dice.parse("66666")] == pytest.approx(1 / 6**5)
