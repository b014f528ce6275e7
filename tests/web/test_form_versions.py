"""Every changing form post carries the version of the game it was made on (issue 9, finding 9:
a post without one could land on the next player's sheet)."""

from __future__ import annotations

import re
import threading

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService

HX = {"HX-Request": "true"}


def _page_game(client: TestClient, **fields: str) -> str:
    created = client.post(
        "/games", data={"player": ["Anna", "Ben"], **fields}, follow_redirects=False
    )
    return created.headers["location"].removeprefix("/g/")


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("enter", {"cell": "down.ones", "dice": "11123"}),
        ("undo", {}),
        ("edit", {"player": "Anna", "cell": "down.ones", "points": "2"}),
        ("clear", {"player": "Anna", "cell": "down.ones"}),
    ],
)
def test_a_form_post_without_its_version_is_refused(
    client: TestClient, service: GameService, action: str, fields: dict[str, str]
) -> None:
    game_id = _page_game(client)
    entry = {"cell": "down.ones", "dice": "11123", "version": "0"}
    assert client.post(f"/g/{game_id}/enter", data=entry, headers=HX).status_code == 200
    answer = client.post(f"/g/{game_id}/{action}", data=fields, headers=HX)
    assert answer.status_code == 400
    assert "bitte die Seite neu laden" in answer.text
    assert service.get(game_id).version == 1


def test_a_roll_without_its_version_is_refused(client: TestClient, service: GameService) -> None:
    game_id = _page_game(client, dice_mode="virtual")
    assert client.post(f"/g/{game_id}/roll", data={}, headers=HX).status_code == 400
    assert service.get(game_id).version == 0


def test_of_two_taps_made_on_the_same_board_only_one_is_stored(
    client: TestClient, service: GameService
) -> None:
    """Both players' devices show version 0; both tap at once. One entry lands, one is 409."""
    for _ in range(10):
        game_id = _page_game(client)
        taps = [
            {"cell": "down.ones", "dice": "11123", "version": "0"},
            {"cell": "free.chance", "dice": "66655", "version": "0"},
        ]
        statuses: list[int] = []
        barrier = threading.Barrier(2)

        def tap(
            data: dict[str, str],
            game_id: str = game_id,
            barrier: threading.Barrier = barrier,
            statuses: list[int] = statuses,
        ) -> None:
            barrier.wait()
            answer = client.post(f"/g/{game_id}/enter", data=data, headers=HX)
            statuses.append(answer.status_code)

        threads = [threading.Thread(target=tap, args=(data,)) for data in taps]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409]
        assert service.get(game_id).version == 1


def test_every_changing_form_on_the_board_carries_the_version(client: TestClient) -> None:
    for fields in ({}, {"dice_mode": "virtual"}):
        game_id = _page_game(client, **fields)
        page = client.get(f"/g/{game_id}").text
        forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>.*?</form>", page, flags=re.S)
        changing = [f for f in forms if re.search(r"/(enter|undo|roll|edit)\"", f)]
        assert changing
        for form in changing:
            assert 'name="version"' in form, form[:200]
