"""What lists show of a game without replaying it: the summary columns of ``games``.

The service computes a :class:`Summary` from the replay it already holds and
the store writes it in the same transaction as the event, so a list (start
page, history, ``GET /api/games``) reads rows only. Migration
``0002_game_summary`` fills the columns of games stored before them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.rules import Game

__all__ = ["Summary", "summary_of"]


@dataclass(frozen=True, slots=True)
class Summary:
    """A game's standing: cells filled in all, every player's total, the winners once finished."""

    finished: bool
    turns: int
    totals: tuple[int, ...]
    winners: tuple[str, ...]


def summary_of(game: Game) -> Summary:
    """The summary of ``game`` as it stands.

    >>> from kniffel.rules import get_variant
    >>> summary_of(Game(get_variant("kniffel"), ["Anna", "Ben"]))
    Summary(finished=False, turns=0, totals=(0, 0), winners=())
    """
    return Summary(
        finished=game.is_finished,
        turns=sum(game.filled_count(p) for p in range(len(game.players))),
        totals=tuple(game.returns()),
        winners=tuple(game.winners()),
    )
