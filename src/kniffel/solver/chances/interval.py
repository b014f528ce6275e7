"""How sure a win chance is when some players' distributions are sampled.

The chances of :func:`~kniffel.solver.chances.win.win_chances` are exact for the
distributions they are given. Where a player's distribution is the empirical one
of ``n`` simulated games, the chances are estimates: a mean over those games
(and over the other sampled players' games). Their sampling error comes from
the first-order (delta-method) expansion of such a mean:

    Var(chance_k) ~ sum over sampled players j of  Var_{x ~ X_j}( g_kj(x) ) / n_j

where ``g_kj(x)`` is player ``k``'s chance to finish first when player ``j``'s
total is ``x`` (the others as given). A player whose distribution is exact (``n``
of 0) adds nothing, so where every distribution is exact the interval is the
chance itself.

The interval is not ``chance +- 1.96 * sd``: from few games that one holds a
chance near 0 or 1 far less often than it claims (its spread is estimated from
the few games that win, and the chance's distribution is skewed: 70 % of the time
for a chance of 1.7 % from 24 games a player). :func:`win_intervals` gives the
Wilson score interval of a proportion (the one a count of wins out of ``m`` games
would have) for the effective number of games ``m = chance * (1 - chance) / Var``,
at most the games behind the estimate (every sampled player's together: all their
combinations are counted, so ``m`` may exceed one player's games), with the unbiased
variance (``n - 1``) and Student's quantile for the fewest games a player has instead
of 1.96. It contains the chance, stays inside [0, 1], and is the delta interval where
the games are many.
Calibration (tests/solver/chances/test_interval.py, docs/solver.md): it holds the
true chance 93 to 99 % of the time from 24 games a player on, where the delta
interval's 68 to 95 %.

``g_kj`` for every total of ``j`` at once: with ``j`` fixed at ``x`` the others
multiply as in :mod:`~kniffel.solver.chances.win`, and ``j`` is below a total
``y > x`` of ``k``, level with ``y = x`` (one more to share a tie with) and
above every ``y < x``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.solver.chances.win import Pmf, win_chances

__all__ = [
    "Z95",
    "WinInterval",
    "given_total",
    "student_t95",
    "variance_terms",
    "wilson",
    "win_intervals",
]

Array = npt.NDArray[np.float64]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class WinInterval:
    """A chance to finish first with its 95 % interval (``low == high``: exact)."""

    win: float
    low: float
    high: float


def _grid(pmfs: Sequence[Pmf]) -> tuple[int, Array]:
    low = min(pmf.low for pmf in pmfs)
    size = max(pmf.low + len(pmf.p) for pmf in pmfs) - low
    return low, np.stack([pmf.on(low, size) for pmf in pmfs])


def _level_shares(p: Array, below: Array, among: list[int], extra: int) -> Array:
    """``sum_t P(t of ``among`` level, the rest below) / (1 + extra + t)`` at every total."""
    n = len(among) + 1
    poly = np.zeros((n, p.shape[1]))
    poly[0] = 1.0
    for j in among:
        shifted = np.zeros_like(poly)
        shifted[1:] = poly[:-1] * p[j]
        poly = poly * below[j] + shifted
    return np.asarray((poly / (np.arange(n) + 1 + extra)[:, None]).sum(axis=0))


def given_total(pmfs: Sequence[Pmf], j: int) -> Array:
    """``g[x, k]``: player ``k``'s chance to finish first when player ``j``'s total is
    ``low + x`` (over the common grid of totals from the lowest ``low``)."""
    _, p = _grid(pmfs)
    below = np.cumsum(p, axis=1) - p
    n, size = p.shape
    g = np.zeros((size, n))
    for k in range(n):
        others = [i for i in range(n) if i not in (k, j)]
        if k == j:
            g[:, k] = _level_shares(p, below, others, 0)
            continue
        # j above y: share 0; j level with y (the tie has one more); j below y: as without j
        alone = p[k] * _level_shares(p, below, others, 0)
        tied = p[k] * _level_shares(p, below, others, 1)
        above = np.concatenate([np.cumsum(alone[::-1])[::-1][1:], [0.0]])  # sum over y > x
        g[:, k] = above + tied
    return g


def win_intervals(pmfs: Sequence[Pmf], samples: Sequence[int]) -> list[WinInterval]:
    """Each player's chance to finish first (ties shared) with its 95 % interval, when
    player ``j``'s distribution is the empirical one of ``samples[j]`` games (0: exact)."""
    chances = win_chances(pmfs)
    if not pmfs:
        return []
    variance = variance_terms(pmfs, samples).sum(axis=1)
    sampled = [n for n in samples if n > 0]
    games = sum(sampled)
    result = []
    for win, var in zip(chances, variance.tolist(), strict=True):
        win = min(1.0, max(0.0, win))
        if games == 0:
            result.append(WinInterval(win, win, win))
            continue
        low, high = wilson(win, var, games, student_t95(min(sampled) - 1))
        result.append(WinInterval(win, low, high))
    return result


def variance_terms(pmfs: Sequence[Pmf], samples: Sequence[int]) -> Array:
    """``terms[k, j]``: what player ``j``'s ``samples[j]`` games add to the variance of player
    ``k``'s chance (0 where ``j`` is exact): which sheet's games narrow ``k``'s interval most."""
    terms = np.zeros((len(pmfs), len(pmfs)))
    if not pmfs:
        return terms
    _, p = _grid(pmfs)
    for j, n in enumerate(samples):
        if n <= 0:
            continue
        g = given_total(pmfs, j)  # [totals, players]
        mean = p[j] @ g
        terms[:, j] = (p[j] @ (g - mean) ** 2) / max(1, n - 1)  # the unbiased variance
    return terms


def wilson(chance: float, variance: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``chance`` estimated with ``variance``, as from
    ``chance * (1 - chance) / variance`` games, at most ``games`` (see the module docstring);
    ``z`` the quantile (95 %: :data:`Z95`, from few games :func:`student_t95`).

    >>> [round(x, 4) for x in wilson(0.5, 0.0025, 1000)]  # 100 games: 0.5 +- 0.098
    [0.4038, 0.5962]
    >>> [round(x, 4) for x in wilson(0.0, 0.0, 100)]  # no game won: not a certainty
    [0.0, 0.037]
    """
    spread = chance * (1 - chance)
    effective = float(games) if variance <= 0 or spread == 0 else min(games, spread / variance)
    z2 = z * z
    centre = (chance + z2 / (2 * effective)) / (1 + z2 / effective)
    half = z / (1 + z2 / effective) * math.sqrt(spread / effective + z2 / (4 * effective**2))
    return max(0.0, min(chance, centre - half)), min(1.0, max(chance, centre + half))


def student_t95(freedom: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``freedom`` degrees of freedom, by its
    expansion around the normal one (Abramowitz and Stegun 26.7.5; 4.27 for 2, where it is
    4.30, and within 1e-3 from 3 on).

    >>> round(student_t95(23), 3), round(student_t95(10_000), 3)
    (2.069, 1.96)
    """
    z = Z95
    v = max(1, freedom)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / float(v) ** k for k, term in enumerate(terms, start=1))
