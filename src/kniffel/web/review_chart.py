"""The game review's chart: each player's expected final total after every decision, as SVG.

The same style as the end screen's chart (:mod:`kniffel.board.chart`): matplotlib's
``Figure`` API (never ``pyplot``), the same colours, text drawn as paths.
Player names are text, never markup: matplotlib reads ``$…$`` as mathematics,
so every ``$`` is escaped (:func:`plain`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from kniffel.board.chart import PALETTE

__all__ = ["expected_chart_svg", "plain", "series_chart_svg"]


def plain(text: str) -> str:
    """``text`` as matplotlib draws it literally: ``$`` escaped (no mathtext).

    >>> plain("$10 Anna")
    '\\\\$10 Anna'
    """
    return text.replace("\\", "\\\\").replace("$", r"\$")


def series_chart_svg(
    series: Sequence[tuple[str, Sequence[float], Sequence[float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    ylim: tuple[float | None, float | None] = (None, None),
) -> str:
    """Lines ``(name, xs, ys)`` in the end chart's style, as an SVG document."""
    # Imported when a chart is drawn: matplotlib would add about a third to the
    # server's start (docs/architecture.md, "Start").
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.add_subplot()
    for p, (name, xs, ys) in enumerate(series):
        axes.plot(
            list(xs),
            list(ys),
            label=plain(name),
            color=PALETTE[p % len(PALETTE)],
            linewidth=2,
            marker="o" if len(ys) <= 14 else None,
            markersize=3,
        )
    axes.set_xlabel(plain(xlabel))
    axes.set_ylabel(plain(ylabel))
    axes.set_title(plain(title), loc="left", fontsize=11)
    axes.grid(True, color="#d9dee6", linewidth=0.6)
    bottom, top = ylim
    if bottom is not None:
        axes.set_ylim(bottom=bottom)
    if top is not None:
        axes.set_ylim(top=top)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    if any(len(ys) for _, _, ys in series):
        axes.legend(frameon=False, fontsize=9, loc="best")
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    return buffer.getvalue()


def expected_chart_svg(
    players: Sequence[tuple[str, Sequence[float]]], words: Callable[[str], str]
) -> str:
    """Per player, the expected final total after each of their decisions (1, 2, …)."""
    return series_chart_svg(
        [(name, range(1, len(values) + 1), values) for name, values in players],
        title=words("Erwartete Endsumme nach jeder Entscheidung"),
        xlabel=words("Entscheidung"),
        ylabel=words("Erwartete Endsumme"),
    )
