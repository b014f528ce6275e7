"""Opening the board's store and what runs beside it, and closing them in order.

The web app's lifespan asks :func:`open_board` for the store (migrated), the hub that carries
changes to every device (across processes on PostgreSQL), the writer thread of SQLite's group
commit and PostgreSQL's reader of versions on the event loop, and the :class:`GameService`
made of them; :meth:`OpenBoard.close` stops them in the opposite order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from anyio import to_thread

from kniffel.board.hub import Hub, LocalHub
from kniffel.board.service import BotDriver, GameService
from kniffel.store import GameStore
from kniffel.store.group_commit import GroupCommit

if TYPE_CHECKING:
    from kniffel.store.loop_versions import LoopVersions

__all__ = ["OpenBoard", "hub_for", "loop_versions_for", "open_board"]


def hub_for(store: GameStore) -> Hub:
    """The hub that fits the store: PostgreSQL carries changes between processes."""
    if store.dialect == "postgresql":
        from kniffel.board.pghub import PgHub

        return PgHub(store.url, store.version, store_announces=store.announces)
    return LocalHub()


async def loop_versions_for(store: GameStore) -> LoopVersions | None:
    """PostgreSQL: a reader of versions on the event loop, started on the running one (its
    query is a network round trip, which SQLite's is not)."""
    if store.dialect != "postgresql":
        return None
    from kniffel.store.loop_versions import LoopVersions

    versions = LoopVersions(store.url)
    await versions.start()
    return versions


@dataclass(frozen=True, slots=True)
class OpenBoard:
    """The store and what runs beside it, open; :meth:`close` once."""

    store: GameStore
    hub: Hub
    service: GameService
    writer: GroupCommit | None
    versions: LoopVersions | None

    def reachable(self) -> bool:
        """Whether the database answers now (``GET /healthz``)."""
        return self.store.reachable()

    async def close(self) -> None:
        if self.writer is not None:
            await to_thread.run_sync(self.writer.close)
        await self.hub.stop()
        if self.versions is not None:
            await self.versions.close()
        self.store.close()


async def open_board(db: str, bots: BotDriver) -> OpenBoard:
    """Opens (and migrates) the store at ``db`` and starts the hub, the writer and the
    version reader; the service's bots move through ``bots``."""
    store = await to_thread.run_sync(GameStore.open, db)
    hub = hub_for(store)
    await hub.start()
    # SQLite: one writer thread stores the board's changes, many to a commit (group commit).
    writer = GroupCommit(store) if store.dialect == "sqlite" else None
    versions = await loop_versions_for(store)
    service = GameService(store, hub, bots, writer=writer, versions=versions)
    return OpenBoard(store, hub, service, writer, versions)
