"""The game review's chart: each player's expected final total after every decision, as SVG.

Written as SVG text by :mod:`kniffel.web.present.player_charts` in the end chart's colours
(:data:`kniffel.board.chart.PALETTE`): opening a review must take under a second
(docs/benchmarks.md, "Opening a review"), and matplotlib alone took longer than that to
import and draw the first chart of a process. Player names are escaped text nodes, never
markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kniffel.web.present.player_charts import lines_svg

__all__ = ["expected_chart_svg"]


def expected_chart_svg(
    players: Sequence[tuple[str, Sequence[float]]], words: Callable[[str], str]
) -> str:
    """Per player, the expected final total after each of their decisions (1, 2, …)."""
    return lines_svg(
        [(name, range(1, len(values) + 1), values) for name, values in players],
        title=words("Erwartete Endsumme nach jeder Entscheidung"),
        xlabel=words("Entscheidung"),
        ylabel=words("Erwartete Endsumme"),
    )
