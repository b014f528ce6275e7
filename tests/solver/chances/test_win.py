"""Win chances from independent distributions: ties shared, against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.solver.chances.win import Pmf, win_chances


def brute_force(pmfs: list[Pmf]) -> list[float]:
    """Every combination of totals, each winner's share of its probability."""
    chances = [0.0] * len(pmfs)
    supports = [[(pmf.low + i, p) for i, p in enumerate(pmf.p) if p > 0] for pmf in pmfs]
    for combo in itertools.product(*supports):
        totals = [t for t, _ in combo]
        weight = float(np.prod([p for _, p in combo]))
        best = max(totals)
        winners = [k for k, t in enumerate(totals) if t == best]
        for k in winners:
            chances[k] += weight / len(winners)
    return chances


pmf_strategy = st.builds(
    lambda low, weights: Pmf(low, np.array(weights) / sum(weights)),
    st.integers(-3, 5),
    st.lists(st.integers(1, 9), min_size=1, max_size=5),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(pmf_strategy, min_size=1, max_size=4))
def test_chances_match_brute_force(pmfs: list[Pmf]) -> None:
    chances = win_chances(pmfs)
    assert chances == pytest.approx(brute_force(pmfs), abs=1e-12)
    assert sum(chances) == pytest.approx(1.0)


def test_a_tie_is_shared() -> None:
    assert win_chances([Pmf(100, np.ones(1)), Pmf(100, np.ones(1)), Pmf(90, np.ones(1))]) == [
        0.5,
        0.5,
        0.0,
    ]


def test_samples_and_quantiles() -> None:
    pmf = Pmf.of_samples(np.array([10, 12, 12, 14, 20]))
    assert pmf.low == 10
    assert pmf.mean == pytest.approx(13.6)
    assert pmf.quantile(0.1) == 10
    assert pmf.quantile(0.5) == 12
    assert pmf.quantile(0.9) == 20


def test_normal_is_centred_and_spread() -> None:
    pmf = Pmf.normal(250.0, 40.0)
    assert pmf.mean == pytest.approx(250.0, abs=1e-6)
    # the 10th and 90th percentiles of a normal lie 1.2816 standard deviations out
    assert pmf.quantile(0.1) == pytest.approx(250 - 1.2816 * 40, abs=1)
    assert pmf.quantile(0.9) == pytest.approx(250 + 1.2816 * 40, abs=1)
    assert Pmf.normal(17.0, 0.0).quantile(0.5) == 17
