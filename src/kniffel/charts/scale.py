"""Where a value lands on a chart: round tick values and a plot area with linear scales."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Frame", "nice_ticks"]


def nice_ticks(low: float, high: float, count: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values covering ``low`` … ``high`` (about ``count`` of them); ``integer``:
    whole numbers only (games, decisions, points).

    >>> nice_ticks(0, 100)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> nice_ticks(5, 5)
    [4.0, 5.0, 6.0]
    >>> nice_ticks(1, 16, 6, integer=True)
    [0.0, 5.0, 10.0, 15.0, 20.0]
    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    if high <= low:
        return [low - 1.0, float(low), low + 1.0]
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    steps = (1, 2, 5, 10) if integer else (1, 2, 2.5, 5, 10)
    step = next(m * power for m in steps if m * power >= raw)
    if integer:
        step = max(step, 1)
    first = math.floor(low / step) * step
    ticks = []
    n = 0
    # by index, not by adding up: 0.1 + 0.1 + … drifts off the round values
    while first + n * step <= high + step * 1e-9:
        ticks.append(round(first + n * step, 10))
        n += 1
    if ticks[-1] < high:
        ticks.append(round(first + n * step, 10))
    return [float(t) for t in ticks]


@dataclass(frozen=True, slots=True)
class Frame:
    """A plot area (pixels ``left`` … ``right``, ``top`` … ``bottom``) showing the values
    ``x0`` … ``x1`` and ``y0`` … ``y1``; an empty range is widened by one either side.

    >>> frame = Frame(left=0, right=100, top=0, bottom=50, x=(0, 10), y=(0, 1))
    >>> frame.px(5), frame.py(1)
    (50.0, 0.0)
    """

    left: float
    right: float
    top: float
    bottom: float
    x: tuple[float, float]
    y: tuple[float, float]

    def __post_init__(self) -> None:
        for name in ("x", "y"):
            low, high = getattr(self, name)
            if high <= low:
                object.__setattr__(self, name, (low - 1, low + 1))

    def px(self, x: float) -> float:
        x0, x1 = self.x
        return self.left + (x - x0) / (x1 - x0) * (self.right - self.left)

    def py(self, y: float) -> float:
        y0, y1 = self.y
        return self.bottom - (y - y0) / (y1 - y0) * (self.bottom - self.top)
