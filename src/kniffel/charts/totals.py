"""The end screen's chart: every player's running total, turn by turn (the figures, also
shown as a table beside it, and their drawing)."""

from __future__ import annotations

from kniffel.charts.draw import Labels, Line, lines_svg
from kniffel.locales import Translator
from kniffel.rules import Clear, Edit, Enter, Game, standing_events

__all__ = ["running_totals", "totals_chart_svg"]


def running_totals(game: Game) -> list[list[int]]:
    """Per player, the total after each of their turns (``[0]`` before the first).

    A correction changes the player's latest point, so the last point of every
    line is the player's total now. A cleared cell filled again is one turn, not
    two: each line has one point per standing entry (plus the start).

    >>> from kniffel.rules import get_variant, Dice
    >>> game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    >>> game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66612")))
    >>> game.push(Enter("Ben", game.cell("chance"), points=20))
    >>> game.push(Edit("Anna", game.cell("sixes"), 24))
    >>> running_totals(game)
    [[0, 24], [0, 20]]
    """
    replayed = Game(game.variant, game.players)
    lines: list[list[int]] = [[0] for _ in game.players]
    cleared = [0 for _ in game.players]  #: cells cleared and not yet filled again
    for _, event in standing_events(game.log):
        replayed.push(event)
        if isinstance(event, Enter):
            p = replayed.seat(event.player)
            if cleared[p]:
                # Filling a cleared cell again finishes the turn that was cleared.
                cleared[p] -= 1
                lines[p][-1] = replayed.total(p)
            else:
                lines[p].append(replayed.total(p))
        elif isinstance(event, Edit | Clear):
            p = replayed.seat(event.player)
            lines[p][-1] = replayed.total(p)
            if isinstance(event, Clear):
                cleared[p] += 1
    return lines


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
