"""The live hub: who is watching which game, and telling them its new version.

The hub carries ``(game_id, version)``: the store is the truth, and a client that hears of a
newer version fetches the game again. Two other news go the same way: a Revanche,
``(game_id, revanche_id)``, takes the watchers of a finished game to the game that follows it
(docs/board.md, "Revanche"), and ``(game_id, TABLES)`` says that the solver tables the game's
Tipp waited for are built, so that a Tipp panel that waits asks again at once (docs/board.md,
"Tipp"). That keeps the hub replaceable: :class:`LocalHub` fans out inside one process; a hub
for several processes (:class:`kniffel.board.pghub.PgHub`) only has to carry the same pairs
between them and hand them to a local fan-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from enum import Enum
from typing import Final, Protocol

__all__ = ["TABLES", "Hub", "LocalHub", "News", "Subscription"]


class _Tables(Enum):
    READY = "tables"


#: The news that a game's solver tables are built (:meth:`Subscription.next_news`).
TABLES: Final = _Tables.READY
#: What a watcher hears: a version (``int``), the game's Revanche (its id, a ``str``), or
#: :data:`TABLES`.
News = int | str | _Tables


class Subscription:
    """One watcher of one game: waits for versions newer than it has seen.

    Versions arriving in a burst are merged; only the newest matters because
    the client refetches the whole game.
    """

    def __init__(self, game_id: str, loop: asyncio.AbstractEventLoop) -> None:
        self.game_id = game_id
        self._loop = loop
        self._latest = -1
        self._seen = -1
        self._wake = asyncio.Event()
        #: The game's Revanche, once heard, until it is handed out by :meth:`next_news`; heard
        #: twice (from this process and back through PostgreSQL), it is handed out once.
        self._revanche: str | None = None
        self._heard: str | None = None
        #: The game's tables were built since the last news handed out.
        self._tables = False

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the watcher waits in."""
        return self._loop

    def offer(self, version: int) -> None:
        """Hand over a version; safe to call from any thread."""
        with contextlib.suppress(RuntimeError):  # the watcher's loop has closed
            self._loop.call_soon_threadsafe(self._deliver, version)

    def _deliver(self, version: int) -> None:
        if version > self._latest:
            self._latest = version
            self._wake.set()

    def offer_revanche(self, revanche: str) -> None:
        """Hand over the game's Revanche; safe to call from any thread."""
        with contextlib.suppress(RuntimeError):  # the watcher's loop has closed
            self._loop.call_soon_threadsafe(self._deliver_revanche, revanche)

    def _deliver_revanche(self, revanche: str) -> None:
        if revanche != self._heard:
            self._heard = self._revanche = revanche
            self._wake.set()

    def offer_tables(self) -> None:
        """Hand over that the game's tables are built; safe to call from any thread."""
        with contextlib.suppress(RuntimeError):  # the watcher's loop has closed
            self._loop.call_soon_threadsafe(self._deliver_tables)

    def _deliver_tables(self) -> None:
        self._tables = True
        self._wake.set()

    def mark_seen(self, version: int) -> None:
        """The watcher already knows ``version`` (e.g. sent it on connect)."""
        self._seen = max(self._seen, version)

    async def next_version(self) -> int:
        """Wait for a version newer than every one seen so far."""
        while self._latest <= self._seen:
            self._wake.clear()
            await self._wake.wait()
        self._seen = self._latest
        return self._latest

    async def next_news(self) -> News:
        """Wait for a version newer than every one seen so far (an ``int``), the game's
        Revanche (its id, a ``str``; handed out once) or :data:`TABLES` (once for the tables
        built since the last news)."""
        while self._latest <= self._seen and self._revanche is None and not self._tables:
            self._wake.clear()
            await self._wake.wait()
        if self._revanche is not None:
            revanche, self._revanche = self._revanche, None
            return revanche
        if self._tables and self._latest <= self._seen:
            self._tables = False
            return TABLES
        self._seen = self._latest
        return self._latest


def _deliver_all(subscriptions: list[Subscription], version: int) -> None:
    for subscription in subscriptions:
        subscription._deliver(version)


class Hub(Protocol):
    """Tells the watchers of a game that it has a new version."""

    def publish(self, game_id: str, version: int) -> None:
        """Called (from any thread) after the version was committed to the store."""

    def revanche(self, game_id: str, revanche: str) -> None:
        """Called (from any thread) after the Revanche ``revanche`` of the finished game
        ``game_id`` was committed to the store."""

    def tables(self, game_id: str) -> None:
        """Called (from any thread) when the solver tables ``game_id``'s Tipp waited for are
        built (:class:`kniffel.board.tables.TableReadiness`)."""

    def subscribe(self, game_id: str) -> AbstractAsyncContextManager[Subscription]:
        """Watch ``game_id`` for as long as the context is open."""

    async def start(self) -> None:
        """Connect whatever the hub needs (called once by the app's lifespan)."""

    async def stop(self) -> None:
        """Release it again."""


class LocalHub:
    """A hub for one server process: subscriptions in memory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Subscription]] = {}

    def _watching(self, game_id: str) -> list[Subscription]:
        with self._lock:
            return list(self._watchers.get(game_id, ()))

    def publish(self, game_id: str, version: int) -> None:
        watchers = self._watching(game_id)
        # One wake-up of each event loop for all its watchers of the game, not one per watcher.
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for subscription in watchers:
            by_loop.setdefault(subscription.loop, []).append(subscription)
        for loop, subscriptions in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_deliver_all, subscriptions, version)

    def revanche(self, game_id: str, revanche: str) -> None:
        for subscription in self._watching(game_id):
            subscription.offer_revanche(revanche)

    def tables(self, game_id: str) -> None:
        for subscription in self._watching(game_id):
            subscription.offer_tables()

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        subscription = Subscription(game_id, asyncio.get_running_loop())
        with self._lock:
            self._watchers.setdefault(game_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            with self._lock:
                watchers = self._watchers.get(game_id)
                if watchers is not None:
                    watchers.discard(subscription)
                    if not watchers:
                        del self._watchers[game_id]

    def watched_games(self) -> list[str]:
        with self._lock:
            return list(self._watchers)

    def watcher_count(self, game_id: str) -> int:
        with self._lock:
            return len(self._watchers.get(game_id, ()))

    def watcher_total(self) -> int:
        """Every subscription of this process (the open live sockets)."""
        with self._lock:
            return sum(len(watchers) for watchers in self._watchers.values())

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None
