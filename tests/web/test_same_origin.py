"""Changing form posts are taken from the board's own pages only (issue 9, finding 6: posts
from ``https://evil.example``, ``Origin: null`` and ``text/plain`` forms were accepted with the
key cookie)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.web.middleware.origin import CROSS_ORIGIN_MESSAGE

HOST = "testserver"  # what the test client sends as Host


def _new_page_game(client: TestClient) -> str:
    created = client.post("/games", data={"player": ["Anna", "Ben"]}, follow_redirects=False)
    assert created.status_code == 303
    return created.headers["location"].removeprefix("/g/")


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Origin": f"http://{HOST}:9000"},  # another port on the same host
        {"Origin": "https://evil.example", "Content-Type": "text/plain"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": f"http://{HOST}"},
        {"Origin": "garbage:::"},
    ],
)
def test_a_form_post_from_another_origin_is_refused_and_changes_nothing(
    client: TestClient, service: GameService, headers: dict[str, str]
) -> None:
    game_id = _new_page_game(client)  # this device holds the key cookie
    version = service.get(game_id).version
    data = {"cell": "down.ones", "dice": "11123", "version": str(version)}
    for path in ("enter", "undo", "roll", "edit", "clear"):
        answer = client.post(f"/g/{game_id}/{path}", data=data, headers=headers)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["detail"] == CROSS_ORIGIN_MESSAGE
    assert service.get(game_id).version == version
    games = len(service.list_games())
    assert client.post("/games", data={"player": ["Eve"]}, headers=headers).status_code == 403
    record = (
        b'{"format": "kniffel-record/1", "variant": "kniffel", "players": ["Eve"], "events": []}'
    )
    imported = client.post("/import", files={"record": ("r.json", record)}, headers=headers)
    assert imported.status_code == 403
    assert len(service.list_games()) == games


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": f"http://{HOST}"},
        # Behind a proxy that ends TLS the board sees https (X-Forwarded-Proto, or the
        # --public-url): tests/web/test_edges.py.
        {"Sec-Fetch-Site": "same-origin", "Origin": f"http://{HOST}"},
        {"Sec-Fetch-Site": "same-origin"},
        {},  # neither header: not a browser, no visitor's cookie to borrow
    ],
)
def test_a_form_post_from_the_boards_own_page_is_taken(
    client: TestClient, service: GameService, headers: dict[str, str]
) -> None:
    game_id = _new_page_game(client)
    data = {"cell": "down.ones", "dice": "11123", "version": "0"}
    answer = client.post(f"/g/{game_id}/enter", data=data, headers=headers, follow_redirects=False)
    assert answer.status_code == 303
    assert service.get(game_id).version == 1


def test_the_api_is_not_a_form_and_takes_its_key_from_the_header(client: TestClient) -> None:
    headers = {"Origin": "https://elsewhere.example"}
    created = client.post("/api/games", json={"players": ["Anna"]}, headers=headers)
    assert created.status_code == 201  # an app on another origin may use the API with its key
