"""The board's server-rendered pages: what they show, what they lock, what they refuse."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.charts import totals as chart
from kniffel.record import loads, replay
from kniffel.rules import Dice, Enter, Game, Undo, get_variant, rows_for
from kniffel.settings import Settings
from kniffel.web.app import create_app
from kniffel.web.present import i18n

HX = {"HX-Request": "true"}
WEB = Path(create_app.__code__.co_filename).parent

#: The rows of a sheet without the Chance row, top to bottom.
NO_CHANCE_ROWS = tuple(
    row.value for row in rows_for(get_variant("kniffel", {"chance": False}).options)
)


class Elements(HTMLParser):
    """Every start tag of a page with its attributes (enough to query a rendered page)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def find(self, tag: str | None = None, **wanted: str) -> list[dict[str, str]]:
        found = []
        for name, attrs in self.tags:
            if tag is not None and name != tag:
                continue
            if all(attrs.get(k.replace("_", "-")) == v for k, v in wanted.items()):
                found.append(attrs)
        return found

    def cell(self, label: str) -> dict[str, str]:
        matches = self.find("button", aria_label=label)
        assert len(matches) == 1, f"{label!r}: {len(matches)} buttons"
        return matches[0]


def labels(html: str) -> set[str]:
    return {a["aria-label"] for a in Elements(html).find("button") if "aria-label" in a}


def notice(html: str) -> str:
    match = re.search(r'id="notice" role="alert">([^<]*)<', html)
    assert match, "no notice on the page"
    return match.group(1)


def new_game(client: TestClient, *players: str, **fields: str) -> str:
    data: dict[str, Any] = {"variant": "rauf-runter", "player": list(players), **fields}
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    return location.removeprefix("/g/")


def board(client: TestClient, game_id: str, **params: str) -> str:
    response = client.get(f"/g/{game_id}/board", params=params, headers=HX)
    assert response.status_code == 200
    return response.text


def version(client: TestClient, game_id: str) -> str:
    """The version a form on the board shows now (every changing form carries it)."""
    return str(client.get(f"/api/games/{game_id}").json()["version"])


def post(client: TestClient, game_id: str, action: str, **fields: Any) -> Any:
    """A form post as the board makes it: with the version it was made on."""
    data = {"version": version(client, game_id), **fields}
    return client.post(f"/g/{game_id}/{action}", data=data, headers=HX)


def enter(client: TestClient, game_id: str, cell: str, **fields: Any) -> Any:
    return post(client, game_id, "enter", cell=cell, **fields)


# ------------------------------------------------------------------ start page


def test_the_start_page_is_german_first_and_english_on_request(client: TestClient) -> None:
    german = client.get("/").text
    assert 'lang="de"' in german and "Neues Spiel" in german and "Chance-Feld" in german
    assert "Pasch zählt nur gleiche Würfel" in german and "Null nur im oberen Block" in german
    english = client.get("/?lang=en")
    assert 'lang="en"' in english.text and "New game" in english.text
    # The choice is remembered, and a browser asking for English gets English.
    assert 'lang="en"' in client.get("/").text
    client.cookies.clear()
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).text
    italian_first = client.get("/", headers={"Accept-Language": "it,de;q=0.5"}).text
    assert '<html lang="de">' in italian_first


def test_the_new_game_form_offers_every_preset_option_and_dice_mode(client: TestClient) -> None:
    page = Elements(client.get("/").text)
    presets = {
        a["value"]: json.loads(a["data-options"]) for a in page.find("input", name="variant")
    }
    assert set(presets) == {"kniffel", "yahtzee", "rauf-runter", "dreifach", "jamb", "yams"}
    assert presets["jamb"]["trips_bonus"] == 10 and "chance" not in presets["jamb"]
    assert presets["yahtzee"]["kniffel_bonus"] == 100 and presets["yahtzee"]["joker"] == "forced"
    assert {a["value"] for a in page.find("input", name="joker")} == {"free", "forced", "none"}
    assert {a["value"] for a in page.find("input", name="dice_mode")} == {"physical", "virtual"}
    assert len(page.find("input", name="player")) == 8


def test_a_new_game_opens_its_board_with_the_key_in_a_cookie(
    client: TestClient, service: GameService
) -> None:
    game_id = new_game(client, "Anna", "Ben", joker="none", house_rules="1", kniffel_bonus="100")
    view = service.get(game_id)
    assert view.players == ("Anna", "Ben")
    assert view.variant.options.kniffel_bonus == 100
    assert view.variant.options.joker.value == "none"
    assert view.variant.options.chance is False  # an unticked box in the house rules
    page = client.get(f"/g/{game_id}").text
    assert "<bdi>Anna</bdi> ist am Zug" in page and 'id="enter-form"' in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player": []}, "Bitte mindestens einen Spieler eintragen."),
        ({"player": ["Anna", "Anna"]}, "Jeder Name nur einmal: Anna"),
        ({"player": [f"P{i}" for i in range(9)]}, "Höchstens 8 Spieler."),
        ({"player": ["A" * 41]}, "Namen dürfen höchstens 40 Zeichen haben."),
        ({"variant": "poker"}, "Unbekannte Variante: poker"),
        ({"dice_mode": "loaded"}, "Unbekannte Würfel-Art: loaded"),
        ({"house_rules": "1", "joker": "wild"}, "Unbekannter Joker: wild"),
        ({"house_rules": "1", "kniffel_bonus": "-5"}, "Der Kniffel-Bonus ist eine ganze Zahl"),
        ({"house_rules": "1", "kniffel_bonus": "1e3"}, "Der Kniffel-Bonus ist eine ganze Zahl"),
    ],
)
def test_bad_new_game_fields_are_refused_with_a_message_and_nothing_stored(
    client: TestClient, service: GameService, fields: dict[str, Any], message: str
) -> None:
    data = {"variant": "kniffel", "player": ["Anna"], **fields}
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 422
    assert message in response.text
    assert service.list_games() == []


def test_the_start_page_lists_unfinished_and_finished_games(
    client: TestClient, service: GameService
) -> None:
    running = new_game(client, "Anna")
    done = service.create("kniffel", {"chance": False}, ["Zoe"])
    for row in NO_CHANCE_ROWS:
        service.apply(
            done.id,
            done.key,
            {"type": "enter", "player": "Zoe", "cell": row, "dice": [6, 6, 6, 6, 6]},
        )
    page = client.get("/").text
    unfinished, finished = page.split('id="history-title"')
    assert f"/g/{running}" in unfinished and f"/g/{done.id}" not in unfinished
    assert f"/g/{done.id}" in finished and "Gewinner: Zoe" in finished


# ------------------------------------------------------------------- the sheet


def test_the_sheet_marks_due_cells_and_locks_every_cell_not_allowed(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    page = Elements(board(client, game_id))
    due = page.cell("Runter, Einser, Pflichtfeld")
    assert due.get("aria-disabled") == "true" and due["data-state"] == "waiting"
    assert page.cell("Rauf, Chance, Pflichtfeld")["data-state"] == "waiting"
    locked = page.cell("Runter, Zweier, gesperrt")
    assert locked["aria-disabled"] == "true" and "Einser" in locked["data-reason"]
    assert (
        page.cell("Rauf, Kniffel, gesperrt")["data-reason"]
        == "Rauf, Kniffel ist nicht dran; dran ist Chance"
    )
    assert page.cell("Frei, Einser, offen")["data-state"] == "waiting"
    # Ben is not to move: every empty cell of his sheet is locked.
    names = [a.get("aria-label", "") for a in page.find("button")]
    not_to_move = [name for name in names if "nicht am Zug" in name]
    assert len(not_to_move) == 39
    assert sorted(label for label in not_to_move if "Pflichtfeld" in label) == [
        "Rauf, Chance, Pflichtfeld, nicht am Zug",
        "Runter, Einser, Pflichtfeld, nicht am Zug",
    ]


def test_typed_dice_show_what_each_allowed_cell_would_score(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    html = board(client, game_id, dice="22256")
    page = Elements(html)
    open_cell = page.cell("Runter, Einser, Pflichtfeld, 0 Punkte möglich")
    assert open_cell.get("aria-disabled") is None and open_cell["value"] == "down.ones"
    assert open_cell["type"] == "submit"
    assert "Rauf, Chance, Pflichtfeld, 17 Punkte möglich" in labels(html)
    assert "Frei, Zweier, 6 Punkte möglich" in labels(html)
    assert "Frei, Einser, 0 Punkte möglich" in labels(html)
    assert "Runter, Zweier, gesperrt" in labels(html)


def test_entering_updates_the_cell_the_totals_and_the_turn(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    response = enter(client, game_id, "down.ones", dice="11156", version="0")
    assert response.status_code == 200
    html = response.text
    assert "<bdi>Ben</bdi> ist am Zug" in html
    assert "Runter, Einser, 3 Punkte" in labels(html)
    # The totals under Anna's down column: upper 3, bonus progress, total 3.
    assert "noch 60 bis zum Bonus" in html
    assert 'data-version="1"' in html
    # Now Anna's next due cell in ↓ is Zweier.
    page = Elements(client.get(f"/g/{game_id}/board", headers=HX).text)
    assert page.cell("Runter, Zweier, Pflichtfeld, nicht am Zug")


def test_points_instead_of_dice(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna")
    html = board(client, game_id, points="25")
    assert "Frei, Full House, 25 Punkte möglich" in labels(html)
    refused = Elements(html).cell(
        "Frei, Kleine Straße, 25 ist bei Kleine Straße nicht möglich; möglich sind 0, 30"
    )
    assert refused["data-state"] == "refused"
    response = enter(client, game_id, "free.full_house", points="25", version="0")
    assert response.status_code == 200
    assert service.get(game_id).game.total("Anna") == 25
    response = enter(client, game_id, "free.small_straight", points="25", version="1")
    assert response.status_code == 422
    assert "möglich sind 0, 30" in notice(response.text)


def test_a_locked_cell_cannot_be_entered_into(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna", "Ben")
    response = enter(client, game_id, "down.threes", dice="33312", version="0")
    assert response.status_code == 422
    assert notice(response.text) == "Runter, Dreier ist nicht dran; dran ist Einser"
    assert service.get(game_id).version == 0
    # The typed dice stay, so the player can pick an allowed cell at once.
    assert "Runter, Einser, Pflichtfeld, 1 Punkt möglich" in labels(response.text)


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"dice": "7712"}, 400, "Würfel als fünf Ziffern von 1 bis 6 eingeben"),
        ({"dice": "1234"}, 400, "Würfel als fünf Ziffern von 1 bis 6 eingeben"),
        ({"points": "zwölf"}, 400, "Punkte als ganze Zahl eingeben."),
        ({"dice": "11111", "points": "5"}, 422, "Würfel oder Punkte, nicht beides"),
        ({"cell": ""}, 400, "Bitte ein Feld wählen."),
        ({"cell": "down.eights"}, 422, "Unbekannte Zeile &#39;eights&#39;; die Zeilen sind Einser"),
        ({"version": "x"}, 400, "Der Spielstand im Formular ist keine ganze Zahl"),
    ],
)
def test_malformed_entries_answer_4xx_and_change_nothing(
    client: TestClient, service: GameService, fields: dict[str, str], status: int, message: str
) -> None:
    game_id = new_game(client, "Anna")
    data = {"cell": "down.ones", "dice": "11123", "version": "0", **fields}
    response = client.post(f"/g/{game_id}/enter", data=data, headers=HX)
    assert response.status_code == status
    assert message in notice(response.text)
    assert service.get(game_id).version == 0


def test_a_device_without_the_key_only_watches(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna")
    client.cookies.clear()
    html = client.get(f"/g/{game_id}").text
    assert "Nur ansehen" in html and "?key=" not in html
    assert all(a.get("aria-disabled") == "true" for a in Elements(html).find("button", name="cell"))
    response = enter(client, game_id, "down.ones", dice="11123")
    assert response.status_code == 403
    assert service.get(game_id).version == 0
    # The link with the key lets this device play (the key moves into a cookie).
    key = service.get(game_id).key
    opened = client.get(f"/g/{game_id}?key={key}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/g/{game_id}"
    assert enter(client, game_id, "down.ones", dice="11123").status_code == 200


def test_a_stale_version_is_a_conflict(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna", "Ben")
    assert enter(client, game_id, "down.ones", dice="11123", version="0").status_code == 200
    response = enter(client, game_id, "free.chance", dice="66666", version="0")
    assert response.status_code == 409
    assert "inzwischen geändert" in notice(response.text)
    assert service.get(game_id).version == 1


def test_without_htmx_a_post_redirects_to_the_board(client: TestClient) -> None:
    game_id = new_game(client, "Anna")
    data = {"cell": "free.chance", "dice": "66655", "version": "0"}
    response = client.post(f"/g/{game_id}/enter", data=data, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/g/{game_id}"
    refused = client.post(f"/g/{game_id}/enter", data={**data, "version": "1"})
    assert refused.status_code == 422 and "<html" in refused.text


def test_player_names_are_isolated_from_the_text_around_them(client: TestClient) -> None:
    """A right-to-left name cannot turn the words around it (issue 9, finding 8)."""
    game_id = new_game(client, "\u05d3\u05e0\u05d4", "Ben")  # Hebrew "Dana"
    for html in (client.get(f"/g/{game_id}").text, client.get("/").text):
        assert "<bdi>\u05d3\u05e0\u05d4</bdi>" in html
    page = client.get(f"/g/{game_id}").text
    assert "<bdi>\u05d3\u05e0\u05d4</bdi> ist am Zug" in page
    assert '<span class="player-name"><bdi>Ben</bdi></span>' in page
    assert '<span class="caption-name"><bdi>Ben</bdi></span>' in page
    evil = "<b>x</b>"
    escaped = client.get(f"/g/{new_game(client, evil)}").text
    assert "<bdi>&lt;b&gt;x&lt;/b&gt;</bdi> ist am Zug" in escaped


def test_player_names_are_always_escaped(client: TestClient) -> None:
    evil = '<script>alert("x")</script>'
    game_id = new_game(client, evil, "Ben & Co")
    for html in (client.get(f"/g/{game_id}").text, client.get("/").text):
        assert evil not in html
        assert "&lt;script&gt;alert(" in html
        assert "Ben &amp; Co" in html


def test_the_board_speaks_english(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    enter(client, game_id, "down.ones", dice="11156")
    html = client.get(f"/g/{game_id}/board?lang=en", headers=HX).text
    assert "Down, Ones, 3 points" in labels(html)
    assert "Down, Twos, due, not to move" in labels(html)
    assert "<bdi>Ben</bdi> to move" in html and "Upper sum" in html and "60 to the bonus" in html


# --------------------------------------------------------------- corrections


def test_edit_clear_and_undo_through_the_page(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna", "Ben")
    enter(client, game_id, "down.ones", dice="11156")
    edited = post(client, game_id, "edit", player="Anna", cell="down.ones", points="4")
    assert edited.status_code == 200 and "Runter, Einser, 4 Punkte" in labels(edited.text)
    bad = post(client, game_id, "edit", player="Anna", cell="down.ones", points="7")
    assert bad.status_code == 422
    assert notice(bad.text) == "7 ist bei Einser nicht möglich; möglich sind 0–5"
    cleared = post(client, game_id, "clear", player="Anna", cell="down.ones")
    assert cleared.status_code == 200
    # Cleared in an arrow column: Einser is due again, and Anna is to move again.
    assert "<bdi>Anna</bdi> ist am Zug" in cleared.text
    assert "Runter, Einser, Pflichtfeld" in labels(cleared.text)
    undone = post(client, game_id, "undo")
    assert undone.status_code == 200 and "Runter, Einser, 4 Punkte" in labels(undone.text)
    # Undo walks back further: the edit, then the entry itself.
    for _ in range(2):
        assert post(client, game_id, "undo").status_code == 200
    assert service.get(game_id).game.total("Anna") == 0
    empty = post(client, game_id, "undo")
    assert empty.status_code == 422 and notice(empty.text) == "Nichts rückgängig zu machen"


def test_a_restarted_server_shows_the_same_game(db_url: str) -> None:
    with TestClient(create_app(Settings(db=db_url))) as first:
        game_id = new_game(first, "Anna", "Ben")
        enter(first, game_id, "down.ones", dice="11156")
        before = first.get(f"/g/{game_id}/board", headers=HX).text
        cookies = dict(first.cookies.items())
    with TestClient(create_app(Settings(db=db_url)), cookies=cookies) as second:
        after = second.get(f"/g/{game_id}/board", headers=HX).text
    assert after == before
    assert "Runter, Einser, 3 Punkte" in labels(after) and 'id="enter-form"' in after


def test_the_undo_button_says_what_it_takes_back(client: TestClient) -> None:
    game_id = new_game(client, "Anna", "Ben")
    html = enter(client, game_id, "down.ones", dice="11156").text
    assert "Macht rückgängig: Eintrag von Anna: Runter, Einser (3)" in html
    # ... and the turn order it restores (docs/regeln.md: who has filled the fewest cells).
    assert "Danach ist Anna wieder dran." in html


# ------------------------------------------------------------- virtual dice


def test_virtual_dice_roll_hold_and_enter(client: TestClient, service: GameService) -> None:
    game_id = new_game(client, "Anna", dice_mode="virtual")
    html = client.get(f"/g/{game_id}").text
    assert "noch 3 Würfe" in html and 'name="dice"' not in html
    rolled = client.post(f"/g/{game_id}/roll", data={"version": "0"}, headers=HX)
    assert rolled.status_code == 200 and "Wurf 1 von 3 · noch 2 Würfe" in rolled.text
    dice = service.get(game_id).game.pending("Anna")
    assert dice is not None
    keep = dice[0].faces[:2]
    again = client.post(
        f"/g/{game_id}/roll", data={"keep": [str(f) for f in keep], "version": "1"}, headers=HX
    )
    assert again.status_code == 200
    second = service.get(game_id).game.pending("Anna")
    assert second is not None and second[1] == 2
    assert all(second[0].faces.count(f) >= keep.count(f) for f in keep)
    # The roll stands: the undo button is off, and the page refuses an undo.
    assert "Ein Wurf mit virtuellen Würfeln gilt" in again.text
    assert post(client, game_id, "undo").status_code == 422
    entered = enter(client, game_id, "free.chance", version="2")
    assert entered.status_code == 200
    assert service.get(game_id).game.total("Anna") == second[0].total
    # Dice typed into a virtual game are refused.
    assert enter(client, game_id, "free.ones", dice="11111").status_code == 422


def test_a_further_kniffel_is_explained(client: TestClient, service: GameService) -> None:
    view = service.create("kniffel", {"kniffel_bonus": 100, "joker": "forced"}, ["Anna"])
    service.apply(
        view.id,
        view.key,
        {"type": "enter", "player": "Anna", "cell": "kniffel", "dice": [6, 6, 6, 6, 6]},
    )
    client.get(f"/g/{view.id}?key={view.key}")
    html = board(client, view.id, dice="44444")
    assert "Weiterer Kniffel!" in html
    assert "+100 Kniffel-Bonus" in html
    assert "Joker (Pflicht): Der Kniffel muss in Vierer." in html
    assert "Vierer, 20 Punkte möglich, +100 Kniffel-Bonus, Joker" in labels(html)
    refused = Elements(html).cell("Full House, nicht mit diesem Wurf")
    assert refused["data-reason"] == "Joker-Pflicht: Der Kniffel muss in Vierer"


# --------------------------------------------------------------- the end


def _finished_game(service: GameService) -> Any:
    view = service.create("kniffel", {"chance": False}, ["Anna", "Ben"])
    rows = NO_CHANCE_ROWS
    for row in rows:
        for player, dice in (("Anna", [6, 6, 6, 5, 5]), ("Ben", [1, 2, 3, 4, 5])):
            service.apply(
                view.id, view.key, {"type": "enter", "player": player, "cell": row, "dice": dice}
            )
    return view


def test_the_end_announces_the_winner_with_a_chart(
    client: TestClient, service: GameService
) -> None:
    view = _finished_game(service)
    game = service.get(view.id).game
    html = client.get(f"/g/{view.id}").text
    winner = game.winners()[0]
    assert f"{winner} gewinnt mit {game.total(winner)} Punkten!" in html
    assert f'src="/g/{view.id}/chart.svg' in html and "Verlauf als Tabelle" in html
    svg = client.get(f"/g/{view.id}/chart.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<?xml") and "<svg" in svg.text


def test_the_record_download_replays_to_the_same_game(
    client: TestClient, service: GameService
) -> None:
    view = _finished_game(service)
    response = client.get(f"/g/{view.id}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    game = replay(loads(response.content))
    assert game.returns() == service.get(view.id).game.returns()


def test_running_totals_follow_undos_and_corrections() -> None:
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66612")))
    game.push(Enter("Ben", game.cell("chance"), points=20))
    game.push(Undo())
    game.push(Enter("Ben", game.cell("chance"), points=22))
    game.push(Enter("Anna", game.cell("chance"), points=30))
    assert chart.running_totals(game) == [[0, 18, 48], [0, 22]]


# ------------------------------------------------------------ import, share


def test_import_of_a_record(client: TestClient, service: GameService) -> None:
    record = {
        "format": "kniffel-record/1",
        "variant": "kniffel",
        "players": ["Anna"],
        "events": [{"type": "enter", "player": "Anna", "cell": "chance", "points": 23}],
    }
    files = {"record": ("game.json", json.dumps(record), "application/json")}
    response = client.post("/import", files=files, follow_redirects=False)
    assert response.status_code == 303
    game_id = response.headers["location"].removeprefix("/g/")
    assert service.get(game_id).game.total("Anna") == 23
    assert "Chance, 23 Punkte" in labels(client.get(f"/g/{game_id}").text)


def test_an_illegal_record_is_refused_with_its_event_number(
    client: TestClient, service: GameService
) -> None:
    record = {
        "format": "kniffel-record/1",
        "variant": "rauf-runter",
        "players": ["Anna"],
        "events": [
            {"type": "enter", "player": "Anna", "cell": "down.ones", "points": 3},
            {"type": "enter", "player": "Anna", "cell": "down.threes", "points": 9},
        ],
    }
    files = {"record": ("game.json", json.dumps(record), "application/json")}
    response = client.post("/import", files=files)
    assert response.status_code == 400
    assert (
        "Import abgelehnt, nichts gespeichert: Ereignis 2: Runter, Dreier ist nicht dran; "
        "dran ist Zweier" in response.text
    )
    assert service.list_games() == []
    broken = client.post("/import", files={"record": ("x.json", "{", "application/json")})
    assert broken.status_code == 400 and "kein gültiges JSON" in broken.text
    assert client.post("/import", data={}).status_code == 400


def test_the_share_panel_has_both_links_and_qr_codes(
    client: TestClient, service: GameService
) -> None:
    game_id = new_game(client, "Anna")
    key = service.get(game_id).key
    html = client.get(f"/g/{game_id}").text
    assert f"/g/{game_id}#key={key}" in html and "?key=" not in html
    assert html.count("<svg viewBox") >= 2 and "QR-Code des Mitspiel-Links" in html


def test_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/g/nope").status_code == 404
    assert client.get("/g/nope/board").status_code == 404
    assert client.post("/g/nope/enter", data={"cell": "chance"}).status_code == 404


# ------------------------------------------------------------------- i18n


def test_the_variant_notes_and_jokers_are_translated() -> None:
    from kniffel.web.pages import forms

    t, de = i18n.Translator("en"), i18n.Translator("de")
    notes = [p.note for p in forms.presets(t)]
    assert "One free column: 13 turns." in notes
    assert not set(notes) & {p.note for p in forms.presets(de)}
    assert all(t(name) != de(name) and t(note) != de(note) for _, name, note in forms.JOKERS)


@pytest.mark.parametrize(
    "path",
    [
        "",
        "/board",
        "/tipp",
        "/analyse",
        "/analyse/alle",
        "/analyse/verlauf.svg",
        "/chancen.svg",
        "/chart.svg",
        "/record",
    ],
)
def test_every_page_of_an_unknown_game_is_the_missing_page(client: TestClient, path: str) -> None:
    """The page routes load their game and leave an unknown id to one handler: the board's
    404 page in the page's language, as each route answered it itself before."""
    page = client.get(f"/g/nope{path}?lang=en")
    assert page.status_code == 404
    assert "Game not found." in page.text and page.headers["content-type"].startswith("text/html")
    data = client.get("/g/nope/chancen.json")
    assert data.status_code == 404 and data.json()["code"] == "game_not_found"


def captions(html: str) -> list[str]:
    return re.findall(r'<span class="caption-total">([^<]*)</span>', html)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("de", ["Anna: 1 Punkt", "Ben: 0 Punkte"]),
        ("en", ["Anna: 1 point", "Ben: 0 points"]),
        # French counts 0 and 1 alike: "0 point" (CLDR's plural rule, which Babel follows).
        ("fr", ["Anna\u00a0: 1 point", "Ben\u00a0: 0 point"]),
        ("hr", ["Anna: 1 bod", "Ben: 0 bodova"]),
    ],
)
def test_a_sheets_caption_counts_its_points_in_the_languages_plural(
    client: TestClient, lang: str, expected: list[str]
) -> None:
    """A desktop sheet's caption said "Anna: 1 Punkte" and "Chloé : 1 points"; it is the only
    place that counted points without the language's plural."""
    game_id = new_game(client, "Anna", "Ben")
    assert enter(client, game_id, "down.ones", dice="12345").status_code == 200
    assert sorted(captions(board(client, game_id, lang=lang))) == expected  # the mover's first
