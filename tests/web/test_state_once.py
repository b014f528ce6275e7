"""A game's state is built once per version for every reader (issue 9, items 4 and 5).

The answer to a change and each device's refetch of that version send the same JSON, built once;
a read of a known version loads no row and no event (one query for the version). The speed
itself is printed by ``benchmarks/load.py`` and ``benchmarks/live.py``, not asserted here.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.web.api import api


def _enter(client: TestClient, game: dict[str, Any], version: int) -> Any:
    event = {"type": "enter", "player": "Anna", "cell": "down.ones", "dice": [1, 1, 2, 3, 4]}
    body = {"event": event, "expected_version": version}
    return client.post(
        f"/api/games/{game['id']}/events", json=body, headers={"X-Kniffel-Key": game["key"]}
    )


def test_every_reader_of_a_version_gets_the_same_state_built_once(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/games", json={"variant": "rauf-runter", "players": ["Anna", "Ben"]})
    assert created.status_code == 201
    game = created.json()
    built: list[int] = []
    real_state_of = api.state_of

    def counting_state_of(view: Any) -> dict[str, Any]:
        built.append(view.version)
        return real_state_of(view)

    monkeypatch.setattr(api, "state_of", counting_state_of)
    loads: list[str] = []
    real_load = service.store.load

    def counting_load(game_id: str, **kwargs: Any) -> Any:
        loads.append(game_id)
        return real_load(game_id, **kwargs)

    monkeypatch.setattr(service.store, "load", counting_load)

    answer = _enter(client, game, 0)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 1
    reads = [client.get(f"/api/games/{game['id']}") for _ in range(3)]
    assert all(read.status_code == 200 for read in reads)
    assert all(read.content == answer.content for read in reads)
    assert reads[0].headers["content-type"] == "application/json"
    assert built == [1]  # the change's answer built it; the reads got it as it was
    assert loads == []  # the row came with the kept replay, the events were not loaded

    # The state a reader gets is the full one: after the entry, Ben is to move.
    state = reads[0].json()
    assert state["turn"]["player"] == "Ben"
    assert state["players"][0]["columns"]["down"]["cells"]["ones"] == 2

    # A refused change builds nothing and the next version is built once again.
    assert _enter(client, game, 0).status_code == 409
    assert built == [1]
    undo = client.post(
        f"/api/games/{game['id']}/events",
        json={"event": {"type": "undo"}, "expected_version": 1},
        headers={"X-Kniffel-Key": game["key"]},
    )
    assert undo.status_code == 200 and undo.json()["version"] == 2
    assert client.get(f"/api/games/{game['id']}").json()["turn"]["player"] == "Anna"
    assert built == [1, 2]
