"""The state and the preview of a kept game version are answered before FastAPI's routing
(``kniffel.web.api.hot``), with the bytes and headers the routes answer; everything else goes
the long way, where the routes answer it as before (docs/benchmarks.md, "Load")."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from kniffel.board.service import GameService

from .table import new_game

#: What differs between two answers of one request.
_MOMENT = "date"


@pytest.fixture
def routed(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games the routes read (``GameService.get_async``, which both routes call)."""
    games: list[str] = []
    get_async = GameService.get_async

    async def counted(self: GameService, game_id: str) -> object:
        games.append(game_id)
        return await get_async(self, game_id)

    monkeypatch.setattr(GameService, "get_async", counted)
    return games


def _same(long_way: Response, hot: Response) -> None:
    assert hot.status_code == long_way.status_code
    assert hot.content == long_way.content
    assert {k: v for k, v in hot.headers.items() if k != _MOMENT} == {
        k: v for k, v in long_way.headers.items() if k != _MOMENT
    }


def test_a_kept_state_and_preview_skip_the_routes_and_answer_the_same_bytes(
    client: TestClient, routed: list[str]
) -> None:
    game = new_game(client)
    path = f"/api/games/{game['id']}"
    service = client.app.state.service  # type: ignore[attr-defined]
    long_way = []
    for asked in (path, f"{path}/preview?dice=66655&dice=11156"):
        service.replays = type(service.replays)()  # as after a restart: nothing kept
        long_way.append(client.get(asked))
    assert routed == [game["id"], game["id"]]  # and the version kept now
    routed.clear()
    hot = client.get(path), client.get(f"{path}/preview?dice=66655&dice=11156")
    assert routed == []
    for before, now in zip(long_way, hot, strict=True):
        _same(before, now)
    assert hot[1].json()["dice"] == [1, 1, 1, 5, 6]  # the last dice count, as in the route


@pytest.mark.parametrize(
    ("suffix", "status"),
    [
        ("/preview?dice=1234", 400),  # four dice
        ("/preview?dice=", 400),
        ("/nope", 404),
    ],
)
def test_what_the_hot_reads_do_not_answer_goes_to_the_routes(
    client: TestClient, routed: list[str], suffix: str, status: int
) -> None:
    game = new_game(client)
    assert client.get(f"/api/games/{game['id']}").status_code == 200  # kept
    answer = client.get(f"/api/games/{game['id']}{suffix}")
    assert answer.status_code == status, answer.text
    assert answer.json()["code"]


def test_an_unknown_game_is_answered_by_the_route(client: TestClient, routed: list[str]) -> None:
    answer = client.get("/api/games/nosuchgame12")
    assert answer.status_code == 404
    assert answer.json()["code"] == "game_not_found"
    assert routed == ["nosuchgame12"]
    assert "content-security-policy" in answer.headers
