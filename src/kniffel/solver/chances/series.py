"""The win chances after every entry of a game, for the CLI and the end screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kniffel.record import Record, replay
from kniffel.rules import Enter, Game, standing_events
from kniffel.solver.chances.forecast import forecast

__all__ = ["Series", "Turn", "chances_over"]

#: Simulation budget per position (bot turns), small: a game has up to 156 entries.
SERIES_BUDGET = 0


@dataclass(frozen=True)
class Turn:
    """The chances right after the entry of event ``event`` (1-based) by ``player``."""

    event: int
    player: str
    chances: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "player": self.player, "chances": self.chances}


@dataclass(frozen=True)
class Series:
    players: tuple[str, ...]
    method: str
    start: dict[str, float]  # before the first entry
    turns: tuple[Turn, ...]
    winners: tuple[str, ...]  # empty while the game is not finished

    def as_dict(self) -> dict[str, Any]:
        return {"turns": [t.as_dict() for t in self.turns], "winners": list(self.winners)}


def chances_over(source: Record | Game, *, budget: int = SERIES_BUDGET, seed: int = 0) -> Series:
    """Replay ``source`` (its events still standing) and forecast after every entry."""
    played = replay(source) if isinstance(source, Record) else source
    game = Game(played.variant, played.players)
    start = forecast(game, budget=budget, seed=seed)
    turns = []
    for number, event in standing_events(played.log):
        game.push(event)
        if isinstance(event, Enter):
            now = forecast(game, budget=budget, seed=seed)
            turns.append(Turn(number, event.player, now.by_name()))
    return Series(
        tuple(game.players), start.method, start.by_name(), tuple(turns), tuple(game.winners())
    )
