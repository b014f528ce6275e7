"""Random legal games through the API end where the engine ends (Hypothesis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from kniffel.record import record_of, state_dict
from kniffel.rules import Game
from kniffel.settings import Settings
from kniffel.web.app import create_app
from strategies import KNIFFEL_PRESETS, board_player_lists, games, variants


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("properties") / "kniffel.db"
    with TestClient(create_app(Settings(db=f"sqlite:///{path}"))) as client:
        yield client


def _served(state: dict[str, Any], game: Game) -> dict[str, Any]:
    expected = state_dict(game)
    return {key: state[key] for key in expected}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# the board starts the Kniffel presets (Jamb and Yams: tests/web/test_family.py)
@given(game=games(variants(KNIFFEL_PRESETS), max_events=40, players=board_player_lists()))
def test_every_event_sent_one_by_one_ends_in_the_engines_state(
    board: TestClient, game: Game
) -> None:
    record = record_of(game)
    created = board.post(
        "/api/games",
        json={
            "variant": record["variant"],
            "options": record["options"],
            "players": record["players"],
        },
    ).json()
    headers = {"X-Kniffel-Key": created["key"]}
    for version, event in enumerate(record["events"]):
        response = board.post(
            f"/api/games/{created['id']}/events",
            json={"event": event, "expected_version": version},
            headers=headers,
        )
        assert response.status_code == 200, (event, response.text)
    final = board.get(f"/api/games/{created['id']}").json()
    assert final["version"] == len(record["events"])
    assert _served(final, game) == state_dict(game)
    exported = board.get(f"/api/games/{created['id']}/record").json()
    assert exported == record


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(game=games(variants(KNIFFEL_PRESETS), max_events=80, players=board_player_lists()))
def test_an_imported_record_shows_the_engines_state(board: TestClient, game: Game) -> None:
    response = board.post("/api/records", json=record_of(game))
    assert response.status_code == 201, response.text
    assert _served(response.json(), game) == state_dict(game)
