"""The intervals of simulated chances: the conditional chances they rest on, and their width."""

from __future__ import annotations

import numpy as np
import pytest

from kniffel.solver.chances.interval import given_total, win_intervals
from kniffel.solver.chances.win import Pmf, win_chances


def _pmfs(seed: int, players: int) -> list[Pmf]:
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(players):
        low = int(rng.integers(0, 4))
        p = rng.random(int(rng.integers(1, 6)))
        found.append(Pmf(low, p / p.sum()))
    return found


@pytest.mark.parametrize("seed", range(8))
def test_given_total_is_the_chance_with_that_total(seed: int) -> None:
    pmfs = _pmfs(seed, 2 + seed % 3)
    low = min(pmf.low for pmf in pmfs)
    for j in range(len(pmfs)):
        g = given_total(pmfs, j)
        for x in range(g.shape[0]):
            fixed = list(pmfs)
            fixed[j] = Pmf(low + x, np.ones(1))
            assert g[x] == pytest.approx(win_chances(fixed), abs=1e-12)


def test_exact_distributions_have_no_width_and_samples_do() -> None:
    pmfs = _pmfs(3, 3)
    exact = win_intervals(pmfs, [0, 0, 0])
    assert all(i.low == i.win == i.high for i in exact)
    wide = win_intervals(pmfs, [10, 10, 10])
    narrow = win_intervals(pmfs, [1000, 1000, 1000])
    for w, n, e in zip(wide, narrow, exact, strict=True):
        assert w.win == n.win == pytest.approx(e.win)
        assert w.low <= n.low <= n.win <= n.high <= w.high
        clipped = 0 in (w.low, 1 - w.high)
        assert clipped or w.high - w.low == pytest.approx(10 * (n.high - n.low), rel=1e-6)
