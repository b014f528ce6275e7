"""The game review's chart: each player's expected final total after every decision, as SVG
(drawn by :mod:`kniffel.charts.draw`, like every chart of the board)."""

from __future__ import annotations

from collections.abc import Sequence

from kniffel.charts.draw import Labels, Line, lines_svg
from kniffel.locales import Translator

__all__ = ["expected_chart_svg"]


def expected_chart_svg(players: Sequence[tuple[str, Sequence[float]]], t: Translator) -> str:
    """Per player, the expected final total after each of their decisions (1, 2, …)."""
    lines = [
        Line(name, tuple(float(x) for x in range(1, len(values) + 1)), tuple(values))
        for name, values in players
    ]
    labels = Labels(
        t("Erwartete Endsumme nach jeder Entscheidung"),
        t("Entscheidung"),
        t("Erwartete Endsumme"),
    )
    return lines_svg(lines, labels, t)
