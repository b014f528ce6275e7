"""A game's version asked on the event loop, for PostgreSQL (docs/decisions.md, "Versions on the
loop").

Every read of the board asks the game's version first and answers from the kept replay of that
version (docs/architecture.md). On SQLite that query reads a local file and runs on the event
loop. On PostgreSQL it is a network round trip, and through SQLAlchemy's pool in a worker thread
it took three of them (the pool's ping, the query, the rollback when the connection went back)
and two thread switches, for every read of every watcher. Here a few autocommit connections of
psycopg's asyncio API ask it in one round trip, without leaving the loop. A kept replay a few
events behind (they were stored through another process) is caught up the same way: the game's
row and its newer events in one statement (:meth:`LoopVersions.catch_up`).

Nothing here is the truth of a game: a connection that fails is dropped and the read raises
:class:`VersionsUnavailable`, and the caller takes its worker-thread path, which answers as it
always did (its pool reconnects, or the usual error is answered).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import psycopg
from psycopg.rows import dict_row
from sqlalchemy.dialects import postgresql

from kniffel.store.database import libpq_url
from kniffel.store.repository import (
    VERSION_QUERY,
    StoredGame,
    VersionsUnavailable,
    stored_from_row,
)

__all__ = ["DEFAULT_CONNECTIONS", "LoopVersions", "VersionsUnavailable"]

#: Connections that ask at once (a query takes a fraction of a millisecond).
DEFAULT_CONNECTIONS = 4
_CONNECT_TIMEOUT = 5

_QUERY = str(VERSION_QUERY.compile(dialect=postgresql.psycopg.dialect()))  # type: ignore[no-untyped-call]

#: A game's row and its events after ``after`` up to the row's own version, in one statement
#: (one snapshot: events are never changed once stored, and the row moves on with them).
_CATCH_UP = """
SELECT games.*, (
    SELECT json_agg(events.payload ORDER BY events.seq) FROM events
    WHERE events.game_id = games.id AND events.seq > %(after)s AND events.seq <= games.version
) AS new_events
FROM games WHERE games.id = %(game_id)s
"""


class LoopVersions:
    """Game versions from PostgreSQL on one event loop, over at most ``size`` connections."""

    def __init__(self, url: str, size: int = DEFAULT_CONNECTIONS) -> None:
        if size < 1:
            raise ValueError("at least one connection is needed")
        self._dsn = libpq_url(url)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots = asyncio.Semaphore(size)
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._closing: set[asyncio.Task[None]] = set()
        #: Queries asked, and connections opened, since start (the tests read them).
        self.asked = 0
        self.opened = 0
        #: The connections' ``application_name`` (to find them in pg_stat_activity).
        self.application_name = f"kniffel-versions-{secrets.token_hex(4)}"

    async def start(self) -> None:
        """Serve the running loop (the server's); a read from any other loop is not served."""
        self._loop = asyncio.get_running_loop()

    async def close(self) -> None:
        self._loop = None
        idle, self._idle = self._idle, []
        for connection in idle:
            await connection.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    async def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, ``None`` when there is no such game; raises
        :class:`VersionsUnavailable` when it cannot be asked here now."""
        found = await self._fetch_one(_QUERY, {"game_id": game_id})
        return None if found is None else int(found["version"])

    async def catch_up(self, game_id: str, after: int) -> StoredGame | None:
        """The game's row with its events after version ``after`` (``None``: no such game);
        raises :class:`VersionsUnavailable` like :meth:`version`."""
        found = await self._fetch_one(_CATCH_UP, {"game_id": game_id, "after": after})
        if found is None:
            return None
        events = found.pop("new_events") or []
        return stored_from_row(found, events)

    async def _fetch_one(self, query: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if self._loop is None or asyncio.get_running_loop() is not self._loop:
            raise VersionsUnavailable("not started on this event loop")
        async with self._slots:
            connection = self._idle.pop() if self._idle else await self._connect()
            try:
                cursor = connection.cursor(row_factory=dict_row)
                await cursor.execute(query, params)
                found = await cursor.fetchone()
            except psycopg.Error as exc:
                self._drop(connection)
                raise VersionsUnavailable(str(exc)) from exc
            except BaseException:
                # Cancelled in the middle of a query: the connection's state is unknown.
                self._drop(connection)
                raise
            self.asked += 1
            self._idle.append(connection)
        return found

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        try:
            connection = await psycopg.AsyncConnection.connect(
                self._dsn,
                autocommit=True,
                connect_timeout=_CONNECT_TIMEOUT,
                application_name=self.application_name,
            )
        except psycopg.Error as exc:
            raise VersionsUnavailable(str(exc)) from exc
        self.opened += 1
        return connection

    def _drop(self, connection: psycopg.AsyncConnection[Any]) -> None:
        task = asyncio.get_running_loop().create_task(connection.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
