"""The game review in the board: the page, its chart and its JSON."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.solver.advice.review import review
from kniffel.web.present.review_words import ReviewWords

from .waiting import settled

NAME = "<b>$x$ Anna</b>"


pytestmark = pytest.mark.usefixtures("table_cache")


@pytest.fixture
def client(bot_client: TestClient) -> TestClient:
    return bot_client


def _game(client: TestClient) -> Any:
    response = client.post("/api/games", json={"variant": "kniffel", "players": [NAME, "Ben"]})
    assert response.status_code == 201, response.text
    game = response.json()
    for event in [
        {"type": "roll", "player": NAME, "dice": [6, 6, 6, 6, 6]},
        {"type": "enter", "player": NAME, "cell": "main.chance"},  # a Kniffel thrown away
        {"type": "enter", "player": "Ben", "cell": "main.fours", "points": 12},  # not rated
        {"type": "enter", "player": NAME, "cell": "main.sixes", "dice": [6, 6, 6, 1, 2]},
    ]:
        answer = client.post(
            f"/api/games/{game['id']}/events",
            json={"event": event},
            headers={"X-Kniffel-Key": game["key"]},
        )
        assert answer.status_code == 200, answer.text
    return game


def test_the_review_is_the_first_view_of_the_analysis(
    client: TestClient, service: GameService
) -> None:
    game = _game(client)
    result = review(service.get(game["id"]).game)
    page = settled(client, f"/g/{game['id']}/analyse")
    assert page.status_code == 200
    assert NAME not in page.text and html.escape(NAME) in page.text  # a name is never markup
    text = html.unescape(page.text)
    words = ReviewWords(Translator("de"))
    anna = result.player(NAME)
    assert "Spielbericht: Kniffel" in text
    assert f"<strong data-accuracy>{words.accuracy(anna.accuracy)}</strong>" in text
    assert f"{words.decimal(anna.loss)} Punkte in 2 Entscheidungen" in text
    assert '<dd data-count="patzer">1</dd>' in text
    assert "nicht bewertet: 1 Eintrag nur mit Punkten" in text  # one, not "1 Einträge"
    assert f'href="/g/{game["id"]}/analyse/alle"' in text  # the full table, one tap away
    assert f"/g/{game['id']}/analyse/verlauf.svg?v=4" in text
    costly = text.split('class="review-costliest"')[1]
    assert costly.index('data-event="2"') >= 0
    assert "Gewählt: Eintragen: Chance (30)" in costly
    assert "Besser: Eintragen: Kniffel (50)" in costly and "Patzer" in costly
    assert "Zug 1: Ben trug nur Punkte ein (Vierer, 12)" in text
    english = html.unescape(settled(client, f"/g/{game['id']}/analyse?lang=en").text)
    assert "Game review: Kniffel" in english and "Chosen: Enter: Chance (30)" in english
    assert "blunder" in english and "not rated: 1 entry of points only" in english


def test_the_chart_is_drawn_from_the_review_and_waits_for_it(client: TestClient) -> None:
    """Issue 21: asked for before any review of the game was made, the chart made the whole
    review inside its request (anybody could ask it of every imported game). Now it answers
    at once that it is being drawn and queues the review; once the review is made (by that
    queue, the background thread or the page) the chart is drawn from it."""
    game = _game(client)
    path = f"/g/{game['id']}/analyse/verlauf.svg"
    first = client.get(path, headers={"Accept-Language": "de"})
    assert first.status_code == 202, first.text[:200]
    assert first.headers["content-type"].startswith("image/svg+xml")
    assert "Das Diagramm wird gezeichnet" in first.text
    assert int(first.headers["retry-after"]) > 0
    queued = client.app.state.reviews.queued  # type: ignore[attr-defined]
    assert queued.join(timeout=600)
    drawn = client.get(path, headers={"Accept-Language": "de"})
    assert drawn.status_code == 200 and "data-chart-pending" not in drawn.text
    assert client.get(path, headers={"Accept-Language": "de"}).text == drawn.text
    assert queued.worked == 1
    other = _game(client)  # its page has the review made: the chart comes at once
    assert settled(client, f"/g/{other['id']}/analyse").status_code == 200
    assert queued.worked == 2
    assert client.get(f"/g/{other['id']}/analyse/verlauf.svg").status_code == 200
    assert queued.worked == 2


def test_the_chart_draws_names_as_text(client: TestClient) -> None:
    game = _game(client)
    assert settled(client, f"/g/{game['id']}/analyse").status_code == 200  # the review is made
    answer = client.get(f"/g/{game['id']}/analyse/verlauf.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.lstrip().startswith("<?xml") and "<svg" in answer.text
    assert NAME not in answer.text and f">{html.escape(NAME)}</text>" in answer.text
    assert client.get("/g/nope/analyse/verlauf.svg").status_code == 404


def test_the_review_json_is_the_review(client: TestClient, service: GameService) -> None:
    game = _game(client)
    data = settled(client, f"/api/games/{game['id']}/review").json()
    expected = review(service.get(game["id"]).game).as_dict()
    assert data == json.loads(json.dumps(expected))
    assert data["players"][NAME]["counts"]["patzer"] == 1
    assert client.get("/api/games/nope/review").status_code == 404


def test_a_game_without_decisions_says_so(client: TestClient) -> None:
    response = client.post("/api/games", json={"variant": "rauf-runter", "players": ["Anna"]})
    page = settled(client, f"/g/{response.json()['id']}/analyse")
    assert page.status_code == 200 and "Noch keine Entscheidungen." in page.text
    assert "verlauf.svg" not in page.text


def test_an_opened_review_gives_the_players_their_accuracy(
    client: TestClient, service: GameService
) -> None:
    import random

    from kniffel.board.players.sample import random_record

    view = service.import_record(random_record("kniffel", ["Anna", "Ben"], random.Random(3)))
    assert client.get("/api/players/anna").json()["accuracy"] is None
    assert settled(client, f"/g/{view.id}/analyse").status_code == 200
    result = review(view.game)
    data = client.get("/api/players/anna").json()
    anna = result.player("Anna")
    assert data["accuracy"] == pytest.approx(anna.accuracy)
    assert data["loss_per_decision"] == pytest.approx(anna.loss / anna.decisions)
    assert data["latest_games"][0]["accuracy"] == pytest.approx(anna.accuracy)
