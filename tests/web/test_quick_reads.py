"""On SQLite a cached game is read, and an entry checked, without a worker thread; the entry is
stored by the app's group-commit writer (docs/architecture.md, "Threads, the event loop and the
writer")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kniffel.store.group_commit import GroupCommit

from .table import enter, new_game, send


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
