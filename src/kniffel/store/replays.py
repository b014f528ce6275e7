"""A bounded in-memory cache of replayed games, keyed by game id and version.

A game's state at a version never changes (events are only appended), so the
replay at ``(id, version)`` can be kept and handed out again: a read of a long
game costs one primary-key lookup of its row instead of loading and replaying
every event. The cache is bounded by the number of games and by the events
they hold together (a replay's memory grows with its event log); the least
recently used go first, and a game's newer version replaces its older one.
About 560 bytes per event (replay and payloads, measured with tracemalloc),
so the default bound of 200,000 events keeps a process's cache near 110 MB
at most. One cache per process; several processes each keep their own, which is
correct because the key includes the stored version. A process whose kept replay is behind (another
process stored a change) catches it up with the newer events only (``GameService._state``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kniffel.kept import Kept
from kniffel.rules import Game

if TYPE_CHECKING:
    from kniffel.store.repository import StoredGame

__all__ = ["CachedReplay", "ReplayCache"]


@dataclass(frozen=True, slots=True)
class CachedReplay:
    """A replay and the stored events it was made of. Callers must not change ``game``.

    ``row`` is the game's row at that version (without events): the row changes only with the
    version, so a read that found the version finds the row here too.
    """

    game: Game
    events: tuple[dict[str, Any], ...]
    row: StoredGame | None = None


class ReplayCache:
    """Least-recently-used replays, at most ``max_games`` holding at most ``max_events``
    (a :class:`~kniffel.kept.Kept` weighed by events), one version per game."""

    def __init__(self, max_games: int = 1024, max_events: int = 200_000) -> None:
        if max_games < 0 or max_events < 0:
            raise ValueError("cache bounds cannot be negative")
        self.max_games = max_games
        self.max_events = max_events
        self._kept: Kept[tuple[str, int], CachedReplay] = Kept(
            max_games, weight=_weight, max_weight=max_events
        )
        #: Each game's kept version; one the store has let go is forgotten when next asked.
        self._version: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> CachedReplay | None:
        return self._kept.find((game_id, version))

    def latest(self, game_id: str) -> tuple[int, CachedReplay] | None:
        """The game's newest kept replay and its version, whatever the version (``None``: none
        kept): a replay a few events behind is caught up by applying only those events."""
        with self._lock:
            version = self._version.get(game_id)
            if version is None:
                return None
            found = self._kept.peek((game_id, version))
            if found is None:  # it went out as the least recently used
                del self._version[game_id]
                return None
            return version, found

    def put(self, game_id: str, version: int, replay: CachedReplay) -> None:
        with self._lock:
            cached = self._version.get(game_id)
            if cached is not None and (game_id, cached) in self._kept:
                if cached > version:
                    return  # a newer state is kept already
                self._kept.pop((game_id, cached))
            self._version.pop(game_id, None)
            for (dropped, _), _replay in self._kept.put((game_id, version), replay):
                self._version.pop(dropped, None)
            if (game_id, version) in self._kept:
                self._version[game_id] = version

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def events(self) -> int:
        """The events the cached replays hold together."""
        return self._kept.weight

    @property
    def hits(self) -> int:
        """Reads of a version answered from a kept replay."""
        return self._kept.hits

    @property
    def misses(self) -> int:
        """Reads of a version that found none kept."""
        return self._kept.misses


def _weight(replay: CachedReplay) -> int:
    return max(1, len(replay.events))
