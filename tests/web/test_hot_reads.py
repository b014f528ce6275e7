"""The state and the preview of a kept game version are answered before FastAPI's routing
(``kniffel.web.api.hot``), with the bytes and headers the routes answer; so is an event
posted with a JSON body, refusals included; everything else goes the long way, where the routes
answer it as before (docs/benchmarks.md, "Load")."""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from starlette.types import Message

from kniffel.board.service import GameService
from kniffel.store import repository
from kniffel.web.api import hot
from kniffel.web.api.schemas import EventBody

from .table import enter, new_game, send, state

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


def _same(long_way: Response, hot: Response, game: str = "", instead: str = "") -> None:
    """The same answer; ``game``'s id in the long way's read as ``instead``."""
    assert hot.status_code == long_way.status_code
    assert hot.content == long_way.content.replace(game.encode(), instead.encode())
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


class _Clock(datetime):
    """The store's clock stopped: two games made and changed the same way read the same."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Clock:
        return cls(2026, 12, 6, 12, 0, 0, 123456, tzinfo=tz)


@pytest.fixture
def short_way(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each event posted went the short way (``hot._event_body`` read its body)."""
    taken: list[bool] = []
    read = hot._event_body

    def counted(messages: list[Message]) -> EventBody | None:
        body = read(messages)
        taken.append(body is not None)
        return body

    monkeypatch.setattr(hot, "_event_body", counted)
    return taken


def _long_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event goes to the route from now on."""
    monkeypatch.setattr(hot, "_EVENTS", re.compile(r"(?!)"))


def test_an_entry_the_short_way_answers_the_routes_bytes_and_headers(
    client: TestClient, short_way: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(repository, "datetime", _Clock)
    games = new_game(client), new_game(client)
    entry = enter("Anna", "down.ones", "11123")
    hot_answer = send(client, games[0], entry, expected_version=0)
    assert short_way == [True]
    _long_way(monkeypatch)
    long_answer = send(client, games[1], entry, expected_version=0)
    assert short_way == [True]  # the route read it
    assert hot_answer.status_code == 200, hot_answer.text
    _same(long_answer, hot_answer, games[1]["id"], games[0]["id"])
    assert state(client, games[0])["version"] == 1  # stored, and read back


@pytest.mark.parametrize(
    ("event", "body", "headers", "status"),
    [
        (enter("Anna", "down.ones", "11123"), {"expected_version": 0}, {}, 403),  # no key
        (enter("Anna", "down.ones", "11123"), {}, {"X-Kniffel-Key": "wrong"}, 403),
        (enter("Anna", "down.ones", "11123"), {"expected_version": 5}, None, 409),
        (enter("Anna", "down.twos", "22223"), {}, None, 400),  # not due: ones first
        (enter("Ben", "down.ones", "11123"), {}, None, 400),  # not Ben's turn
        ({"type": "undo"}, {}, None, 400),  # nothing to undo
    ],
)
def test_a_refused_event_the_short_way_answers_as_the_route(
    client: TestClient,
    short_way: list[bool],
    monkeypatch: pytest.MonkeyPatch,
    event: dict[str, Any],
    body: dict[str, Any],
    headers: dict[str, str] | None,
    status: int,
) -> None:
    game = new_game(client)
    path = f"/api/games/{game['id']}/events"
    sent = {"X-Kniffel-Key": game["key"]} if headers is None else headers
    hot_answer = client.post(path, json={"event": event, **body}, headers=sent)
    _long_way(monkeypatch)
    long_answer = client.post(path, json={"event": event, **body}, headers=sent)
    assert short_way == [True]
    assert hot_answer.status_code == status, hot_answer.text
    _same(long_answer, hot_answer)
    assert state(client, game)["version"] == 0  # nothing stored either way


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b'{"event": {"type": "nope"}}', "application/json"),  # the model refuses it: 422
        (b'{"event": ', "application/json"),  # not JSON: 422
        (b"", "application/json"),  # no body: 422
        (b'{"event": {"type": "undo"}}', "text/plain"),  # not JSON by its type: 422
    ],
)
def test_what_the_short_way_does_not_read_goes_to_the_route(
    client: TestClient,
    short_way: list[bool],
    monkeypatch: pytest.MonkeyPatch,
    content: bytes,
    content_type: str,
) -> None:
    game = new_game(client)
    path = f"/api/games/{game['id']}/events"
    headers = {"X-Kniffel-Key": game["key"], "Content-Type": content_type}
    hot_answer = client.post(path, content=content, headers=headers)
    _long_way(monkeypatch)
    long_answer = client.post(path, content=content, headers=headers)
    assert short_way in ([], [False])
    assert hot_answer.status_code == 422, hot_answer.text
    _same(long_answer, hot_answer)


def test_an_event_for_an_unknown_game_the_short_way_answers_as_the_route(
    client: TestClient, short_way: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"event": enter("Anna", "down.ones", "11123")}
    hot_answer = client.post("/api/games/nosuchgame12/events", json=body)
    _long_way(monkeypatch)
    long_answer = client.post("/api/games/nosuchgame12/events", json=body)
    assert short_way == [True]
    assert hot_answer.json()["code"] == "game_not_found"
    _same(long_answer, hot_answer)
