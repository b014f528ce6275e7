"""How sure a win chance is when some players' distributions are sampled.

The chances of :func:`~kniffel.solver.chances.win.win_chances` are exact for the
distributions they are given. Where a player's distribution is the empirical one
of ``n`` simulated games, the chances are estimates: a mean over those games
(and over the other sampled players' games). Their sampling error comes from
the first-order (delta-method) expansion of such a mean:

    Var(chance_k) ~ sum over sampled players j of  Var_{x ~ X_j}( g_kj(x) ) / n_j

where ``g_kj(x)`` is player ``k``'s chance to finish first when player ``j``'s
total is ``x`` (the others as given). :func:`win_intervals` gives each player's
chance with its 95 % interval, ``chance +- 1.96 * sd``, cut to [0, 1]; a player
whose distribution is exact (``n`` of 0) adds nothing, so where every
distribution is exact the interval is the chance itself.

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

__all__ = ["Z95", "WinInterval", "given_total", "win_intervals"]

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
    _, p = _grid(pmfs)
    variance = np.zeros(len(pmfs))
    for j, n in enumerate(samples):
        if n <= 0:
            continue
        g = given_total(pmfs, j)  # [totals, players]
        mean = p[j] @ g
        variance += (p[j] @ (g - mean) ** 2) / n
    result = []
    for win, var in zip(chances, variance.tolist(), strict=True):
        half = Z95 * math.sqrt(max(var, 0.0))
        win = min(1.0, max(0.0, win))
        result.append(WinInterval(win, max(0.0, win - half), min(1.0, win + half)))
    return result
