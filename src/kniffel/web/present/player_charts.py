"""The player page's charts as hand-written SVG: a histogram of totals and lines over time.

A player page over years of games must stay quick (docs/benchmarks.md, "Player pages over
years of games"); drawing with matplotlib costs a few hundred milliseconds per chart, so
these charts are written as SVG text directly, in the colours of the end chart
(:data:`kniffel.board.chart.PALETTE`). Names and labels are text nodes, escaped, never
markup. A line with more games than the plot has pixels is drawn as the mean of the
games that fall on each pixel column (the chart's title says nothing else changes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from kniffel.board.chart import PALETTE

__all__ = ["histogram_svg", "lines_svg", "nice_ticks"]

WIDTH = 640
LEFT, RIGHT, TOP, BOTTOM = 62, 16, 44, 50
GRID = "#d9dee6"
INK = "#2b2f36"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def nice_ticks(low: float, high: float, count: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values covering ``low`` … ``high`` (about ``count`` of them); ``integer``:
    whole numbers only (games, decisions, points).

    >>> nice_ticks(0, 100)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> nice_ticks(5, 5)
    [4.0, 5.0, 6.0]
    >>> nice_ticks(1, 16, 6, integer=True)
    [0.0, 5.0, 10.0, 15.0, 20.0]
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
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return [float(t) for t in ticks]


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def _text(x: float, y: float, text: str, **attributes: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(text)}</text>'


class _Frame:
    """A plot area with linear x and y scales."""

    def __init__(
        self, height: int, x: tuple[float, float], y: tuple[float, float], top: float = TOP
    ) -> None:
        self.height = height
        self.x0, self.x1 = x if x[1] > x[0] else (x[0] - 1, x[0] + 1)
        self.y0, self.y1 = y if y[1] > y[0] else (y[0] - 1, y[0] + 1)
        self.left, self.right = LEFT, WIDTH - RIGHT
        self.top, self.bottom = top, height - BOTTOM

    def px(self, x: float) -> float:
        return self.left + (x - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def py(self, y: float) -> float:
        return self.bottom - (y - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)


LEGEND_ROW = 18


def _legend(labels: Sequence[str]) -> tuple[list[tuple[float, int]], int]:
    """Where each legend entry goes (x, row) under the title, wrapped to the width; the rows."""
    places = []
    x, row = float(LEFT), 0
    for label in labels:
        width = 24 + 7.5 * len(label) + 18  # the line, the text (about 7.5 px a letter), a gap
        if x > LEFT and x + width > WIDTH - RIGHT:
            x, row = float(LEFT), row + 1
        places.append((x, row))
        x += width
    return places, (row + 1 if labels else 0)


def _document(
    height: int,
    title: str,
    xlabel: str,
    ylabel: str,
    body: list[str],
    legend: Sequence[tuple[str, str]] = (),
) -> str:
    parts = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}" '
        f'font-family="{FONT}" font-size="14" fill="{INK}">',
        f"<title>{escape(title)}</title>",
        _text(LEFT, 20, title, font_size="16", font_weight="600"),
        *body,
        _text((LEFT + WIDTH - RIGHT) / 2, height - 8, xlabel, text_anchor="middle"),
        f'<text transform="translate(16 {(TOP + height - BOTTOM) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{escape(ylabel)}</text>',
    ]
    places, _ = _legend([label for label, _ in legend])
    for (label, colour), (x, row) in zip(legend, places, strict=True):
        y = 40 + LEGEND_ROW * row
        parts.append(
            f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x + 18:.1f}" y2="{y - 4}" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
        parts.append(_text(x + 24, y, label, font_size="13"))
    parts.append("</svg>")
    return "\n".join(parts)


def _axes(frame: _Frame, xticks: Sequence[float], yticks: Sequence[float]) -> list[str]:
    body = []
    for t in yticks:
        y = frame.py(t)
        body.append(
            f'<line x1="{frame.left}" y1="{y:.1f}" x2="{frame.right}" y2="{y:.1f}" '
            f'stroke="{GRID}" stroke-width="0.6"/>'
        )
        body.append(_text(frame.left - 6, y + 4, _number(t), text_anchor="end"))
    for t in xticks:
        x = frame.px(t)
        body.append(
            f'<line x1="{x:.1f}" y1="{frame.bottom}" x2="{x:.1f}" y2="{frame.bottom + 4}" '
            f'stroke="{INK}"/>'
        )
        body.append(_text(x, frame.bottom + 16, _number(t), text_anchor="middle"))
    body.append(
        f'<path d="M{frame.left} {frame.top}V{frame.bottom}H{frame.right}" '
        f'fill="none" stroke="{INK}" stroke-width="0.8"/>'
    )
    return body


def histogram_svg(
    bins: Sequence[tuple[int, int, int]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    marks: Sequence[tuple[str, float]] = (),
) -> str:
    """Bars of ``(from, below, count)`` with labelled vertical ``marks`` (mean, the bot's)."""
    _, rows = _legend([label for label, _ in marks])
    extra = LEGEND_ROW * rows
    height = 320
    low = min([a for a, _, _ in bins] + [x for _, x in marks], default=0)
    high = max([b for _, b, _ in bins] + [x for _, x in marks], default=1)
    top = max([n for _, _, n in bins], default=1)
    yticks = nice_ticks(0, max(top, 1))
    xticks = [t for t in nice_ticks(low, high, 6, integer=True) if low <= t <= high]
    frame = _Frame(height, (low, high), (0, yticks[-1]), top=TOP + extra)
    body = _axes(frame, xticks, yticks)
    for a, b, n in bins:
        if n:
            x, y = frame.px(a), frame.py(n)
            body.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(frame.px(b) - x - 1, 1):.1f}" '
                f'height="{frame.bottom - y:.1f}" fill="{PALETTE[0]}"><title>{a}–{b - 1}: {n}'
                "</title></rect>"
            )
    legend = []
    for i, (label, value) in enumerate(marks):
        colour = PALETTE[(i + 1) % len(PALETTE)]
        x = frame.px(value)
        body.append(
            f'<line x1="{x:.1f}" y1="{frame.top}" x2="{x:.1f}" y2="{frame.bottom}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        legend.append((label, colour))
    return _document(height, title, xlabel, ylabel, body, legend)


def _thinned(xs: Sequence[float], ys: Sequence[float], frame: _Frame) -> list[tuple[float, float]]:
    """The points in pixels; several points on one pixel column become their mean."""
    columns: dict[int, list[float]] = {}
    if len(xs) <= frame.right - frame.left:
        return [(frame.px(x), frame.py(y)) for x, y in zip(xs, ys, strict=True)]
    for x, y in zip(xs, ys, strict=True):
        columns.setdefault(round(frame.px(x)), []).append(y)
    return [(float(c), frame.py(sum(v) / len(v))) for c, v in sorted(columns.items())]


def lines_svg(
    series: Sequence[tuple[str, Sequence[float], Sequence[float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    ylim: tuple[float | None, float | None] = (None, None),
) -> str:
    """Lines ``(name, xs, ys)`` over a shared x axis (game 1, 2, …)."""
    named = [name for name, _, ys in series if ys]
    _, rows = _legend(named)
    extra = LEGEND_ROW * rows
    height = 360
    xs_all = [x for _, xs, _ in series for x in xs]
    ys_all = [y for _, _, ys in series for y in ys]
    bottom = ylim[0] if ylim[0] is not None else min(ys_all, default=0)
    top = ylim[1] if ylim[1] is not None else max(ys_all, default=1)
    yticks = [t for t in nice_ticks(bottom, top) if ylim[1] is None or t <= ylim[1]]
    xticks = nice_ticks(min(xs_all, default=1), max(xs_all, default=1), 6, integer=True)
    xticks = [t for t in xticks if t >= 0]
    frame = _Frame(height, (xticks[0], xticks[-1]), (yticks[0], yticks[-1]), top=TOP + extra)
    body = _axes(frame, xticks, yticks)
    legend = []
    for i, (name, xs, ys) in enumerate(series):
        if not ys:
            continue
        colour = PALETTE[i % len(PALETTE)]
        points = _thinned(xs, ys, frame)
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        body.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
        if len(points) <= 14:
            body.extend(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in points
            )
        legend.append((name, colour))
    return _document(height, title, xlabel, ylabel, body, legend)
