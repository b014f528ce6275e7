"""The board's words where one game, one player or one winner is meant, and one word per thing
(issue 19, "Words"): singular and plural by the catalogues' plural rule, rounds counted as rounds,
sentences ending in a full stop, the English board saying "box" throughout."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.players.sample import random_record
from kniffel.board.service import GameService
from kniffel.rules import ROWS as KNIFFEL_ROWS
from kniffel.settings import Settings
from kniffel.store.results import ResultStore
from kniffel.web.app import create_app

ROWS = [row.value for row in KNIFFEL_ROWS]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}"), bots=BotSeats(delay=0))
    with TestClient(app) as test_client:
        yield test_client


def _play_out(service: GameService, players: list[str], points: dict[str, int]) -> str:
    """A finished Kniffel game; each player's chance holds ``points[name]``, the rest 0."""
    view = service.create("kniffel", {}, players)
    for row in ROWS:
        for name in players:
            value = points[name] if row == "chance" else 0
            event = {"type": "enter", "player": name, "cell": f"main.{row}", "points": value}
            service.apply(view.id, view.key, event)
    return view.id


def _finished_list(client: TestClient, lang: str) -> str:
    page = html.unescape(client.get(f"/?lang={lang}").text)
    return page.split('id="history-title"', 1)[1]


def test_one_winner_is_a_winner_and_a_tie_has_winners(
    client: TestClient, service: GameService
) -> None:
    _play_out(service, ["Robo", "Anna"], {"Robo": 30, "Anna": 20})
    english = _finished_list(client, "en")
    assert "Winner: Robo" in english and "Winners: Robo" not in english
    _play_out(service, ["Ben", "Zoe"], {"Ben": 25, "Zoe": 25})
    english = _finished_list(client, "en")
    assert "Winners: Ben, Zoe" in english
    assert "Gewinner: Robo" in _finished_list(client, "de")


def test_the_start_page_counts_rounds_not_every_players_entries(
    client: TestClient, service: GameService
) -> None:
    view = service.create("kniffel", {}, ["Anna", "Ben", "Clara"])
    for name, row in (("Anna", "ones"), ("Ben", "ones"), ("Clara", "ones"), ("Anna", "twos")):
        event = {"type": "enter", "player": name, "cell": f"main.{row}", "points": 0}
        service.apply(view.id, view.key, event)
    # Four entries of three players: the first round is played, the second under way.
    page = html.unescape(client.get("/?lang=de").text)
    assert "Runde 2 von 13" in page and "4 Züge" not in page
    solo = service.create("rauf-runter", {"chance": False}, ["Zoe"])
    event = {"type": "enter", "player": "Zoe", "cell": "down.ones", "points": 0}
    service.apply(solo.id, solo.key, event)
    assert "Round 2 of 36" in html.unescape(client.get("/?lang=en").text)


def _new_game_by_form(client: TestClient, *players: str) -> str:
    data = {"variant": "kniffel", "player": list(players)}
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    return location.removeprefix("/g/")


def test_the_undo_note_ends_with_a_full_stop(client: TestClient) -> None:
    game_id = _new_game_by_form(client, "Anna", "Ben")
    entry = {"cell": "main.ones", "dice": "11156", "version": "0"}
    answer = client.post(f"/g/{game_id}/enter", data=entry, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.text
    for lang, words in (
        ("de", "Macht rückgängig: Eintrag von Anna: Einser (3). Danach ist Anna wieder dran."),
        ("en", "Undoes: entry of Anna: Ones (3). Then it is Anna's turn again."),
    ):
        page = html.unescape(client.get(f"/g/{game_id}?lang={lang}").text)
        note = re.search(r'id="undo-note">([^<]*)<', page)
        assert note is not None, page
        assert note.group(1) == words


def test_one_reviewed_game_is_one_game(client: TestClient, service: GameService) -> None:
    record = random_record("kniffel", ["Zoe"], random.Random(3))
    view = service.import_record(record)
    results = ResultStore(service.store.engine)
    results.set_review(view.id, view.version, [(91.5, 12.0, 20)])
    german = html.unescape(client.get("/spieler/zoe?lang=de").text)
    assert "Bewertet in 1 Spiel (Spielbericht)." in german, german
    english = html.unescape(client.get("/spieler/zoe?lang=en").text)
    assert "Rated in 1 game (game review)." in english


def test_the_english_board_says_box_not_cell_and_names_the_tafel_without_the(
    client: TestClient, service: GameService
) -> None:
    view = service.create("rauf-runter", {}, ["Anna"])
    page = html.unescape(client.get(f"/g/{view.id}?key={view.key}&lang=en").text)
    dialog = page.split('<dialog id="edit-dialog"', 1)[1].split("</dialog>", 1)[0]
    visible = re.sub(r"<[^>]*>", " ", dialog)
    assert "box" in visible and not re.search(r"\bcells?\b", visible), visible
    legend = re.sub(r"<[^>]*>", " ", page)
    assert not re.search(r"\bdue cell\b", legend)
    assert "The Tafel" not in page and "Tafel" in page
