"""The games evening (Spieleabend): games linked by Revanche, and their running tally.

A Revanche (:meth:`kniffel.board.service.GameService.revanche`) starts the next game with the
same players, rules and dice mode, the next player starting; the games it links form an
evening, named by the id of its first game (``games.evening``, docs/board.md, "Revanche").
The tally is derived from the finished games' summary columns (totals and winners): nothing
is replayed and nothing is stored twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kniffel.store import StoredGame, player_key

__all__ = ["Evening", "EveningBest", "EveningPlayer", "tally"]


@dataclass(frozen=True, slots=True)
class EveningPlayer:
    """One player's figures over the evening's finished games."""

    name: str
    games: int
    wins: int
    points: int

    @property
    def average(self) -> float:
        """Points per game played."""
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class EveningBest:
    """The evening's best game: the highest total any player made in one game."""

    game_id: str
    number: int  # which game of the evening, from 1
    name: str
    total: int


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening's tally; ``games`` counts its finished games (of ``started`` in all)."""

    id: str
    games: int
    started: int
    players: tuple[EveningPlayer, ...]  # most wins first, then most points
    best: EveningBest | None


def tally(evening: str, games: Sequence[StoredGame]) -> Evening:
    """The tally of ``games`` (one evening's, oldest first) over the finished ones.

    A tie wins for every player on it; a player is recognised by name as on the player pages
    (:func:`kniffel.store.player_key`).

    >>> from datetime import UTC, datetime
    >>> at = datetime(2026, 12, 6, tzinfo=UTC)
    >>> def game(id, players, totals, winners):
    ...     return StoredGame(id, "", "kniffel", {}, players, "physical", {}, at, at, True, 26,
    ...                       totals=totals, winners=winners, evening="a")
    >>> night = tally("a", [game("a", ("Anna", "Ben"), (200, 180), ("Anna",)),
    ...                     game("b", ("Ben", "Anna"), (250, 190), ("Ben",))])
    >>> [(p.name, p.wins, p.points, p.average) for p in night.players]
    [('Ben', 1, 430, 215.0), ('Anna', 1, 390, 195.0)]
    >>> night.best
    EveningBest(game_id='b', number=2, name='Ben', total=250)
    """
    names: dict[str, str] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    points: dict[str, int] = {}
    best: EveningBest | None = None
    finished = 0
    for number, game in enumerate(games, start=1):
        if not game.finished:
            continue
        finished += 1
        winners = {player_key(name) for name in game.winners}
        for name, total in zip(game.players, game.totals, strict=False):
            key = player_key(name)
            names.setdefault(key, name)
            played[key] = played.get(key, 0) + 1
            wins[key] = wins.get(key, 0) + (key in winners)
            points[key] = points.get(key, 0) + total
            if best is None or total > best.total:
                best = EveningBest(game.id, number, name, total)
    players = sorted(
        (EveningPlayer(names[key], played[key], wins[key], points[key]) for key in names),
        key=lambda p: (-p.wins, -p.points, p.name),
    )
    return Evening(evening, finished, len(games), tuple(players), best)
