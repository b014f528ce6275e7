"""A hub for several server processes on one PostgreSQL database.

Every process keeps a :class:`~kniffel.board.hub.LocalHub` for its own
watchers. A stored change is announced on the channel ``kniffel_games`` and
every process LISTENs on its own autocommit connection, handing what it
hears to its local hub. The payload is ``"<game id> <version>"``: the store
stays the truth and a missed notification costs only a refetch. A Revanche is
announced as ``"<game id> revanche:<revanche id>"`` (a release that does not know
it reads no version there and ignores it), and a game's solver tables built as
``"<game id> tables"`` (ignored the same way). The store
announces each append inside its own transaction
(:data:`kniffel.store.repository.CHANNEL`); a hub made for such a store
(``store_announces``) only tells its own process's watchers at once, and
one made without it sends the ``NOTIFY`` itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable

import psycopg

from kniffel.board.hub import LocalHub, Subscription
from kniffel.store.database import libpq_url
from kniffel.store.repository import CHANNEL

__all__ = ["CHANNEL", "PgHub", "libpq_url"]

_RETRY_SECONDS = 1.0
#: How a Revanche's announcement marks the new game's id (in place of a version).
_REVANCHE = "revanche:"
#: How the announcement that a game's tables are built reads (in place of a version).
_TABLES = "tables"
_log = logging.getLogger(__name__)


class PgHub:
    """LISTEN/NOTIFY between processes, a local fan-out inside each."""

    def __init__(
        self,
        url: str,
        versions: Callable[[str], int | None] | None = None,
        *,
        store_announces: bool = False,
    ) -> None:
        self._dsn = libpq_url(url)
        self._versions = versions
        self._store_announces = store_announces
        self._local = LocalHub()
        self._lock = threading.Lock()
        self._sender: psycopg.Connection[tuple[object, ...]] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        #: The listening connection's ``application_name`` (to find it in pg_stat_activity).
        self.listener_name = f"kniffel-listen-{secrets.token_hex(4)}"

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen())
        # Wait until LISTEN runs, so no change right after start is missed.
        await asyncio.wait_for(self._listening.wait(), timeout=30)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        with self._lock:
            if self._sender is not None:
                self._sender.close()
                self._sender = None

    def watcher_total(self) -> int:
        """Every subscription of this process (the open live sockets)."""
        return self._local.watcher_total()

    def publish(self, game_id: str, version: int) -> None:
        # Watchers in this process hear it at once; the others through NOTIFY, which the
        # store's transaction has sent already when it announces.
        self._local.publish(game_id, version)
        if self._store_announces:
            return
        self._notify(f"{game_id} {version}", f"version {version} of {game_id}")

    def revanche(self, game_id: str, revanche: str) -> None:
        self._local.revanche(game_id, revanche)
        self._notify(f"{game_id} {_REVANCHE}{revanche}", f"the Revanche of {game_id}")

    def tables(self, game_id: str) -> None:
        # Built here, into the cache the processes share: every process's watchers hear it
        # (a release that does not know the word ignores it, as it ignores a Revanche).
        self._local.tables(game_id)
        self._notify(f"{game_id} {_TABLES}", f"the tables of {game_id}")

    def _notify(self, payload: str, what: str) -> None:
        """NOTIFY ``payload``: on one fresh connection again if it fails, then give up (the
        change is stored, and a watcher catches up on its next message)."""
        with self._lock:
            try:
                self._send(payload)
            except psycopg.OperationalError:
                self._close_sender()
                try:
                    self._send(payload)
                except psycopg.OperationalError:
                    _log.warning("could not announce %s", what)
                    self._close_sender()

    def _send(self, payload: str) -> None:
        if self._sender is None or self._sender.closed:
            self._sender = psycopg.connect(self._dsn, autocommit=True)
        self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    def _close_sender(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(psycopg.Error):
                self._sender.close()
            self._sender = None

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        async with self._local.subscribe(game_id) as subscription:
            yield subscription

    async def _listen(self) -> None:
        reconnected = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._dsn, autocommit=True, application_name=self.listener_name
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if reconnected:
                        self._catch_up()
                    async for notify in connection.notifies():
                        self._heard(notify.payload)
            except psycopg.Error as exc:
                _log.warning("LISTEN connection lost (%s); reconnecting", exc)
                reconnected = True
                await asyncio.sleep(_RETRY_SECONDS)

    def _heard(self, payload: str) -> None:
        game_id, _, version = payload.rpartition(" ")
        if game_id and version.startswith(_REVANCHE):
            self._local.revanche(game_id, version.removeprefix(_REVANCHE))
        elif game_id and version == _TABLES:
            self._local.tables(game_id)
        elif game_id and version.isdigit():
            self._local.publish(game_id, int(version))

    def _catch_up(self) -> None:
        """After an outage, tell every local watcher the stored version of its game."""
        if self._versions is None:
            return
        for game_id in self._local.watched_games():
            version = self._versions(game_id)
            if version is not None:
                self._local.publish(game_id, version)
