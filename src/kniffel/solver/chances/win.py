"""Each player's chance to finish first, from independent final-total distributions.

A distribution is a probability mass function over whole points
(:class:`Pmf`). The players' dice are independent, so the chance that player
``k`` finishes first, a tie of ``t + 1`` players counting ``1 / (t + 1)``, is

    sum over x of  P(X_k = x) * E[ 1 / (1 + T) ; every other X_j <= x ]

where ``T`` counts the others with ``X_j = x``. For each ``x`` the others are
below (``P(X_j < x)``) or level (``P(X_j = x)``) independently, so the
expectation is read off the polynomial ``prod_j (P(X_j < x) + P(X_j = x) z)``.
The chances add up to 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Pmf", "normal_cdf", "win_chances"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Pmf:
    """``p[i]`` is the probability of the total ``low + i``."""

    low: int
    p: Array

    @classmethod
    def of_samples(cls, samples: IntArray) -> Pmf:
        low = int(samples.min())
        counts = np.bincount(samples - low).astype(np.float64)
        return cls(low, counts / counts.sum())

    @classmethod
    def normal(cls, mean: float, std: float) -> Pmf:
        """A normal distribution rounded to whole points (a point mass when ``std`` is 0)."""
        if std <= 0:
            return cls(round(mean), np.ones(1))
        low = math.floor(mean - 6 * std)
        high = math.ceil(mean + 6 * std)
        edges = np.arange(low, high + 2) - 0.5
        cdf = 0.5 * (1 + _erf(np.asarray((edges - mean) / (std * math.sqrt(2)), dtype=np.float64)))
        p = np.diff(cdf)
        return cls(low, p / p.sum())

    @property
    def mean(self) -> float:
        return float((np.arange(len(self.p)) + self.low) @ self.p)

    def quantile(self, q: float) -> int:
        """The smallest total with at least ``q`` of the probability at or below it."""
        index = int(np.searchsorted(np.cumsum(self.p), q - 1e-12))
        return self.low + min(index, len(self.p) - 1)

    def on(self, low: int, size: int) -> Array:
        """The probabilities on the totals ``low .. low + size - 1`` (this pmf must fit)."""
        grid = np.zeros(size)
        start = self.low - low
        grid[start : start + len(self.p)] = self.p
        return grid


def _erf(x: Array) -> Array:
    """The error function to 1.5e-7 (Abramowitz and Stegun 7.1.26), over an array."""
    t = 1 / (1 + 0.3275911 * np.abs(x))
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return np.asarray(np.sign(x) * (1 - poly * np.exp(-(x**2))))


def normal_cdf(z: Array) -> Array:
    """The standard normal distribution function, over an array."""
    return np.asarray(0.5 * (1 + _erf(np.asarray(z, dtype=np.float64) / math.sqrt(2))))


def win_chances(pmfs: Sequence[Pmf]) -> list[float]:
    """Each player's chance to finish first, ties shared."""
    n = len(pmfs)
    if n == 0:
        return []
    low = min(pmf.low for pmf in pmfs)
    size = max(pmf.low + len(pmf.p) for pmf in pmfs) - low
    p = np.stack([pmf.on(low, size) for pmf in pmfs])  # [players, totals]
    below = np.cumsum(p, axis=1) - p  # P(X_j < x)
    chances = []
    for k in range(n):
        # coefficients of prod over the others of (below + p z), by powers of z
        poly = np.zeros((n, size))
        poly[0] = 1.0
        for j in range(n):
            if j == k:
                continue
            shifted = np.zeros_like(poly)
            shifted[1:] = poly[:-1] * p[j]
            poly = poly * below[j] + shifted
        share = (poly / np.arange(1, n + 1)[:, None]).sum(axis=0)
        chances.append(float(p[k] @ share))
    return chances
