"""Issue 21: the review, the analysis and "Auf Sieg" are worked out off the request.

A game nobody has reviewed cost its review page about 262 CPU-ms inside the request, and the
full table, the review's and the analysis's JSON and the "Auf Sieg" list likewise: anybody
could ask it of every imported game at once. Now the first request queues the work (a bounded
:class:`~kniffel.board.queued.Queued`) and answers at once: the pages a waiting page that asks
again by itself (with scripts off too), the API 202 with ``Retry-After``; a full queue answers
503 with ``Retry-After`` and queues nothing (docs/api.md, "Answers that fill in")."""

from __future__ import annotations

import html
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.queued import Queued

from .waiting import settled

pytestmark = pytest.mark.usefixtures("table_cache")


@pytest.fixture
def client(bot_client: TestClient) -> TestClient:
    return bot_client


def _game(client: TestClient) -> Any:
    response = client.post("/api/games", json={"variant": "kniffel", "players": ["Anna", "Ben"]})
    assert response.status_code == 201, response.text
    game = response.json()
    for event in [
        {"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 6]},
        {"type": "enter", "player": "Anna", "cell": "main.chance"},
        {"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 6]},
    ]:
        answer = client.post(
            f"/api/games/{game['id']}/events",
            json={"event": event},
            headers={"X-Kniffel-Key": game["key"]},
        )
        assert answer.status_code == 200, answer.text
    return game


def _reviews(client: TestClient) -> Queued[Any, Any]:
    queued: Queued[Any, Any] = client.app.state.reviews.queued  # type: ignore[attr-defined]
    return queued


def _wins(client: TestClient) -> Queued[Any, Any]:
    queued: Queued[Any, Any] = client.app.state.advice.wins_queued  # type: ignore[attr-defined]
    return queued


@pytest.mark.parametrize("path", ["/g/{id}/analyse", "/g/{id}/analyse/alle"])
def test_a_page_of_a_game_nobody_reviewed_waits_for_the_queue(
    client: TestClient, path: str
) -> None:
    game = _game(client)
    url = path.format(id=game["id"])
    first = client.get(url, headers={"Accept-Language": "de"})
    assert first.status_code == 202, first.text[:300]
    text = html.unescape(first.text)
    assert "Die Analyse wird berechnet" in text
    # It loads again by itself, with scripts and without.
    assert '<meta http-equiv="refresh" content="2">' in text and "<noscript>" not in text
    assert first.headers["retry-after"] == "2"
    queued = _reviews(client)
    assert queued.join(timeout=600)
    assert queued.worked == 1
    page = client.get(url, headers={"Accept-Language": "de"})
    assert page.status_code == 200, page.text[:300]
    assert "Anna" in page.text and "http-equiv" not in page.text
    # The other page of the same version reads what was worked out: nothing queued again.
    other = "/g/{id}/analyse/alle" if path == "/g/{id}/analyse" else "/g/{id}/analyse"
    assert client.get(other.format(id=game["id"])).status_code == 200
    assert queued.worked == 1


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/games/{id}/review", "review_pending"),
        ("/api/games/{id}/analysis", "analysis_pending"),
    ],
)
def test_the_review_and_analysis_json_answer_pending_first(
    client: TestClient, path: str, code: str
) -> None:
    game = _game(client)
    url = path.format(id=game["id"])
    first = client.get(url)
    assert first.status_code == 202, first.text
    body = first.json()
    assert body["code"] == code and 0 <= body["params"]["progress"] <= 1
    assert body["detail"] == body["message"] and "ask again" in body["detail"]
    assert int(first.headers["retry-after"]) > 0
    assert _reviews(client).join(timeout=600)
    done = client.get(url)
    assert done.status_code == 200, done.text
    assert set(done.json()["players"]) == {"Anna", "Ben"}


def test_auf_sieg_answers_pending_first(client: TestClient) -> None:
    game = _game(client)
    url = f"/api/games/{game['id']}/advice/win"
    first = client.get(url)
    assert first.status_code == 202, first.text
    body = first.json()
    assert body["code"] == "wins_pending" and body["detail"] == body["message"]
    assert int(first.headers["retry-after"]) > 0
    assert _wins(client).join(timeout=600)
    done = client.get(url)
    assert done.status_code == 200, done.text
    assert done.json()["player"] == "Ben" and done.json()["choices"]
    assert settled(client, f"{url}?top=1").json()["choices"] == done.json()["choices"][:1]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/games/{id}/review", "reviews_busy"),
        ("/api/games/{id}/analysis", "reviews_busy"),
        ("/api/games/{id}/advice/win", "wins_busy"),
    ],
)
def test_a_full_queue_answers_503_and_queues_nothing(
    client: TestClient, path: str, code: str
) -> None:
    game = _game(client)
    queued = _wins(client) if "win" in path else _reviews(client)
    queued.queue = 0  # full
    answer = client.get(path.format(id=game["id"]))
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == code and answer.json()["detail"]
    assert int(answer.headers["retry-after"]) > 0
    assert queued.waiting() == 0


def test_a_full_queue_is_said_on_the_page(client: TestClient) -> None:
    game = _game(client)
    _reviews(client).queue = 0
    page = client.get(f"/g/{game['id']}/analyse", headers={"Accept-Language": "de"})
    assert page.status_code == 503
    assert int(page.headers["retry-after"]) > 0
    assert "Gerade werden viele Analysen berechnet" in html.unescape(page.text)
