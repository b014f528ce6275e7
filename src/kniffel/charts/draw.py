"""The board's charts as SVG text: lines over a shared x axis, and a histogram with marks.

One small drawing module for every chart (docs/decisions.md, "One chart stack"): the end
chart, the chances chart, the review, the player pages and ``kniffel simulate --plot``.
Writing the SVG directly costs about a millisecond a chart, where matplotlib cost 0.1–0.4
CPU-seconds (docs/benchmarks.md, "Cost per request").

The output is accessible: the document is an image labelled by its ``<title>`` and a
``<desc>`` that says in words what the chart shows (each line from where to where, the
histogram's range and marks), in the translator's language; each line, bar and point has
a ``<title>`` of its own. Names and labels are escaped text nodes, never markup, and text
stays text (searchable; no fonts embedded). Colours are Okabe–Ito, told apart also with
the common colour-vision deficiencies. A line with more points than the plot has pixel
columns is drawn as the mean of the points that fall on each column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from babel.numbers import format_decimal, format_percent

from kniffel.charts.scale import Frame, nice_ticks
from kniffel.locales import Translator

__all__ = ["PALETTE", "Bar", "Labels", "Line", "Mark", "histogram_svg", "lines_svg"]

#: Colours told apart also with the common colour-vision deficiencies (Okabe–Ito).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

WIDTH = 640
LEFT, RIGHT, TOP, BOTTOM = 62, 16, 44, 50
LEGEND_ROW = 18
GRID = "#d9dee6"
INK = "#2b2f36"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
#: Points are marked on a line with at most this many (one game's turns; not years of games).
MARKED = 14


@dataclass(frozen=True, slots=True)
class Labels:
    """The chart's words, already in the reader's language: its title and its two axes."""

    title: str
    x: str
    y: str


@dataclass(frozen=True, slots=True)
class Line:
    """One series: ``ys`` over ``xs``; ``band``: a pale area from ``low`` to ``high`` at each
    x (an interval), drawn where it is wider than nothing."""

    name: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    band: tuple[tuple[float, ...], tuple[float, ...]] | None = None


@dataclass(frozen=True, slots=True)
class Bar:
    """How many values fall from ``low`` up to (not including) ``below``."""

    low: int
    below: int
    count: int


@dataclass(frozen=True, slots=True)
class Mark:
    """A labelled vertical line at ``x`` (a mean, the bot's mean)."""

    label: str
    x: float


def _value(value: float, t: Translator, percent: bool) -> str:
    """A tick or a figure as the language writes it (``0,5``; ``50 %``)."""
    if percent:
        return format_percent(value, locale=t.lang)
    return format_decimal(round(value, 2), "#,##0.##", locale=t.lang)


def _text(x: float, y: float, text: str, **attributes: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(text)}</text>'


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
    labels: Labels,
    desc: str,
    body: list[str],
    t: Translator,
    legend: Sequence[tuple[str, str]] = (),
) -> str:
    parts = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-labelledby="chart-title chart-desc" '
        f'lang="{t.lang}" font-family="{FONT}" font-size="14" fill="{INK}">',
        f'<title id="chart-title">{escape(labels.title)}</title>',
        f'<desc id="chart-desc">{escape(desc)}</desc>',
        _text(LEFT, 20, labels.title, font_size="16", font_weight="600", aria_hidden="true"),
        *body,
        _text((LEFT + WIDTH - RIGHT) / 2, height - 8, labels.x, text_anchor="middle"),
        f'<text transform="translate(16 {(TOP + height - BOTTOM) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{escape(labels.y)}</text>',
    ]
    if legend:
        places, _ = _legend([label for label, _ in legend])
        parts.append(f'<g class="legend" aria-label="{escape(t("Legende"))}">')
        for (label, colour), (x, row) in zip(legend, places, strict=True):
            y = 40 + LEGEND_ROW * row
            parts.append(
                f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x + 18:.1f}" y2="{y - 4}" '
                f'stroke="{colour}" stroke-width="3"/>'
            )
            parts.append(_text(x + 24, y, label, font_size="13"))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _axes(
    frame: Frame,
    xticks: Sequence[float],
    yticks: Sequence[float],
    t: Translator,
    *,
    percent: bool = False,
) -> list[str]:
    body = ['<g class="axes">']
    for tick in yticks:
        y = frame.py(tick)
        body.append(
            f'<line x1="{frame.left}" y1="{y:.1f}" x2="{frame.right}" y2="{y:.1f}" '
            f'stroke="{GRID}" stroke-width="0.6"/>'
        )
        body.append(_text(frame.left - 6, y + 4, _value(tick, t, percent), text_anchor="end"))
    for tick in xticks:
        x = frame.px(tick)
        body.append(
            f'<line x1="{x:.1f}" y1="{frame.bottom}" x2="{x:.1f}" y2="{frame.bottom + 4}" '
            f'stroke="{INK}"/>'
        )
        body.append(_text(x, frame.bottom + 16, _value(tick, t, False), text_anchor="middle"))
    body.append(
        f'<path d="M{frame.left} {frame.top}V{frame.bottom}H{frame.right}" '
        f'fill="none" stroke="{INK}" stroke-width="0.8"/>'
    )
    body.append("</g>")
    return body


def _frame(height: int, rows: int, x: tuple[float, float], y: tuple[float, float]) -> Frame:
    top = TOP + LEGEND_ROW * rows
    return Frame(left=LEFT, right=WIDTH - RIGHT, top=top, bottom=height - BOTTOM, x=x, y=y)


def histogram_svg(
    bars: Sequence[Bar], labels: Labels, t: Translator, *, marks: Sequence[Mark] = ()
) -> str:
    """Bars with labelled vertical ``marks``; the title and the axes say what is counted.

    >>> svg = histogram_svg([Bar(100, 110, 3), Bar(110, 120, 1)], Labels("Punkte", "P", "Anzahl"),
    ...                     Translator("de"), marks=[Mark("Schnitt", 106.5)])
    >>> "<desc id=\\"chart-desc\\">4 Werte von 100 bis 119. Schnitt bei 106,5.</desc>" in svg
    True
    """
    _, rows = _legend([mark.label for mark in marks])
    height = 320
    low = min([b.low for b in bars] + [m.x for m in marks], default=0)
    high = max([b.below for b in bars] + [m.x for m in marks], default=1)
    top = max([b.count for b in bars], default=1)
    yticks = nice_ticks(0, max(top, 1))
    xticks = [x for x in nice_ticks(low, high, 6, integer=True) if low <= x <= high]
    frame = _frame(height, rows, (low, high), (0, yticks[-1]))
    body = _axes(frame, xticks, yticks, t)
    body.append(f'<g class="bars" fill="{PALETTE[0]}">')
    for bar in bars:
        if bar.count:
            x, y = frame.px(bar.low), frame.py(bar.count)
            width = max(frame.px(bar.below) - x - 1, 1)
            body.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
                f'height="{frame.bottom - y:.1f}"><title>{bar.low}–{bar.below - 1}: {bar.count}'
                "</title></rect>"
            )
    body.append("</g>")
    legend = []
    for i, mark in enumerate(marks):
        colour = PALETTE[(i + 1) % len(PALETTE)]
        x = frame.px(mark.x)
        body.append(
            f'<line class="mark" x1="{x:.1f}" y1="{frame.top}" x2="{x:.1f}" y2="{frame.bottom}" '
            f'stroke="{colour}" stroke-width="2"><title>{escape(mark.label)}</title></line>'
        )
        legend.append((mark.label, colour))
    counted = [b for b in bars if b.count]
    said = [
        t(
            "{count} Werte von {low} bis {high}.",
            count=t.number(sum(b.count for b in bars)),
            low=_value(min(b.low for b in counted), t, False),
            high=_value(max(b.below for b in counted) - 1, t, False),
        )
        if counted
        else t("Noch keine Werte.")
    ]
    said += [t("{label} bei {x}.", label=m.label, x=_value(m.x, t, False)) for m in marks]
    return _document(height, labels, " ".join(said), body, t, legend)


def _thinned(line: Line, frame: Frame) -> list[tuple[float, float]]:
    """The points in pixels; several points on one pixel column become their mean."""
    if len(line.xs) <= frame.right - frame.left:
        return [(frame.px(x), frame.py(y)) for x, y in zip(line.xs, line.ys, strict=True)]
    columns: dict[int, list[float]] = {}
    for x, y in zip(line.xs, line.ys, strict=True):
        columns.setdefault(round(frame.px(x)), []).append(y)
    return [(float(c), frame.py(sum(v) / len(v))) for c, v in sorted(columns.items())]


def _band(line: Line, frame: Frame, colour: str) -> str | None:
    if line.band is None:
        return None
    lows, highs = line.band
    if not any(high - low > 1e-6 for low, high in zip(lows, highs, strict=True)):
        return None
    upper = [(frame.px(x), frame.py(y)) for x, y in zip(line.xs, highs, strict=True)]
    lower = [(frame.px(x), frame.py(y)) for x, y in zip(line.xs, lows, strict=True)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in upper + lower[::-1])
    return f'<polygon class="band" points="{points}" fill="{colour}" fill-opacity="0.15"/>'


def lines_svg(
    lines: Sequence[Line],
    labels: Labels,
    t: Translator,
    *,
    ylim: tuple[float | None, float | None] = (None, None),
    percent: bool = False,
) -> str:
    """A line per series over a shared x axis (turn, entry, game 1, 2, …); ``ylim`` fixes
    either end of the y axis; ``percent``: the values are shares (0–1), written as percent.

    >>> svg = lines_svg([Line("Anna", (0, 1, 2), (0, 24, 49))], Labels("Punkte", "Zug", "Gesamt"),
    ...                 Translator("en"))
    >>> "<desc id=\\"chart-desc\\">Anna: from 0 to 49 (highest 49).</desc>" in svg
    True
    """
    drawn = [line for line in lines if line.ys]
    _, rows = _legend([line.name for line in drawn])
    height = 360
    xs_all = [x for line in drawn for x in line.xs]
    ys_all = [y for line in drawn for y in line.ys]
    bottom = ylim[0] if ylim[0] is not None else min(ys_all, default=0)
    top = ylim[1] if ylim[1] is not None else max(ys_all, default=1)
    yticks = [y for y in nice_ticks(bottom, top) if ylim[1] is None or y <= ylim[1]]
    xticks = nice_ticks(min(xs_all, default=1), max(xs_all, default=1), 6, integer=True)
    xticks = [x for x in xticks if x >= 0]
    frame = _frame(height, rows, (xticks[0], xticks[-1]), (yticks[0], yticks[-1]))
    body = _axes(frame, xticks, yticks, t, percent=percent)
    legend = []
    said = []
    for i, line in enumerate(lines):
        if not line.ys:
            continue
        colour = PALETTE[i % len(PALETTE)]
        body.append(f'<g class="line" aria-label="{escape(line.name)}">')
        body.append(f"<title>{escape(line.name)}</title>")
        band = _band(line, frame, colour)
        if band is not None:
            body.append(band)
        points = _thinned(line, frame)
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        body.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
        if len(points) <= MARKED:
            for (px, py), x, y in zip(points, line.xs, line.ys, strict=True):
                point = f"{labels.x} {_value(x, t, False)}: {_value(y, t, percent)}"
                body.append(
                    f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}">'
                    f"<title>{escape(point)}</title></circle>"
                )
        body.append("</g>")
        legend.append((line.name, colour))
        said.append(
            t(
                "{name}: von {first} bis {last} (höchstens {high}).",
                name=line.name,
                first=_value(line.ys[0], t, percent),
                last=_value(line.ys[-1], t, percent),
                high=_value(max(line.ys), t, percent),
            )
        )
    desc = " ".join(said) if said else t("Noch keine Werte.")
    return _document(height, labels, desc, body, t, legend)
