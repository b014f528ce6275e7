"""The win chances after every entry of a game, for the CLI and the end screen.

Every position is valued by :func:`~kniffel.solver.chances.forecast.forecast`, the
function behind the API and the board, so a position has the same figures here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kniffel.record import Record, replay
from kniffel.rules import Enter, Game, standing_events
from kniffel.solver.chances.forecast import Chances, forecast

__all__ = ["Series", "SeriesCancelled", "Turn", "chances_over"]


@dataclass(frozen=True)
class Turn:
    """The chances right after the entry of event ``event`` (1-based) by ``player``."""

    event: int
    player: str
    chances: Chances

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "player": self.player,
            "method": self.chances.method,
            "samples": self.chances.samples,
            "chances": {p.name: round(p.win, 6) for p in self.chances.players},
            "intervals": {
                p.name: [round(p.low, 6), round(p.high, 6)] for p in self.chances.players
            },
        }


@dataclass(frozen=True)
class Series:
    players: tuple[str, ...]
    start: Chances  # before the first entry
    turns: tuple[Turn, ...]
    winners: tuple[str, ...]  # empty while the game is not finished

    @property
    def method(self) -> str:
        """``exact`` when every figure of the series is exact, else ``simulation``."""
        every = [self.start, *(t.chances for t in self.turns)]
        return "exact" if all(c.method == "exact" for c in every) else "simulation"

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "start": Turn(0, "", self.start).as_dict() | {"event": None, "player": None},
            "turns": [t.as_dict() for t in self.turns],
            "winners": list(self.winners),
        }


class SeriesCancelled(Exception):
    """The series was given up before it was done (``cancelled`` said so)."""


def chances_over(
    source: Record | Game,
    *,
    samples: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Series:
    """Replay ``source`` (its events still standing) and forecast after every entry
    (``samples``: games per simulated sheet; by default the board's). ``cancelled`` is asked
    before each position; when it says so, :class:`SeriesCancelled` is raised."""
    played = replay(source) if isinstance(source, Record) else source
    game = Game(played.variant, played.players)
    start = forecast(game, samples=samples)
    turns = []
    for number, event in standing_events(played.log):
        game.push(event)
        if isinstance(event, Enter):
            if cancelled is not None and cancelled():
                raise SeriesCancelled()
            turns.append(Turn(number, event.player, forecast(game, samples=samples)))
    return Series(tuple(game.players), start, tuple(turns), tuple(game.winners()))
