"""No route answers 5xx, whatever the input (issue 9: "No 5xx on any route for any input").

Every route of the app is called, on a real game (one with an imported bonus at the top of the
range, one with every turn played), with hostile values in every parameter the board reads.
Schemathesis covers the JSON API's bodies (tests/web/test_schemathesis.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Route

from kniffel.board import limits
from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.web.app import create_app

HOSTILE = ["²", "1" * 5000, "-1", "99999999999999999999", "\x00", "%ff", "6665x", "", "ä" * 300]
PARAMS = ["dice", "points", "lang", "rolls", "top", "turn", "seat", "player", "cell", "v", "key"]
FIELDS = ["player", "cell", "dice", "points", "version", "keep", "variant", "dice_mode",
          "kniffel_bonus", "house_rules", "joker", "pasch", "key", "seat"]  # fmt: skip


@pytest.fixture
def loose(db_url: str) -> Iterator[TestClient]:
    """A client that gets a server error as an answer instead of an exception."""
    with TestClient(create_app(Settings(db=db_url)), raise_server_exceptions=False) as client:
        yield client


def _games(service: GameService) -> list[str]:
    high = service.import_record(
        {
            "format": "kniffel-record/1",
            "variant": "yahtzee",
            "options": {"kniffel_bonus": limits.MAX_KNIFFEL_BONUS},
            "players": ["Anna", "Ben"],
            "events": [
                {"type": "enter", "player": "Anna", "cell": "kniffel", "dice": [6] * 5},
                {"type": "enter", "player": "Ben", "cell": "chance", "dice": [1, 2, 3, 4, 6]},
                {"type": "enter", "player": "Anna", "cell": "sixes", "dice": [6] * 5},
            ],
        }
    )
    virtual = service.create("kniffel", {}, ["Anna"], "virtual")
    return [high.id, virtual.id]


def _paths(client: TestClient) -> list[tuple[str, str]]:
    routes = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, (APIRoute, Route)) and route.methods:
            for method in sorted(route.methods - {"HEAD"}):
                routes.append((method, route.path))
    return routes


def test_no_route_answers_5xx_to_hostile_input(loose: TestClient) -> None:
    service: GameService = loose.app.state.service  # type: ignore[attr-defined]
    game_ids = _games(service)
    failures = []
    for method, template in _paths(loose):
        for game_id in [*game_ids, "nope", "x" * 500]:
            path = re.sub(r"\{game_id\}", game_id, template)
            path = re.sub(r"\{[^}]+\}", "1", path)
            for value in HOSTILE:
                if method == "GET":
                    answer = loose.get(path, params=dict.fromkeys(PARAMS, value))
                else:
                    answer = loose.request(method, path, data=dict.fromkeys(FIELDS, value))
                if answer.status_code >= 500:
                    failures.append(f"{method} {path} {value[:10]!r}: {answer.status_code}")
    assert failures == []
