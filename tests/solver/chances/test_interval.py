"""The intervals of simulated chances: the conditional chances they rest on, and their width."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from kniffel.solver.chances.interval import Z95, given_total, win_intervals
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
        assert w.high - w.low > 3 * (n.high - n.low)
    # from many games the interval is the delta method's: chance +- 1.96 sd
    low = min(pmf.low for pmf in pmfs)
    for k, found in enumerate(narrow):
        variance = 0.0
        for j, pmf in enumerate(pmfs):
            p = pmf.on(low, len(given_total(pmfs, j)))
            g = given_total(pmfs, j)[:, k]
            variance += float(p @ (g - p @ g) ** 2) / 999
        half = Z95 * math.sqrt(variance)
        assert (found.low, found.high) == pytest.approx(
            (found.win - half, found.win + half), abs=2e-3
        )


def test_the_chance_from_samples_counts_every_combination_of_the_players_games() -> None:
    """From sampled totals the chance is the share of all combinations of one game of each
    player that the player wins, a tie of ``t`` counting ``1 / t`` (a brute-force count)."""
    rng = np.random.default_rng(7)
    samples = [rng.integers(0, 6, size=n) + shift for n, shift in ((5, 0), (7, 1), (4, 2))]
    counted = np.zeros(3)
    for totals in itertools.product(*samples):
        best = max(totals)
        winners = [k for k, total in enumerate(totals) if total == best]
        counted[winners] += 1 / len(winners)
    counted /= math.prod(len(s) for s in samples)
    found = win_intervals([Pmf.of_samples(s) for s in samples], [len(s) for s in samples])
    assert [f.win for f in found] == pytest.approx(counted.tolist(), abs=1e-12)


@pytest.mark.parametrize(
    ("means", "games"),
    [([0.0, 12.0, 5.0], 30), ([0.0, 20.0], 24), ([0.0, 3.0, 3.0, 8.0], 60)],
)
def test_intervals_hold_the_true_chance_as_often_as_they_claim(
    means: list[float], games: int
) -> None:
    """Calibration: known distributions, ``games`` draws of each, 300 times; each player's
    95 % interval holds the true chance 91 to 99 % of the time (binomial noise of 300 draws
    is about 1.3 points; here 92.7 to 97.3 %), also for a chance near 0 (5.1 % and 0.9 %),
    where the delta method's ``chance +- 1.96 sd`` held it 68 to 89 % of the time."""
    pmfs = [Pmf.normal(mean, 6.0) for mean in means]
    true = win_chances(pmfs)
    rng = np.random.default_rng(games)
    held = np.zeros(len(means))
    runs = 300
    for _ in range(runs):
        drawn = [
            rng.choice(np.arange(pmf.low, pmf.low + len(pmf.p)), size=games, p=pmf.p)
            for pmf in pmfs
        ]
        found = win_intervals([Pmf.of_samples(d) for d in drawn], [games] * len(means))
        held += [f.low <= t <= f.high for f, t in zip(found, true, strict=True)]
    share = held / runs
    assert ((share >= 0.91) & (share <= 0.99)).all(), (true, share)
