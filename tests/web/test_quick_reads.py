"""On SQLite a cached game is read, and an entry checked, without a worker thread; the entry is
stored by the app's group-commit writer (docs/architecture.md, "Threads, the event loop and the
writer")."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from anyio import to_thread
from fastapi.testclient import TestClient

from kniffel.store.group_commit import GroupCommit

from .table import enter, new_game, send


@pytest.fixture
def handed_over(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions handed to a worker thread (anyio's, which Starlette's
    ``run_in_threadpool`` and FastAPI's plain ``def`` handlers and dependencies use)."""
    names: list[str] = []
    original = to_thread.run_sync

    async def counting(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        named = function.func if isinstance(function, functools.partial) else function
        names.append(getattr(named, "__name__", repr(named)))
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(to_thread, "run_sync", counting)
    return names


def test_reading_a_cached_game_and_entering_into_it_take_no_worker_thread(
    client: TestClient, handed_over: list[str]
) -> None:
    game = new_game(client)
    path = f"/api/games/{game['id']}"
    assert client.get(path).status_code == 200  # cached from here on
    handed_over.clear()
    assert client.get(path).status_code == 200
    assert client.get(f"{path}/preview", params={"dice": "11156"}).status_code == 200
    answer = send(client, game, enter("Anna", "down.ones", "11156"), expected_version=0)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 1
    assert handed_over == []
    writer = client.app.state.service.writer  # type: ignore[attr-defined]
    assert isinstance(writer, GroupCommit)
    assert writer.stored == 1
    # The entry's state is what the next read gets.
    assert client.get(path).json()["version"] == 1


def test_a_game_not_in_the_cache_is_loaded_in_a_worker_thread(
    client: TestClient, handed_over: list[str]
) -> None:
    game = new_game(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    service.replays = type(service.replays)()  # as after a restart
    handed_over.clear()
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0
    assert handed_over == ["get"]
