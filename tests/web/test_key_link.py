"""The key stays out of addresses and caches (issue 9, findings 6 and 7): the play link carries
it in the fragment, the page trades it for a ``SameSite=Strict`` cookie, old ``?key=`` links
still work."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.web.rendering import KEY_COOKIE

WATCHING = "Zum Eintragen braucht es den Mitspiel-Link"


def _new_page_game(client: TestClient) -> str:
    created = client.post("/games", data={"player": ["Anna", "Ben"]}, follow_redirects=False)
    assert created.status_code == 303
    cookie = created.headers["set-cookie"]
    assert f"{KEY_COOKIE}=" in cookie and "samesite=strict" in cookie.lower()
    assert "httponly" in cookie.lower()
    return created.headers["location"].removeprefix("/g/")


def test_the_play_link_carries_the_key_in_its_fragment(
    client: TestClient, service: GameService
) -> None:
    game_id = _new_page_game(client)
    key = service.get(game_id).key
    page = client.get(f"/g/{game_id}")
    assert f'value="http://testserver/g/{game_id}#key={key}"' in page.text
    assert "?key=" not in page.text
    assert page.headers["cache-control"] == "no-store"


def test_the_page_trades_the_fragments_key_for_the_cookie(
    client: TestClient, service: GameService
) -> None:
    game_id = _new_page_game(client)
    key = service.get(game_id).key
    client.cookies.clear()
    assert WATCHING in client.get(f"/g/{game_id}").text
    wrong = client.post(f"/g/{game_id}/key", data={"key": "not-the-key"})
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    assert client.post(f"/g/{game_id}/key", data={}).status_code == 403
    assert client.post("/g/nope/key", data={"key": key}).status_code == 404
    taken = client.post(f"/g/{game_id}/key", data={"key": key})
    assert taken.status_code == 204
    assert "samesite=strict" in taken.headers["set-cookie"].lower()
    assert WATCHING not in client.get(f"/g/{game_id}").text
    # ... and another site cannot make a device take a key.
    client.cookies.clear()
    refused = client.post(
        f"/g/{game_id}/key", data={"key": key}, headers={"Origin": "https://evil.example"}
    )
    assert refused.status_code == 403 and "set-cookie" not in refused.headers


def test_an_old_key_link_still_lets_the_device_play(
    client: TestClient, service: GameService
) -> None:
    game_id = _new_page_game(client)
    key = service.get(game_id).key
    client.cookies.clear()
    opened = client.get(f"/g/{game_id}?key={key}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/g/{game_id}"
    assert "samesite=strict" in opened.headers["set-cookie"].lower()
    assert WATCHING not in client.get(f"/g/{game_id}").text
