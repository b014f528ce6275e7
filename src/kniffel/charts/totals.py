"""The end screen's chart: every player's running total, turn by turn."""

from __future__ import annotations

from kniffel.board.chart import running_totals
from kniffel.charts.draw import Labels, Line, lines_svg
from kniffel.locales import Translator
from kniffel.rules import Game

__all__ = ["totals_chart_svg"]


def totals_chart_svg(game: Game, t: Translator) -> str:
    """The running totals of ``game`` (0 before the first turn) as an SVG document.

    >>> from kniffel.rules import Enter, get_variant
    >>> game = Game(get_variant("kniffel"), ["Anna"])
    >>> game.push(Enter("Anna", game.cell("chance"), points=20))
    >>> "<title>Zug 1: 20</title>" in totals_chart_svg(game, Translator("de"))
    True
    """
    lines = [
        Line(name, tuple(range(len(totals))), tuple(totals))
        for name, totals in zip(game.players, running_totals(game), strict=True)
    ]
    labels = Labels(t("Punktestand nach jedem Zug"), t("Zug"), t("Gesamt"))
    return lines_svg(lines, labels, t, ylim=(0, None))
