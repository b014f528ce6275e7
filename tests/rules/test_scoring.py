"""The rules kernel (kniffel.rules.scoring) against docs/rules.md, stated as plainly as possible."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kniffel.rules import (
    FIXED_SCORES,
    ROWS,
    Discipline,
    Joker,
    JokerCase,
    Options,
    Row,
    bonus_on_entry,
    column_total,
    due_index,
    due_table,
    entry_gain,
    extra_kniffel_bonus,
    joker_case,
    joker_index,
    joker_permits,
    joker_points,
    joker_scores_full,
    joker_table,
    point_ranges,
    upper_bonus,
    zero_refused,
    zero_table,
)


@given(st.integers(0, 105), st.integers(0, 30))
def test_upper_bonus_is_35_from_63_on(upper: int, points: int) -> None:
    assert upper_bonus(upper) == (35 if upper >= 63 else 0)
    assert bonus_on_entry(upper, points) == (35 if upper < 63 <= upper + points else 0)


def test_bonus_functions_take_arrays_as_they_take_numbers() -> None:
    upper = np.arange(0, 106)
    assert upper_bonus(upper).tolist() == [upper_bonus(int(u)) for u in upper]
    assert bonus_on_entry(upper, 5).tolist() == [bonus_on_entry(int(u), 5) for u in upper]
    lower, extra = np.full(106, 7), np.full(106, 100)
    totals = column_total(upper, lower, extra, 3).tolist()
    assert totals == [column_total(int(u), 7, 100, 3) for u in upper]


def test_the_factor_multiplies_the_whole_column() -> None:
    assert column_total(63, 20, 100, 2) == 2 * (63 + 35 + 20 + 100)


@given(st.lists(st.booleans(), min_size=1, max_size=13))
def test_due_row_is_the_first_empty_row_in_the_arrows_direction(filled: list[bool]) -> None:
    empty = [i for i, f in enumerate(filled) if not f]
    assert due_index(Discipline.DOWN, filled) == (empty[0] if empty else None)
    assert due_index(Discipline.UP, filled) == (empty[-1] if empty else None)
    assert due_index(Discipline.FREE, filled) is None
    mask = sum(1 << i for i, f in enumerate(filled) if f)
    down = due_table(Discipline.DOWN, len(filled))[mask]
    assert down == (empty[0] if empty else -1)


def test_extra_kniffel_bonus_needs_a_fifty() -> None:
    assert extra_kniffel_bonus(Options(kniffel_bonus=100), True) == 100
    assert extra_kniffel_bonus(Options(kniffel_bonus=100), False) == 0
    assert extra_kniffel_bonus(Options(), True) == 0


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("row", ROWS)
def test_the_joker_as_docs_rules_section_5_says(face: int, row: Row) -> None:
    usual = 5 * face if row.face == face else 0
    # free: any allowed cell; Full House and the straights score in full, the rest as usual
    free = joker_case(Joker.FREE, matching_open=True, lower_open=True)
    assert joker_permits(free, face, row)
    assert joker_points(free, row, usual) == FIXED_SCORES.get(row, usual)
    # forced: the matching upper row while one is open ...
    matching = joker_case(Joker.FORCED, matching_open=True, lower_open=True)
    assert matching is JokerCase.MATCHING
    assert joker_permits(matching, face, row) == (row.face == face)
    assert joker_points(matching, row, usual) == usual
    # ... else the lower block, in full ...
    lower = joker_case(Joker.FORCED, matching_open=False, lower_open=True)
    assert joker_permits(lower, face, row) == (not row.is_upper)
    assert joker_points(lower, row, usual) == FIXED_SCORES.get(row, usual)
    # ... else an upper cell, as usual (0)
    upper = joker_case(Joker.FORCED, matching_open=False, lower_open=False)
    assert joker_permits(upper, face, row)
    assert joker_points(upper, row, usual) == usual
    # none: as usual wherever allowed
    none = joker_case(Joker.NONE, matching_open=False, lower_open=True)
    assert joker_permits(none, face, row)
    assert joker_points(none, row, usual) == usual


@pytest.mark.parametrize("joker", list(Joker))
def test_joker_table_holds_each_ruling_at_its_index(joker: Joker) -> None:
    table = joker_table(joker, ROWS)
    assert len(table) == len(ROWS) * 6 * 4
    for j, row in enumerate(ROWS):
        for face in range(1, 7):
            for m in (0, 1):
                for low in (0, 1):
                    case = joker_case(joker, matching_open=bool(m), lower_open=bool(low))
                    permitted, full, points = table[joker_index(j, face, m, low)]
                    assert permitted == joker_permits(case, face, row)
                    assert full == joker_scores_full(case, row)
                    assert points == (joker_points(case, row, 0) if full else 0)


@pytest.mark.parametrize("row", ROWS)
def test_zero_only_upper_refuses_a_lower_zero_while_an_upper_cell_is_open(row: Row) -> None:
    on = Options(zero_only_upper=True)
    assert zero_refused(on, row, 0, upper_open=True) == (not row.is_upper)
    assert not zero_refused(on, row, 0, upper_open=False)
    assert not zero_refused(on, row, 5, upper_open=True)
    assert not zero_refused(Options(), row, 0, upper_open=True)
    assert zero_table(on)[ROWS.index(row)] == (False, not row.is_upper)


def test_point_ranges_join_runs() -> None:
    assert point_ranges([0, *range(5, 31)]) == "0, 5-30"
    assert point_ranges({0, 25}, dash="–") == "0, 25"
    assert point_ranges([3, 4, 6]) == "3-4, 6"


@given(
    st.integers(0, 105),
    st.integers(0, 100),
    st.integers(0, 30),
    st.booleans(),
    st.sampled_from([0, 100]),
    st.integers(1, 3),
)
def test_entry_gain_is_what_the_column_total_gains(
    upper: int, lower: int, points: int, into_upper: bool, bonus: int, factor: int
) -> None:
    upper_points = points if into_upper else 0
    before = column_total(upper, lower, 0, factor)
    after = column_total(upper + upper_points, lower + points - upper_points, bonus, factor)
    gain = entry_gain(upper, upper + upper_points, points, bonus, factor)
    assert gain == after - before
