"""Bot seats: bots take their turns through the service, every roll and entry stored."""

from __future__ import annotations

import html
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.service import GameService
from kniffel.record import loads, replay
from kniffel.rules import Enter, EnterAction, Game, Roll, RollAction
from kniffel.settings import Settings
from kniffel.solver.advice.analysis import analyse
from kniffel.solver.play.bots import make_bot
from kniffel.web.app import create_app


@pytest.fixture(scope="module", autouse=True)
def table_cache(tmp_path_factory: pytest.TempPathFactory, preset_tables: None) -> Iterator[None]:
    """Solved tables go to the test session's folder, never the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        if "KNIFFEL_CACHE_DIR" not in os.environ:
            patch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "tables"))
        yield


def _client(tmp_path: Path, delay: float) -> TestClient:
    settings = Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}")
    return TestClient(create_app(settings, bots=BotSeats(delay=delay)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path, 0) as test_client:
        yield test_client


def _service(client: TestClient) -> GameService:
    board: GameService = client.app.state.service  # type: ignore[attr-defined]
    return board


def _new(client: TestClient, variant: str, players: list[str], bots: dict[str, str]) -> Any:
    body = {"variant": variant, "players": players, "dice_mode": "virtual", "bots": bots}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _bot_moves_are_the_bots_choices(game: Game, seats: dict[str, str]) -> int:
    """Replay ``game`` and check that each bot event is what that bot chooses there."""
    replayed = Game(game.variant, game.players)
    checked = 0
    for event in game.log:
        if isinstance(event, (Roll, Enter)) and event.player in seats:
            bot = make_bot(seats[event.player], game.variant)
            choice = bot.choose(replayed)
            if isinstance(event, Roll):
                assert choice == RollAction(event.keep)
            else:
                assert choice == EnterAction(event.cell)
            checked += 1
        replayed.push(event)
    return checked


def test_a_bot_in_the_first_seat_plays_at_once(client: TestClient) -> None:
    game = _new(client, "rauf-runter", ["Robo", "Anna"], {"Robo": "best"})
    view = _service(client).get(game["id"])
    # the answer to the creation is the new game; the bot's turn followed it
    assert game["version"] == 0
    assert view.version >= 2
    assert view.game.filled_count("Robo") == 1
    assert view.game.current_name == "Anna"
    assert [e["player"] for e in view.events] == ["Robo"] * view.version
    assert {e["type"] for e in view.events} == {"roll", "enter"}
    assert _bot_moves_are_the_bots_choices(view.game, {"Robo": "best"}) == view.version


def test_the_bot_answers_each_human_turn(client: TestClient) -> None:
    game = _new(client, "kniffel", ["Anna", "Gier"], {"Gier": "greedy"})
    key = {"X-Kniffel-Key": game["key"]}
    for _ in range(3):
        rolled = client.post(f"/api/games/{game['id']}/roll", json={"player": "Anna"}, headers=key)
        assert rolled.status_code == 200, rolled.text
        cell = rolled.json()["entries"][0]["cell"]
        event = {"type": "enter", "player": "Anna", "cell": cell}
        entered = client.post(f"/api/games/{game['id']}/events", json={"event": event}, headers=key)
        assert entered.status_code == 200, entered.text
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["turn"]["player"] == "Anna"
        assert state["version"] > entered.json()["version"]  # the bot's events followed
    view = _service(client).get(game["id"])
    assert (view.game.filled_count("Anna"), view.game.filled_count("Gier")) == (3, 3)
    assert _bot_moves_are_the_bots_choices(view.game, {"Gier": "greedy"}) >= 6


def test_two_bots_play_a_whole_game_and_the_record_replays(client: TestClient) -> None:
    seats = {"Gier": "greedy", "Robo": "best"}
    game = _new(client, "kniffel", ["Gier", "Robo"], seats)
    view = _service(client).get(game["id"])
    assert view.finished
    record = client.get(f"/api/games/{game['id']}/record").json()
    replayed = replay(loads(json.dumps(record)))
    assert replayed.returns() == view.game.returns()
    assert _bot_moves_are_the_bots_choices(view.game, seats) == view.version
    losses = analyse(view.game).players
    assert losses["Robo"].loss <= 1e-9  # the best bot plays what the advice calls best
    assert losses["Gier"].loss > 0
    assert client.get("/api/games?finished=true").json()[0]["id"] == game["id"]


def test_a_dreifach_bot_seat_plays_its_turn(client: TestClient) -> None:
    game = _new(client, "dreifach", ["Anna", "Robo"], {"Robo": "best"})
    key = {"X-Kniffel-Key": game["key"]}
    client.post(f"/api/games/{game['id']}/roll", json={"player": "Anna"}, headers=key)
    event = {"type": "enter", "player": "Anna", "cell": "x1.chance"}
    client.post(f"/api/games/{game['id']}/events", json={"event": event}, headers=key)
    view = _service(client).get(game["id"])
    assert view.game.filled_count("Robo") == 1 and view.game.current_name == "Anna"


def test_human_seats_and_physical_games_wait(client: TestClient) -> None:
    game = _new(client, "yahtzee", ["Anna", "Robo"], {"Robo": "best"})
    assert _service(client).get(game["id"]).version == 0  # Anna is to move: nobody plays
    physical = client.post("/api/games", json={"players": ["Robo"], "bots": {"Robo": "best"}})
    assert physical.status_code == 400  # bots roll virtual dice: the service refuses


def test_with_a_delay_the_bot_plays_in_the_background(tmp_path: Path) -> None:
    with _client(tmp_path, 0.01) as client:
        game = _new(client, "kniffel", ["Robo", "Anna"], {"Robo": "greedy"})
        assert game["version"] == 0
        service = _service(client)
        deadline = time.monotonic() + 20
        while service.get(game["id"]).game.current_name != "Anna":
            assert time.monotonic() < deadline, "the bot did not finish its turn"
            time.sleep(0.02)
        view = service.get(game["id"])
        assert view.game.filled_count("Robo") == 1
        assert view.events[0]["type"] == "roll"
        assert {e["player"] for e in view.events} == {"Robo"}
    # the app's shutdown stopped every worker
    assert not [t for t in threading.enumerate() if t.name.startswith("bot-seats-")]


def test_the_board_page_shows_the_bots_moves(client: TestClient) -> None:
    game = _new(client, "rauf-runter", ["Robo", "Anna"], {"Robo": "greedy"})
    view = _service(client).get(game["id"])
    total = view.game.total("Robo")
    assert total > 0
    page = client.get(f"/g/{game['id']}").text
    assert "<bdi>Anna</bdi> ist am Zug" in page
    tab = re.search(
        r'player-name"><bdi>Robo</bdi></span>\s*'
        r'<span class="bot-badge" title="greedy">Bot</span>\s*'
        r'<span class="player-total">(\d+)</span>',
        page,
    )
    assert tab is not None and int(tab.group(1)) == total
    assert re.search(r'player-name"><bdi>Anna</bdi></span>\s*<span class="player-total">', page)


# ------------------------------------------------------------- new-game form


def test_the_new_game_form_offers_a_bot_for_every_seat(client: TestClient) -> None:
    page = client.get("/").text
    assert page.count('<select name="seat"') == 8
    assert '<option value="greedy">Bot: gierig</option>' in page
    assert '<option value="best">Bot: stark</option>' in page
    assert "Bots würfeln virtuell" in page
    english = client.get("/?lang=en").text
    assert "Bot: strong" in english and 'aria-label="Who plays seat 1"' in english


def test_a_bot_seat_from_the_form_plays_with_virtual_dice(client: TestClient) -> None:
    fields = {
        "variant": "kniffel",
        "dice_mode": "virtual",
        "player": ["Robo", "Anna", *[""] * 6],
        "seat": ["best", "person", "greedy", *["person"] * 5],  # no name: the bot is "Bot 3"
    }
    response = client.post("/games", data=fields, follow_redirects=False)
    assert response.status_code == 303, response.text
    game_id = response.headers["location"].removeprefix("/g/")
    view = _service(client).get(game_id)
    assert view.players == ("Robo", "Anna", "Bot 3")
    assert view.bots == {"Robo": "best", "Bot 3": "greedy"}
    assert view.dice_mode == "virtual"
    assert view.game.filled_count("Robo") == 1 and view.game.current_name == "Anna"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_bot_with_real_dice_is_asked_about_and_nothing_is_stored(
    client: TestClient, lang: str
) -> None:
    """The form never turns real dice into virtual ones by itself: the family chooses."""
    fields = {
        "variant": "kniffel",
        "dice_mode": "physical",
        "player": ["Anna", "", *[""] * 6],
        "seat": ["person", "best", *["person"] * 6],
    }
    response = client.post(f"/games?lang={lang}", data=fields, follow_redirects=False)
    assert response.status_code == 422
    words = {"de": "Bitte „Virtuelle Würfel“ wählen", "en": "Please choose “Virtual dice”"}
    assert words[lang] in html.unescape(response.text)
    assert _service(client).list_games() == []
    # The form comes back as it was sent: the bot still in seat 2, real dice still chosen.
    page = response.text
    assert '<option value="best" selected>' in page
    assert re.search(r'name="dice_mode" value="physical"\s+checked', page)


def test_without_bots_the_form_keeps_its_dice(client: TestClient) -> None:
    fields = {"variant": "kniffel", "dice_mode": "physical", "player": ["Anna", "Ben"]}
    response = client.post("/games", data=fields, follow_redirects=False)
    view = _service(client).get(response.headers["location"].removeprefix("/g/"))
    assert (view.bots, view.dice_mode) == ({}, "physical")
