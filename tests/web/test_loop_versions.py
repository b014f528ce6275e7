"""On PostgreSQL a read of a kept game asks its version on the event loop, in one round trip,
and never goes stale or fails because of it (docs/decisions.md, "Versions on the loop").

Runs against a throwaway server started from the installed PostgreSQL binaries; skipped (with
the reason) where they are missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient

from kniffel.board.hub import LocalHub
from kniffel.board.pghub import libpq_url
from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.store import GameStore, VersionsUnavailable
from kniffel.store.loop_versions import LoopVersions
from kniffel.web.app import create_app

from .postgres import missing
from .table import enter, new_game, send, state

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


@pytest.fixture
def pg_client(pg_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db=pg_url))) as client:
        yield client


def _versions(client: TestClient) -> LoopVersions:
    versions = client.app.state.service.versions  # type: ignore[attr-defined]
    assert isinstance(versions, LoopVersions)
    return versions


def test_a_kept_game_is_read_on_the_loop_in_one_query(
    pg_client: TestClient, handed_over: list[str]
) -> None:
    game = new_game(pg_client)
    versions = _versions(pg_client)
    assert state(pg_client, game)["version"] == 0  # kept from here on
    handed_over.clear()
    asked = versions.asked
    for _ in range(3):
        assert state(pg_client, game)["version"] == 0
    assert handed_over == []
    assert versions.asked == asked + 3


def test_an_entry_into_a_kept_game_reads_its_version_on_the_loop(
    pg_client: TestClient, handed_over: list[str]
) -> None:
    game = new_game(pg_client)
    assert state(pg_client, game)["version"] == 0
    handed_over.clear()
    answer = send(pg_client, game, enter("Anna", "down.ones", "11156"), expected_version=0)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 1
    # Only the store's transaction leaves the loop; the entry's state is what the next read gets.
    assert handed_over == ["_change"]
    assert state(pg_client, game)["version"] == 1
    refused = send(pg_client, game, enter("Anna", "down.ones", "11156"), expected_version=0)
    assert refused.status_code == 409
    assert refused.json()["code"] == "version_conflict"


def test_changes_made_by_another_process_are_caught_up_on_the_loop(
    pg_url: str, pg_client: TestClient, handed_over: list[str]
) -> None:
    """A kept replay a few events behind is caught up with them on the loop; one far behind is
    loaded in a worker thread; both show what a full replay of the stored game shows."""
    game = new_game(pg_client)
    assert state(pg_client, game)["version"] == 0
    moves = [
        enter(player, f"free.{row}", "66655")
        for row in ("ones", "twos", "threes", "fours", "fives", "sixes")
        for player in ("Anna", "Ben")
    ]
    other_store = GameStore.open(pg_url)  # another server process on the same database
    try:
        other = GameService(other_store, LocalHub())
        for move in moves[:2]:
            other.apply(game["id"], game["key"], move)
        handed_over.clear()
        caught_up = state(pg_client, game)
        assert handed_over == []  # two events behind: caught up on the loop
        with TestClient(create_app(Settings(db=pg_url))) as fresh:  # replays all it reads
            assert caught_up == state(fresh, game)
            assert caught_up["version"] == 2
            for move in moves[2:]:
                other.apply(game["id"], game["key"], move)
            handed_over.clear()
            loaded = state(pg_client, game)
            assert handed_over == ["get"]  # ten behind: loaded in a worker thread
            assert loaded == state(fresh, game)
            assert loaded["version"] == 12
    finally:
        other_store.close()


def test_a_read_answers_when_the_loop_lost_its_connections(
    pg_url: str, pg_client: TestClient
) -> None:
    game = new_game(pg_client)
    versions = _versions(pg_client)
    assert state(pg_client, game)["version"] == 0
    opened = versions.opened
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s",
            (versions.application_name,),
        ).fetchone()
    assert ended is not None and ended[0] >= 1
    # The first read after finds its connection gone and is answered the other way ...
    assert state(pg_client, game)["version"] == 0
    send(pg_client, game, enter("Anna", "down.ones", "11156"), expected_version=0)
    # ... and the loop opens a new one for the reads after it.
    assert state(pg_client, game)["version"] == 1
    assert versions.opened > opened


def test_unknown_games_are_not_found_on_the_loop(pg_client: TestClient) -> None:
    for game_id in ("nosuchgame", "not a game id", "x" * 500):
        answer = pg_client.get(f"/api/games/{game_id}")
        assert answer.status_code == 404
        assert answer.json()["code"] == "game_not_found"


def test_the_reader_serves_only_the_loop_it_started_on(pg_url: str) -> None:
    store = GameStore.open(pg_url)
    versions = LoopVersions(store.url)

    async def start() -> None:
        await versions.start()
        assert await versions.version("nosuchgame") is None
        await versions.close()

    async def elsewhere() -> int | None:
        return await versions.version("nosuchgame")

    try:
        asyncio.run(start())
        with pytest.raises(VersionsUnavailable):
            asyncio.run(elsewhere())
    finally:
        store.close()
    with pytest.raises(ValueError, match="at least one"):
        LoopVersions(store.url, size=0)


def test_a_catch_up_reads_what_the_store_loads(pg_url: str) -> None:
    store = GameStore.open(pg_url)
    service = GameService(store, LocalHub())
    versions = LoopVersions(store.url)
    view = service.create("rauf-runter", None, ["Anna", "Ben"])
    for cell in ("down.ones", "free.chance"):
        service.apply(
            view.id, view.key, enter("Anna" if cell == "down.ones" else "Ben", cell, "11156")
        )

    async def read() -> list[object]:
        await versions.start()
        try:
            return [
                await versions.catch_up(view.id, 0),
                await versions.catch_up(view.id, 1),
                await versions.catch_up("nosuchgame", 0),
            ]
        finally:
            await versions.close()

    try:
        whole, after_one, missing_game = asyncio.run(read())
        assert whole == store.load(view.id)
        assert after_one == store.load(view.id, after=1)
        assert after_one is not None and len(after_one.events) == 1
        assert missing_game is None
    finally:
        store.close()
