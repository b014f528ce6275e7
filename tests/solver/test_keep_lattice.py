"""The batched three-roll turn agrees with the dense one and pins two known values."""

from __future__ import annotations

import numpy as np

from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.exact.keep_lattice import TurnWorkspace, turn_values
from kniffel.solver.exact.turn import turn_value


def test_agrees_with_the_dense_turn_on_random_values() -> None:
    rng = np.random.default_rng(4)
    final = rng.normal(50, 20, size=(len(ROLLS), 37))
    dense = turn_value(final.T.copy())
    np.testing.assert_allclose(turn_values(final.copy()), dense, rtol=0, atol=1e-10)
    # A reused workspace gives the same numbers as a fresh one.
    work = TurnWorkspace(37)
    turn_values(rng.normal(size=(len(ROLLS), 37)), work)
    np.testing.assert_allclose(turn_values(final.copy(), work), dense, rtol=0, atol=1e-10)


def test_kniffel_in_three_rolls_with_optimal_keeping() -> None:
    final = np.array([[1.0 if d.is_kniffel else 0.0] for d in ROLLS])
    assert abs(turn_values(final)[0] - 0.0460286) < 5e-8


def test_chance_only_expectation() -> None:
    final = np.array([[float(d.total)] for d in ROLLS])
    assert abs(turn_values(final)[0] - 23.3333) < 5e-5
