"""The end screen's chart: every player's running total, turn by turn, as SVG.

Drawn with matplotlib's object API (``Figure`` and its own canvas, never
``pyplot``): pyplot keeps global state and a GUI backend, which a server that
draws for several requests at once must not share.
"""

from __future__ import annotations

import io

from kniffel.locales import Translator
from kniffel.rules import Clear, Edit, Enter, Game, standing_events

__all__ = ["running_totals", "totals_chart_svg"]

#: Colours told apart also with the common colour-vision deficiencies (Okabe–Ito).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")


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
    """The running totals of ``game`` as an SVG document (text drawn as paths: no fonts needed)."""
    lines = running_totals(game)
    # Imported when a chart is drawn: matplotlib would add about a third to the
    # server's start (docs/architecture.md, "Start").
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.add_subplot()
    for p, (name, totals) in enumerate(zip(game.players, lines, strict=True)):
        axes.plot(
            range(len(totals)),
            totals,
            label=name,
            color=PALETTE[p % len(PALETTE)],
            linewidth=2,
            marker="o" if len(totals) <= 14 else None,
            markersize=3,
        )
    axes.set_xlabel(t("Zug"))
    axes.set_ylabel(t("Gesamt"))
    axes.set_title(t("Punktestand nach jedem Zug"), loc="left", fontsize=11)
    axes.grid(True, color="#d9dee6", linewidth=0.6)
    axes.set_xlim(left=0)
    axes.set_ylim(bottom=0)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    legend = axes.legend(frameon=False, fontsize=9, loc="upper left")
    for text in legend.get_texts():
        # A name is text: "$1 & $2" is not matplotlib's mathtext (docs/board.md).
        text.set_parse_math(False)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    return buffer.getvalue()
