"""Each player's win chance after every entry, as an SVG chart (matplotlib's object API)."""

from __future__ import annotations

import io

from kniffel.solver.chances.series import Series

__all__ = ["PALETTE", "chances_chart_svg"]

#: Okabe–Ito colours, the same order as the board's chart of the totals.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")


def chances_chart_svg(
    series: Series,
    *,
    title: str = "Gewinnchancen nach jedem Eintrag",
    xlabel: str = "Eintrag",
    ylabel: str = "Gewinnchance",
) -> str:
    """The chances as a line per player over the entries (0: before the first), with a
    pale band for the 95 % interval where they are simulated."""
    # Imported when a chart is drawn: matplotlib would add about a third to the
    # server's start (docs/architecture.md, "Start").
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.add_subplot()
    xs = list(range(len(series.turns) + 1))
    every = [series.start, *(t.chances for t in series.turns)]
    for p, name in enumerate(series.players):
        colour = PALETTE[p % len(PALETTE)]
        ys = [c.by_name()[name] for c in every]
        axes.plot(xs, ys, label=name, color=colour, linewidth=2)
        # where the chances are simulated, their 95 % interval as a pale band
        lows = [c.intervals()[name][0] for c in every]
        highs = [c.intervals()[name][1] for c in every]
        if any(h - lo > 1e-6 for lo, h in zip(lows, highs, strict=True)):
            axes.fill_between(xs, lows, highs, color=colour, alpha=0.15, linewidth=0)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title, loc="left", fontsize=11)
    axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlim(left=0)
    axes.grid(True, color="#d9dee6", linewidth=0.6)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.legend(frameon=False, fontsize=9, loc="upper left")
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    return buffer.getvalue()
