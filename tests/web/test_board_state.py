"""The page's state belongs to the game version and the player (issue 8), without a browser.

The browser side of the same rules is in ``tests/e2e/test_board_state.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService

HX = {"HX-Request": "true"}


def new_game(client: TestClient, *players: str) -> str:
    data: dict[str, Any] = {"variant": "rauf-runter", "player": list(players)}
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    return location.removeprefix("/g/")


def previews(html: str) -> int:
    return html.count('class="preview')


def test_a_refused_correction_is_not_drawn_as_typed_points(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    entry = {"cell": "free.sixes", "dice": "66612", "version": "0"}
    client.post(f"/g/{game_id}/enter", data=entry, headers=HX)
    # Ben is to move; seven points into Anna's Sechser is refused ...
    bad = client.post(
        f"/g/{game_id}/edit",
        data={"player": "Anna", "cell": "free.sixes", "points": "7", "version": "1"},
        headers=HX,
    )
    assert bad.status_code == 422 and "nicht möglich" in bad.text
    # ... and Ben's sheet shows no previews of "7 points" (nobody typed them).
    assert previews(bad.text) == 0 and "Punkte möglich" not in bad.text


def test_dice_typed_in_an_older_turn_are_not_previewed(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    typed = client.get(f"/g/{game_id}/board", params={"dice": "11123", "turn": "0"}, headers=HX)
    assert previews(typed.text) > 0
    entry = {"cell": "down.ones", "dice": "11123", "version": "0"}
    client.post(f"/g/{game_id}/enter", data=entry, headers=HX)
    # A preview asked for with Anna's dice arrives after her entry: Ben's sheet stays plain.
    late = client.get(f"/g/{game_id}/board", params={"dice": "11123", "turn": "0"}, headers=HX)
    assert late.status_code == 200 and "<bdi>Ben</bdi> ist am Zug" in late.text
    assert previews(late.text) == 0
    current = client.get(f"/g/{game_id}/board", params={"dice": "22256", "turn": "1"}, headers=HX)
    assert previews(current.text) > 0


def test_dice_typed_before_a_turn_that_was_taken_back_are_not_previewed(
    client: TestClient,
) -> None:
    """A turn taken and taken back is a new turn: the key the page sends does not repeat."""
    game_id = new_game(client, "Anna", "Ben")
    before = client.get(f"/g/{game_id}/board", headers=HX)
    entry = {"cell": "down.ones", "dice": "11123", "version": "0"}
    assert client.post(f"/g/{game_id}/enter", data=entry, headers=HX).status_code == 200
    undo = client.post(f"/g/{game_id}/undo", data={"version": "1"}, headers=HX)
    assert undo.status_code == 200 and "<bdi>Anna</bdi> ist am Zug" in undo.text
    assert 'data-turn="0"' in before.text and 'data-turn="0"' not in undo.text
    # A preview typed before the entry arrives after the undo: it belongs to the turn over.
    late = client.get(f"/g/{game_id}/board", params={"dice": "11123", "turn": "0"}, headers=HX)
    assert late.status_code == 200 and "<bdi>Anna</bdi> ist am Zug" in late.text
    assert previews(late.text) == 0


def test_a_lost_simultaneous_tap_keeps_no_dice_of_the_turn_that_is_over(
    client: TestClient, service: GameService
) -> None:
    game_id = new_game(client, "Anna", "Ben")
    first = {"cell": "down.ones", "dice": "11123", "version": "0"}
    assert client.post(f"/g/{game_id}/enter", data=first, headers=HX).status_code == 200
    second = {"cell": "free.chance", "dice": "11123", "version": "0", "turn": "0"}
    lost = client.post(f"/g/{game_id}/enter", data=second, headers=HX)
    assert lost.status_code == 409 and "inzwischen geändert" in lost.text
    assert previews(lost.text) == 0 and 'data-dice=""' in lost.text
    assert service.get(game_id).version == 1


def test_an_unknown_address_shows_the_boards_page_to_browsers_and_json_to_the_api(
    client: TestClient,
) -> None:
    page = client.get("/nothing", headers={"Accept": "text/html,*/*"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Seite nicht gefunden." in page.text and 'href="/"' in page.text
    english = client.get("/nothing?lang=en", headers={"Accept": "text/html"})
    assert "Page not found." in english.text
    api = client.get("/api/nothing", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["detail"] == "Not Found"
    assert api.json()["code"] == "not_found"
    plain = client.get("/nothing", headers={"Accept": "application/json"})
    assert plain.status_code == 404 and plain.json()["detail"] == "Not Found"


def test_the_start_page_is_never_taken_from_a_cache(client: TestClient) -> None:
    assert client.get("/").headers["cache-control"] == "no-store"


def test_a_new_version_is_drawn_once_for_every_phone_at_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry's answer and the live refresh of each phone that holds the key show the
    same board: it is drawn once (issue 19, item 9). Each drawing is a whole board on the
    server's one event loop; on a busy machine the second phone's refresh waited behind the
    entering phone's answer and then drew the same board again (benchmarks/live.py --phones).
    """
    from kniffel.web import rendering

    drawn: list[str] = []
    respond = rendering.templates.TemplateResponse

    def counted(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("block_name") == "board":
            drawn.append(str(args[0].url))
        return respond(*args, **kwargs)

    game_id = new_game(client, "Anna", "Ben")
    monkeypatch.setattr(rendering.templates, "TemplateResponse", counted)
    entry = {"cell": "free.sixes", "dice": "66612", "version": "0"}
    assert client.post(f"/g/{game_id}/enter", data=entry, headers=HX).status_code == 200
    assert len(drawn) == 1
    # The entering phone's own live refresh, and the second phone's (same key, same language).
    for _ in range(2):
        answer = client.get(f"/g/{game_id}/board?turn=1", headers=HX)
        assert answer.status_code == 200 and 'data-version="1"' in answer.text
    assert len(drawn) == 1, drawn
    # Typed dice are a board of their own.
    assert "preview" in client.get(f"/g/{game_id}/board?turn=1&dice=11123", headers=HX).text
    assert len(drawn) == 2
