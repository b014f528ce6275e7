"""The Revanche on PostgreSQL: one game however many ask at once, the evening's queries, and
the Revanche announced to another process's watchers (docs/board.md, "Revanche").

Runs against a throwaway server started from the installed PostgreSQL binaries; skipped (with
the reason) where they are missing.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from kniffel.board.hub import LocalHub
from kniffel.board.pghub import PgHub
from kniffel.board.service import GameService
from kniffel.store import GameStore
from kniffel.store.results import ResultStore

from .postgres import missing
from .test_revanche import finished_game, play_game

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


def test_the_revanche_and_the_evening_on_postgresql(pg_url: str) -> None:
    store = GameStore.open(pg_url)
    service = GameService(store, LocalHub())
    try:
        first = finished_game(service)
        with ThreadPoolExecutor(4) as pool:
            started = set(pool.map(lambda _: service.revanche(first.id, first.key).id, range(8)))
        assert len(started) == 1
        second = service.get(started.pop())
        assert second.players == ("Ben", "Cem", "Anna")
        play_game(service, second, "Ben")
        evening, revanche = service.evening(second.id)
        assert revanche is None and evening is not None and evening.games == 2
        ResultStore(store.engine).sync()
        assert [e.id for e in service.evenings_of(" CEM ")] == [first.id]
    finally:
        store.close()


def test_a_revanche_reaches_the_watchers_of_another_process(pg_url: str) -> None:
    async def hear() -> int | str:
        listening = PgHub(pg_url)
        telling = PgHub(pg_url)  # another server process on the same database
        await listening.start()
        try:
            async with listening.subscribe("old") as subscription:
                telling.revanche("old", "new")
                return await asyncio.wait_for(subscription.next_news(), timeout=10)
        finally:
            await listening.stop()
            await telling.stop()

    assert asyncio.run(hear()) == "new"
