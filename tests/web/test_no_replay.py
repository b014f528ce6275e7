"""Reads replay nothing they need not: lists come from the summary columns, games from the cache."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.record import replay as real_replay

from .table import enter, new_game, send


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every replay the service makes, counted by patching the function it calls."""
    counted: list[str] = []
    module = sys.modules[GameService.__module__]
    original: Callable[..., Any] = module.replay  # type: ignore[attr-defined]
    assert original is real_replay

    def counting(record: Any, *args: Any, **kwargs: Any) -> Any:
        counted.append(record.variant)
        return original(record, *args, **kwargs)

    monkeypatch.setattr(module, "replay", counting)
    return counted


def _fresh_service(client: TestClient) -> GameService:
    """The app's service with an empty replay cache, as after a restart."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    service.replays = type(service.replays)()
    return service


def _finished_one_player_game(client: TestClient) -> dict[str, Any]:
    game = new_game(client, variant="kniffel", players=["Solo"])
    cells = [
        ("ones", "11111"), ("twos", "22222"), ("threes", "33333"), ("fours", "44444"),
        ("fives", "55555"), ("sixes", "66666"), ("three_kind", "66655"),
        ("four_kind", "66665"), ("full_house", "66655"), ("small_straight", "12346"),
        ("large_straight", "23456"), ("kniffel", "11111"), ("chance", "66666"),
    ]  # fmt: skip
    for cell, dice in cells:
        answer = send(client, game, enter("Solo", cell, dice))
        assert answer.status_code == 200, answer.text
    return game


def test_the_start_page_with_several_games_replays_none(
    client: TestClient, replays: list[str]
) -> None:
    games = [new_game(client) for _ in range(4)]
    for game in games:
        assert send(client, game, enter("Anna", "down.ones", "11156")).status_code == 200
    finished = _finished_one_player_game(client)
    _fresh_service(client)
    replays.clear()
    page = client.get("/")
    assert page.status_code == 200
    assert replays == []
    # What the lists show still comes through: the turns and the winner.
    assert "Gewinner: Solo" in page.text
    assert page.text.count("Runde 1 von 39") == 4
    assert client.get("/api/games").status_code == 200
    assert replays == []
    assert finished["id"] in page.text


def test_the_api_list_carries_the_summary_of_each_game(client: TestClient) -> None:
    game = new_game(client)
    send(client, game, enter("Anna", "down.ones", "11156"))
    send(client, game, enter("Ben", "up.chance", "66655"))
    finished = _finished_one_player_game(client)
    listed = {entry["id"]: entry for entry in client.get("/api/games").json()}
    assert listed[game["id"]]["turns"] == 2
    assert listed[game["id"]]["totals"] == [3, 28]
    assert listed[game["id"]]["winners"] == []
    solo = client.get(f"/api/games/{finished['id']}").json()
    assert listed[finished["id"]]["finished"] is True
    assert listed[finished["id"]]["totals"] == [solo["players"][0]["total"]]
    assert listed[finished["id"]]["winners"] == ["Solo"]


def test_a_game_is_replayed_once_per_version_and_a_change_extends_the_kept_replay(
    client: TestClient, replays: list[str]
) -> None:
    game = new_game(client)
    send(client, game, enter("Anna", "down.ones", "11156"))
    _fresh_service(client)
    replays.clear()
    first = client.get(f"/api/games/{game['id']}").json()
    assert replays == ["rauf-runter"]
    assert client.get(f"/api/games/{game['id']}").json() == first
    assert client.get(f"/g/{game['id']}").status_code == 200
    assert len(replays) == 1
    changed = send(client, game, enter("Ben", "down.ones", "11123"))
    assert changed.status_code == 200
    assert client.get(f"/api/games/{game['id']}").json() == changed.json()
    assert len(replays) == 1


def test_a_refused_change_leaves_the_kept_replay_as_it_was(client: TestClient) -> None:
    game = new_game(client)
    before = client.get(f"/api/games/{game['id']}").json()
    refused = send(client, game, enter("Ben", "down.ones", "11123"))  # Anna is to move
    assert refused.status_code == 400
    assert client.get(f"/api/games/{game['id']}").json() == before
    assert send(client, game, enter("Anna", "down.ones", "11156")).status_code == 200
