"""The players' list and the leaderboard, kept while the summary rows stay the same.

Both are ``GROUP BY`` queries over every player's summary rows
(:mod:`kniffel.store.player_figures`), so they cost more with every player an import adds (about
25 CPU-ms for 1,000 players), and every visit of ``/spieler`` and of the start page asks them.
Kept per generation of the rows (:attr:`kniffel.store.results.ResultStore.generation`), a
visit costs the look for changed games (one small query) while nothing changed; a change costs
one rebuild, less than the import that made it (docs/benchmarks.md, "Cost per request").
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from kniffel.board.players.stats import LeaderboardRow, leaderboard
from kniffel.store import player_figures
from kniffel.store.results import ResultStore

__all__ = ["FRESH", "Listing", "Listings", "PlayerRow"]

#: How long a listing is handed out again while this process changed no summary row (seconds):
#: another process's link or review shows after at most this long, a game change at once.
FRESH = 60.0

#: key, name, games, wins, contested games, contested wins, only a bot
PlayerRow = tuple[str, str, int, int, int, int, bool]


@dataclass(frozen=True, slots=True)
class Listing:
    """Every player (most games first) and, per preset, every player by mean total."""

    generation: int
    made: float
    players: tuple[PlayerRow, ...]
    board: dict[str, list[LeaderboardRow]]


class Listings:
    """The current :class:`Listing` of a store's summary rows, made again only after a change."""

    def __init__(self, results: ResultStore, fresh: float = FRESH) -> None:
        self._results = results
        self._fresh = fresh
        self._lock = threading.Lock()
        self._kept: Listing | None = None

    def current(self) -> Listing:
        with self._lock:
            generation, now = self._results.generation, time.monotonic()
            kept = self._kept
            if kept is not None and kept.generation == generation and now - kept.made < self._fresh:
                return kept
            with self._results.engine.connect() as connection:
                players = tuple(player_figures.players(connection))
                board = leaderboard(player_figures.leaders(connection))
            self._kept = Listing(generation, now, players, board)
            return self._kept
