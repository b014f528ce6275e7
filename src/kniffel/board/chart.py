"""The end screen's chart figures: every player's running total, turn by turn (drawn by
:mod:`kniffel.charts.totals`)."""

from __future__ import annotations

from kniffel.rules import Clear, Edit, Enter, Game, standing_events

__all__ = ["running_totals"]


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
