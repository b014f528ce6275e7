"""The PostgreSQL path: the store, the LISTEN/NOTIFY hub, two server processes.

Runs against a throwaway server started from the installed PostgreSQL
binaries; skipped (with the reason) where they are missing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from kniffel.board.pghub import PgHub, libpq_url
from kniffel.settings import Settings
from kniffel.store import GameStore, NewGame, VersionConflict
from kniffel.web.app import create_app

from .postgres import binaries, missing, throwaway_postgres
from .table import enter, new_game, send, state

BIN = binaries()
pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    assert BIN is not None
    with throwaway_postgres(BIN) as url:
        yield url


def test_the_store_works_on_postgresql(pg_url: str) -> None:
    store = GameStore.open(pg_url)
    try:
        assert store.dialect == "postgresql"
        game = NewGame("pg-store", "k", "kniffel", {"chance": True}, ("Anna",), "physical")
        store.create(game, [{"type": "undo"}])
        assert store.append("pg-store", 1, {"type": "undo"}, finished=True).version == 2
        with pytest.raises(VersionConflict):
            store.append("pg-store", 1, {"type": "undo"}, finished=True)
        loaded = store.load("pg-store")
        assert loaded is not None
        assert loaded.events == ({"type": "undo"}, {"type": "undo"})
        assert loaded.finished is True
        assert [s.id for s in store.summaries(finished=True)] == ["pg-store"]
    finally:
        store.close()


async def _across_hubs(pg_url: str) -> list[int]:
    sender, listener = PgHub(pg_url), PgHub(pg_url)
    await sender.start()
    await listener.start()
    try:
        async with listener.subscribe("g-hub") as subscription:
            sender.publish("g-other", 9)
            sender.publish("g-hub", 1)
            sender.publish("g-hub", 2)
            heard = [await asyncio.wait_for(subscription.next_version(), timeout=5)]
            while heard[-1] < 2:
                heard.append(await asyncio.wait_for(subscription.next_version(), timeout=5))
            return heard
    finally:
        await sender.stop()
        await listener.stop()


def test_a_change_announced_by_one_process_reaches_another(pg_url: str) -> None:
    heard = asyncio.run(_across_hubs(pg_url))
    assert heard[-1] == 2 and heard == sorted(set(heard))


async def _after_an_outage(pg_url: str) -> int:
    stored = {"g-outage": 0}
    listener = PgHub(pg_url, stored.get)
    await listener.start()
    try:
        async with listener.subscribe("g-outage") as subscription:
            with psycopg.connect(libpq_url(pg_url), autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s",
                    (listener.listener_name,),
                )
            # A change stored while the listener is away: its NOTIFY never arrives,
            # so only the catch-up after reconnecting can bring version 5.
            stored["g-outage"] = 5
            return await asyncio.wait_for(subscription.next_version(), timeout=10)
    finally:
        await listener.stop()


def test_after_losing_its_connection_a_hub_catches_up_from_the_store(pg_url: str) -> None:
    assert asyncio.run(_after_an_outage(pg_url)) == 5


@pytest.fixture(scope="module")
def two_servers(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one database: nothing shared but PostgreSQL, as two processes."""
    with (
        TestClient(create_app(Settings(db=pg_url))) as first,
        TestClient(create_app(Settings(db=pg_url))) as second,
    ):
        assert isinstance(first.app.state.hub, PgHub)  # type: ignore[attr-defined]
        yield first, second


def _next(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.receive_text())
    return message


def test_a_device_on_one_server_sees_a_change_made_on_another(
    two_servers: tuple[TestClient, TestClient],
) -> None:
    first, second = two_servers
    game = new_game(first)
    with second.websocket_connect(f"/api/games/{game['id']}/live") as watcher:
        assert _next(watcher) == {"type": "state", "version": 0}
        assert send(first, game, enter("Anna", "down.ones", "11156")).status_code == 200
        assert _next(watcher) == {"type": "state", "version": 1}
    assert state(second, game) == state(first, game)


def test_two_servers_never_store_two_events_with_one_number(
    two_servers: tuple[TestClient, TestClient],
) -> None:
    first, second = two_servers
    game = new_game(first)
    assert send(first, game, enter("Anna", "down.ones", "11156"), expected_version=0).is_success
    late = send(second, game, enter("Anna", "up.chance", "66655"), expected_version=0)
    assert late.status_code == 409
    assert state(second, game)["version"] == 1
