"""The PostgreSQL path: the store, the LISTEN/NOTIFY hub, two server processes.

Runs against a throwaway server started from the installed PostgreSQL
binaries; skipped (with the reason) where they are missing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from kniffel.board.pghub import CHANNEL, PgHub, libpq_url
from kniffel.store import GameStore, NewGame, VersionConflict

from .postgres import missing
from .served import Server, next_message
from .table import enter

FREE_ROWS = ("ones", "twos", "threes", "fours", "fives", "sixes", "chance")
pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


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


def _heard_until(listening: psycopg.Connection[tuple[object, ...]], last: str) -> list[str]:
    """The payloads heard on ``listening`` up to and including ``last``."""
    heard: list[str] = []
    for notify in listening.notifies(timeout=10):
        heard.append(notify.payload)
        if notify.payload == last:
            break
    return heard


def test_the_store_announces_each_stored_event_and_nothing_else(pg_url: str) -> None:
    """The append's own transaction announces its version; a hub made for that store sends no
    second ``NOTIFY``, and a refused append announces nothing."""
    store = GameStore.open(pg_url)
    hub = PgHub(store.url, store.version, store_announces=store.announces)
    try:
        assert store.announces
        game = NewGame("pg-announce", "k", "kniffel", {"chance": True}, ("Anna",), "physical")
        store.create(game)
        with psycopg.connect(libpq_url(pg_url), autocommit=True) as listening:
            listening.execute(f"LISTEN {CHANNEL}")
            assert store.append("pg-announce", 0, {"type": "undo"}, finished=False).version == 1
            hub.publish("pg-announce", 1)  # as the board does after each append
            with pytest.raises(VersionConflict):
                store.append("pg-announce", 0, {"type": "undo"}, finished=False)
            assert store.append("pg-announce", 1, {"type": "undo"}, finished=False).version == 2
            assert _heard_until(listening, "pg-announce 2") == ["pg-announce 1", "pg-announce 2"]
    finally:
        asyncio.run(hub.stop())
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
def two_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    """Two real servers on one database: nothing shared but PostgreSQL, as two processes."""
    with Server(pg_url) as first, Server(pg_url) as second:
        assert isinstance(first.app.state.hub, PgHub)
        assert first.app.state.service is not second.app.state.service
        yield first, second


def test_a_device_on_one_server_sees_a_change_made_on_another(
    two_servers: tuple[Server, Server],
) -> None:
    first, second = two_servers
    game = first.new_game()
    with second.watch(game["id"]) as watcher:
        assert next_message(watcher) == {"type": "state", "version": 0}
        first.send(game, enter("Anna", "down.ones", "11156"))
        assert next_message(watcher) == {"type": "state", "version": 1}
    assert second.state(game) == first.state(game)


ROUNDS = 12


def test_two_servers_racing_never_store_two_events_with_one_number(
    two_servers: tuple[Server, Server],
) -> None:
    """Both servers get the same turn's entry at the same moment, round after round."""
    first, second = two_servers
    game = first.new_game()
    players = ("Anna", "Ben")
    outcomes: list[tuple[int, int]] = []
    for version in range(ROUNDS):
        player = players[version % 2]
        gate = threading.Barrier(2)
        cell = f"free.{FREE_ROWS[version // 2]}"

        def race(
            server: Server,
            event: dict[str, object],
            gate: threading.Barrier = gate,
            v: int = version,
        ) -> int:
            gate.wait(timeout=30)  # both requests leave together
            return server.post(game, event, expected_version=v).status_code

        with ThreadPoolExecutor(2) as pool:
            a = pool.submit(race, first, enter(player, cell, "66655"))
            b = pool.submit(race, second, enter(player, cell, "11111"))
            outcomes.append((a.result(timeout=60), b.result(timeout=60)))
    # Every round: exactly one of the two was stored, the other told of the conflict.
    assert all(sorted(pair) == [200, 409] for pair in outcomes), outcomes
    shown = first.state(game)
    assert shown["version"] == ROUNDS == second.state(game)["version"]


def test_a_postgresql_outage_answers_503_once_logged_and_the_board_recovers(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stops (as in a restart): requests answer 503 with Retry-After, the log gets
    one line, not a traceback per request, nor per look of the background chores (issue 33,
    item 6: 60 tracebacks in 30 s); once it is back, the board answers again and the background
    says so in one line."""
    import logging
    import os
    import subprocess
    from pathlib import Path

    from fastapi.testclient import TestClient
    from sqlalchemy import make_url

    from kniffel.settings import Settings
    from kniffel.web.app import create_app

    from .postgres import binaries, throwaway_postgres
    from .table import new_game

    folder = binaries()
    assert folder is not None
    with throwaway_postgres(folder) as url:
        with psycopg.connect(libpq_url(url), autocommit=True) as connection:
            found = connection.execute("SHOW data_directory").fetchone()
        assert found is not None
        data = str(found[0])
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        root = Path(data).parent  # throwaway_postgres's folder: its socket lives there too
        port = make_url(url).port
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off"

        def pg_ctl(*args: str) -> None:
            subprocess.run(
                [*as_user, str(folder / "pg_ctl"), "-D", data, "-w", *args],
                check=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                timeout=120,
            )

        monkeypatch.setenv("KNIFFEL_BACKGROUND", "1")
        app = create_app(Settings(db=url))
        with TestClient(app, raise_server_exceptions=False) as client:
            game = new_game(client)
            pg_ctl("-m", "immediate", "stop")
            try:
                caplog.clear()
                answers = [client.get(f"/api/games/{game['id']}/record") for _ in range(3)]
                answers += [client.get(f"/api/games/{'x' * 12}") for _ in range(2)]
                for answer in answers:
                    assert answer.status_code == 503, answer.text
                    assert answer.headers["retry-after"] == "5"
                    assert answer.json()["code"] == "database_unavailable"
                lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
                assert [r.name for r in lines if r.exc_info] == []
                assert len([r for r in lines if r.name == "kniffel.web"]) == 1
                _until_logged(caplog, "database unreachable")  # the background met it too
            finally:
                pg_ctl("-o", options, "start")
            back = None
            for _ in range(60):  # the pool drops the dead connections and opens new ones
                back = client.get(f"/api/games/{game['id']}/record")
                if back.status_code == 200:
                    break
            assert back is not None and back.status_code == 200, back.text
            _until_logged(caplog, "database answers again")
        background = [r for r in caplog.records if r.name == _BACKGROUND]
        assert [r.exc_info for r in background] == [None, None], [r.msg for r in background]


_BACKGROUND = "kniffel.board.background"


def _until_logged(caplog: pytest.LogCaptureFixture, words: str, seconds: float = 60) -> None:
    """Waits until the background thread has logged ``words`` (it looks every 2 s)."""
    import time

    deadline = time.monotonic() + seconds
    records = caplog.records
    while not any(r.name == _BACKGROUND and words in r.getMessage() for r in records):
        assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
        time.sleep(0.1)
