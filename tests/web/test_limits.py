"""Import runs exactly the checks of creation; forms read ASCII digits only; no input answers 5xx
(issue 9, findings 3, 5 and 8)."""

from __future__ import annotations

import html
import json
import unicodedata
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board import limits
from kniffel.board.service import GameService
from kniffel.record import record_of
from kniffel.rules import Dice, Enter, Game, Roll, Undo, get_variant

RECORD = {"format": "kniffel-record/1", "variant": "kniffel", "options": {}, "events": []}

#: Names that show as something else, break a terminal, or are too long (finding 3 and 8).
BAD_NAMES = [
    "A" * 1_000_000,
    "A" * 41,
    "Eve\x1b[2J",  # ESC: clears a terminal
    "Bell\x07",
    "Nul\x00",
    "Del\x7f",
    "\u202eevE",  # right-to-left override
    "Ann\u2066a",  # bidi isolate
    "An\u200bna",  # zero-width space: looks like "Anna"
    "Anna\ufeff",
    "Ann\u200da",  # a joiner outside an emoji
    "Line\u2028break",
    "   ",
    "",
]


def _import(client: TestClient, **fields: Any) -> Any:
    return client.post("/api/records", json={**RECORD, "players": ["Anna"], **fields})


@pytest.mark.parametrize("name", BAD_NAMES, ids=lambda n: ascii(n[:12]))
def test_a_bad_name_is_refused_by_creation_and_import_alike(
    client: TestClient, service: GameService, name: str
) -> None:
    created = client.post("/api/games", json={"players": [name]})
    assert created.status_code in (400, 422), created.text
    page = client.post("/games", data={"player": [name]})
    assert page.status_code == 422 and "<html" in page.text
    imported = _import(client, players=[name])
    assert imported.status_code == 400, imported.text
    assert len(imported.json()["detail"]) < 300  # the message quotes the name cut short
    upload = json.dumps({**RECORD, "players": [name]})
    file = client.post("/import", files={"record": ("r.json", upload, "application/json")})
    assert file.status_code == 400 and "Import abgelehnt" in file.text
    assert service.list_games() == []
    # The start page stays small: nothing was stored.
    assert len(client.get("/").content) < 100_000


#: A refused name on the new-game form, in the page's language: the catalogue's words with the
#: name and the character filled in, never the board's internal English on a German page.
FORM_NAME_REFUSALS = [
    ("\u202eevE", "de", "enthält das unsichtbare oder Steuerzeichen U+202E"),
    ("Eve\x1b[2J", "de", "enthält das unsichtbare oder Steuerzeichen U+001B"),
    ("An\u200bna", "de", "enthält das unsichtbare oder Steuerzeichen U+200B"),
    ("\u202eevE", "en", "The name '\\u202eevE' holds the invisible or control character U+202E"),
]


@pytest.mark.parametrize(("name", "lang", "words"), FORM_NAME_REFUSALS)
def test_the_new_game_form_refuses_a_name_in_the_page_language(
    client: TestClient, service: GameService, name: str, lang: str, words: str
) -> None:
    page = client.post(f"/games?lang={lang}", data={"variant": "kniffel", "player": ["Anna", name]})
    assert page.status_code == 422
    alert = html.unescape(page.text.split('id="form-error">', 1)[1].split("</p>", 1)[0])
    assert words in alert, alert
    if lang == "de":
        assert "holds the invisible" not in alert  # the board's internal English
    assert service.list_games() == []


def test_names_are_stored_in_nfc_and_emoji_sequences_stay(
    client: TestClient, service: GameService
) -> None:
    decomposed = "Zoe\u0308"
    family = "\U0001f469\u200d\U0001f4bb Ada"  # woman technologist: a joiner inside an emoji
    created = client.post("/api/games", json={"players": [decomposed, family]})
    assert created.status_code == 201, created.text
    players = service.get(created.json()["id"]).players
    assert players == (unicodedata.normalize("NFC", decomposed), family)
    # An import must already be in that form: its events name the players.
    refused = _import(client, players=[decomposed])
    assert refused.status_code == 400 and "normal form" in refused.json()["detail"]
    assert _import(client, players=["Zoë", family]).status_code == 201


@pytest.mark.parametrize("bonus", [10**30, 10**3999, 1001, -1])
def test_an_import_with_a_bonus_beyond_the_forms_range_is_refused(
    client: TestClient, service: GameService, bonus: int
) -> None:
    answer = _import(client, options={"kniffel_bonus": bonus})
    assert answer.status_code == 400, answer.text
    assert service.list_games() == []
    assert client.get("/").status_code == 200


def test_creation_takes_the_same_bonus_range(client: TestClient) -> None:
    too_much = {"players": ["Anna"], "options": {"kniffel_bonus": 1001}}
    assert client.post("/api/games", json=too_much).status_code == 422
    most = {"players": ["Anna"], "options": {"kniffel_bonus": limits.MAX_KNIFFEL_BONUS}}
    assert client.post("/api/games", json=most).status_code == 201


@pytest.mark.parametrize("bonus", ["²", "٣", "1" * 5000, "10²", "1_000", " 5 0 "])
def test_a_bonus_that_is_not_ascii_digits_is_refused_with_a_message(
    client: TestClient, service: GameService, bonus: str
) -> None:
    fields = {"player": ["Anna"], "house_rules": "1", "kniffel_bonus": bonus}
    answer = client.post("/games", data=fields)
    assert answer.status_code == 422
    assert "Der Kniffel-Bonus ist eine ganze Zahl von 0 bis 1000." in answer.text
    assert service.list_games() == []


@pytest.mark.parametrize("value", ["²", "1" * 5000, "٣"])
def test_numbers_in_board_forms_are_ascii_digits(
    client: TestClient, service: GameService, value: str
) -> None:
    created = client.post("/games", data={"player": ["Anna"]}, follow_redirects=False)
    game_id = created.headers["location"].removeprefix("/g/")
    for path, fields in (
        ("enter", {"cell": "down.ones", "points": value, "version": "0"}),
        ("enter", {"cell": "down.ones", "dice": "11123", "version": value}),
        ("edit", {"player": "Anna", "cell": "down.ones", "points": value, "version": "0"}),
    ):
        answer = client.post(f"/g/{game_id}/{path}", data=fields, headers={"HX-Request": "true"})
        assert answer.status_code == 400, (path, answer.status_code)
    for query in (f"dice={value}", f"points={value}"):
        assert client.get(f"/g/{game_id}?{query}").status_code < 500
        assert client.get(f"/g/{game_id}/board?{query}").status_code < 500
    assert service.get(game_id).version == 0


def test_a_record_beyond_the_event_limit_is_refused(client: TestClient) -> None:
    events = [{"type": "undo"}] * (limits.MAX_EVENTS + 1)
    answer = _import(client, events=events)
    assert answer.status_code == 400
    assert f"at most {limits.MAX_EVENTS:,} events" in answer.json()["detail"]


def test_a_full_eight_player_dreifach_game_with_corrections_fits(
    client: TestClient, service: GameService
) -> None:
    """Three rolls every turn, then each entry taken back and made again: 1,872 events."""
    players = [f"P{i}" for i in range(8)]
    game = Game(get_variant("dreifach"), players)
    dice = Dice.parse("12345")
    while (seat := game.current_player()) is not None:
        name = players[seat]
        for _ in range(3):
            game.push(Roll(name, dice))
        cell = game.allowed_cells(name)[0]
        game.push(Enter(name, cell))
        game.push(Undo())
        game.push(Enter(name, cell))
    assert game.is_finished
    document = record_of(game)
    assert len(document["events"]) == 8 * 39 * 6 <= limits.MAX_EVENTS
    body = json.dumps(document).encode()
    assert len(body) < 1024 * 1024  # and within the body limit
    answer = client.post("/api/records", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
    assert service.get(answer.json()["id"]).game.is_finished
