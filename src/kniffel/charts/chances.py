"""Each player's win chance after every entry, with the 95 % interval where simulated."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kniffel.charts.draw import Labels, Line, lines_svg
from kniffel.locales import N_, Translator

if TYPE_CHECKING:  # the solver (numpy) is imported by whoever computed the series
    from kniffel.solver.chances.series import Series

__all__ = ["ROUND_WORDS", "WORDS", "chances_chart_svg"]

#: The chart's words (message ids of the catalogues) by keyword of :func:`chances_chart_svg`.
WORDS = {
    "title": N_("Gewinnchancen nach jedem Eintrag"),
    "xlabel": N_("Eintrag"),
    "ylabel": N_("Gewinnchance"),
}
#: The words of Jamb's and Yams's chart: a point per round, not per entry
#: (:func:`kniffel.solver.chances.rounds.chances_by_round`).
ROUND_WORDS = {
    "title": N_("Gewinnchancen nach jeder Runde"),
    "xlabel": N_("Runde"),
    "ylabel": N_("Gewinnchance"),
}


def chances_chart_svg(
    series: Series,
    t: Translator | None = None,
    /,
    *,
    title: str = WORDS["title"],
    xlabel: str = WORDS["xlabel"],
    ylabel: str = WORDS["ylabel"],
) -> str:
    """The chances as a line per player over the entries (0: before the first; Jamb's and
    Yams's series: over the rounds), with a pale band for the 95 % interval where they are
    simulated; ``t`` writes the numbers and
    the description (German when not given), the other words come translated."""
    every = [series.start, *(turn.chances for turn in series.turns)]
    xs = tuple(float(x) for x in range(len(every)))
    lines = []
    for name in series.players:
        wins = tuple(c.by_name()[name] for c in every)
        lows = tuple(c.intervals()[name][0] for c in every)
        highs = tuple(c.intervals()[name][1] for c in every)
        lines.append(Line(name, xs, wins, band=(lows, highs)))
    labels = Labels(title, xlabel, ylabel)
    return lines_svg(lines, labels, t or Translator(), ylim=(0, 1), percent=True)
