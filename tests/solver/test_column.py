"""The exact one-column solver: known values, and yatzy-solver state by state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kniffel.rules import Row
from kniffel.solver.exact.column import ColumnTable
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.exact.sheet_space import SheetSpace, SheetState

from .conftest import THEIR_NAMES

Solved = Callable[..., ColumnTable]


#: yatzy-solver's American rules and the same rules as our options (its
#: ``american`` joker waits for the matching upper box too: not one of ours).
AMERICAN = {
    "american+forced-joker": {},
    "american+no-joker": {"joker": "none"},
    "american+no-bonus": {"joker": "none", "kniffel_bonus": 0},
}


@pytest.mark.parametrize(
    ("options", "ev"),
    [
        ({}, 254.5877287),
        ({"joker": "none"}, 253.9702412),
        ({"joker": "none", "kniffel_bonus": 0}, 245.8707745),
    ],
)
def test_known_yahtzee_values(solved: Solved, options: dict[str, Any], ev: float) -> None:
    assert abs(solved("yahtzee", **options).ev - ev) < 1e-6


@pytest.fixture(scope="session", params=list(AMERICAN))
def american(
    request: pytest.FixtureRequest, solved: Solved, yatzy_reference: Callable[[str], Any]
) -> tuple[Any, ColumnTable]:
    name = request.param
    return yatzy_reference(name), solved("yahtzee", **AMERICAN[name])


def _all_states(space: SheetSpace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    batches = [space.states(n) for n in range(space.n_rows + 1)]
    mask, upper, armed = (np.concatenate([b[f] for b in batches]) for f in range(3))
    return mask, upper, armed


def test_every_state_agrees_with_yatzy_solver(american: tuple[Any, ColumnTable]) -> None:
    reference, table = american
    space = table.space
    # Same row order as its categories, so the masks are the same bits.
    assert list(reference.variant.categories) == [THEIR_NAMES.get(r, r.value) for r in space.rows]
    mask, upper, armed = _all_states(space)
    assert len(mask) > 300_000
    ours = table.values[space.index(mask, upper, armed)]
    theirs = reference.state_values(
        mask.astype(np.uint32), upper.astype(np.uint16), armed.astype(bool)
    )
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-8)


def _situation(space: SheetSpace, state: SheetState, dice: str) -> str:
    filled = [THEIR_NAMES.get(r, r.value) for j, r in enumerate(space.rows) if state.mask >> j & 1]
    text = (
        f"dice {' '.join(dice)} | rolls 0 | upper {state.upper} | filled {','.join(filled) or '-'}"
    )
    if state.mask >> space.kniffel_bit & 1 and space.armed_values == 2:
        text += f" | five_of_a_kind {50 if state.armed else 0}"
    return text


def test_entries_agree_with_yatzy_solver(american: tuple[Any, ColumnTable]) -> None:
    reference, table = american
    space = table.space
    rng = np.random.default_rng(11)
    mask, upper, armed = _all_states(space)
    for i in rng.choice(len(mask), 40, replace=False):
        state = SheetState(int(mask[i]), int(upper[i]), int(armed[i]))
        if state.mask == space.full_mask:
            continue
        worth = table.entries(state)
        for r in [*rng.choice(len(ROLLS), 8, replace=False), 0, 251]:
            dice = "".join(map(str, ROLLS[r].faces))
            theirs = dict(reference.option_values(_situation(space, state, dice)))
            ours = {
                f"score {THEIR_NAMES.get(row, row.value)}": worth[j, r]
                for j, row in enumerate(space.rows)
                if np.isfinite(worth[j, r])
            }
            assert set(ours) == set(theirs)
            for action, value in theirs.items():
                assert ours[action] == pytest.approx(value, abs=1e-8)


def test_single_row_values(solved: Solved) -> None:
    table = solved("kniffel")
    space = table.space
    only = {row: space.full_mask & ~(1 << j) for j, row in enumerate(space.rows)}
    # Chance alone: the best three-roll sum. Kniffel alone: 50 x P(Kniffel in three rolls).
    assert table.value(SheetState(only[Row.CHANCE], 0, 0)) == pytest.approx(23.3333, abs=5e-5)
    assert table.value(SheetState(only[Row.KNIFFEL], 0, 0)) / 50 == pytest.approx(
        0.0460286, abs=5e-8
    )
    # Sixes alone with 33 in the upper block: the bonus needs three sixes or more.
    sixes = table.value(SheetState(only[Row.SIXES], 45, 0))
    assert sixes > table.value(SheetState(only[Row.SIXES], 63, 0)) + 10
    assert table.value(SheetState(space.full_mask, 10, 0)) == 0


def test_final_vector_is_the_best_entry(solved: Solved) -> None:
    table = solved("yahtzee")
    state = SheetState(0b1100_0000_0011, 3, 1)  # ones, twos, large straight, kniffel 50
    entries = table.entries(state)
    np.testing.assert_array_equal(table.final(state), entries.max(axis=0))
    assert np.isneginf(entries[0]).all() and np.isneginf(entries[11]).all()
    for unreachable in (SheetState(1 << 5, 5, 0), SheetState(0, 0, 1)):
        with pytest.raises(ValueError, match="no value"):
            table.value(unreachable)


def test_workers_solve_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build shared among forked worker processes gives every state the value of a build in
    one process, bit for bit (benchmarks/solver.py builds with every core)."""
    from kniffel.rules import Discipline, get_variant
    from kniffel.solver.exact import column

    # A small column, in small batches: each level has batches for every worker.
    monkeypatch.setattr(column, "BATCH", 16)
    space = SheetSpace(get_variant("kniffel", {"chance": False}).options, Discipline.DOWN)
    alone = column.build_values(space)
    assert np.array_equal(column.build_values(space, workers=3), alone, equal_nan=True)
    assert np.isfinite(alone).sum() == 617


def test_settled_upper_sums_are_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """States whose upper sum can no longer change the bonus are solved once and copied: a
    third fewer states for ``yahtzee``, and every value as when each state is solved (to the
    last bits, which move with a state's place in its batch)."""
    from kniffel.rules import Discipline, get_variant
    from kniffel.solver.exact import column

    space = SheetSpace(get_variant("yahtzee").options)
    solved = sum(len(space.distinct(n)[0]) for n in range(space.n_rows))
    assert solved == 359_422 and sum(len(space.states(n)) for n in range(space.n_rows)) == 536_320

    def every_state(self: SheetSpace, filled: int) -> tuple[Any, np.ndarray, np.ndarray]:
        none = np.zeros(0, dtype=np.int64)
        return self.states(filled), none, none

    spaces = [
        SheetSpace(get_variant(name, options).options, discipline)
        for name, options in [("yahtzee", {}), ("kniffel", {"zero_only_upper": True})]
        for discipline in (Discipline.DOWN, Discipline.UP)
    ]
    settled = [column.build_values(space) for space in spaces]
    monkeypatch.setattr(SheetSpace, "distinct", every_state)
    for space, values in zip(spaces, settled, strict=True):
        np.testing.assert_allclose(values, column.build_values(space), rtol=0, atol=1e-10)
