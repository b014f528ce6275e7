"""Jamb and Yams on the board: a record imports and shows, the API reads it with Jamb's sums,
and the form and the API start new Jamb and Yams games with their house rules."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.record import loads, replay
from kniffel.settings import Settings
from kniffel.web.app import create_app

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}"), bots=BotSeats(delay=0))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def imported(client: TestClient, name: str) -> str:
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    files = {"record": ("game.json", text, "application/json")}
    response = client.post("/import", files=files, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).split("/g/", 1)[1].split("?")[0].split("#")[0]


@pytest.mark.parametrize("name", ["jamb-announce", "jamb-hand-and-middle", "yams-french"])
def test_a_family_record_imports_and_every_page_of_it_answers(
    client: TestClient, name: str
) -> None:
    game_id = imported(client, name)
    pages: tuple[str, ...] = (
        "",
        "/board",
        "/record",
        "/chart.svg",
        "/tipp",
        "/analyse",
        "/analyse/alle",
    )
    pages += ("/analyse/verlauf.svg", "/chancen.json", "/chancen.svg")
    for path in pages:
        response = client.get(f"/g/{game_id}{path}")
        assert response.status_code < 500, (path, response.text[:300])
    # the records stop mid-game: the Tipp advises as the best family bot plays
    tipp = client.get(f"/g/{game_id}/tipp")
    assert tipp.status_code == 200 and "Die Heuristik des starken Bots" in tipp.text
    state = client.get(f"/api/games/{game_id}")
    assert state.status_code == 200, state.text
    expected = json.loads((DATA / f"{name}.expected").read_text(encoding="utf-8"))
    assert [p["total"] for p in state.json()["players"]] == [
        p["total"] for p in expected["players"]
    ]


def test_the_api_shows_jambs_sums_and_options(client: TestClient) -> None:
    state = client.get(f"/api/games/{imported(client, 'jamb-announce')}").json()
    column = state["players"][0]["columns"]["announce"]
    assert (column["sum1"], column["sum2"], column["sum3"], column["total"]) == (0, 0, 178, 178)
    assert state["options"]["trips_bonus"] == 10
    assert [c["discipline"] for c in state["columns"]][-1] == "announce"


def test_the_form_starts_a_jamb_game_with_its_house_rules(client: TestClient) -> None:
    # The Kniffel fields the form also holds (Chance, joker) are not Jamb's: they are not read.
    form = {
        "variant": "jamb",
        "player": ["Ana", "Ivo"],
        "house_rules": "1",
        "chance": "1",
        "joker": "free",
        "kniffel_bonus": "0",
        "trips_bonus": "20",
        "straight_fixed": "1",
        "sum2_bonus": "1",
        "sum2_bonus_points": "40",
        "hand": "1",
        "announce": "1",
    }
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    game_id = str(response.headers["location"]).rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").json()
    assert state["variant"] == "jamb"
    assert state["options"] == {
        "trips_bonus": 20,
        "straight_fixed": True,
        "sum2_bonus": True,
        "sum2_bonus_points": 40,
        "sum2_negative": False,
        "full_five": False,
        "hand": True,
        "middle": False,
    }
    assert [c["id"] for c in state["columns"]] == ["down", "free", "up", "announce", "hand"]


def test_a_sum2_bonus_of_40_without_the_bonus_is_refused_in_words(client: TestClient) -> None:
    """Ticked alone, "Σ2-Bonus 40" changed nothing, silently: a new game says so and starts
    nothing; a record that has it still replays as written (docs/rules.md, "Jamb")."""
    form = {"variant": "jamb", "player": ["Ana"], "house_rules": "1", "sum2_bonus_points": "40"}
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 422
    assert "Ein Σ2-Bonus von 40 Punkten gilt nur mit dem Σ2-Bonus" in html.unescape(response.text)
    body = {"variant": "jamb", "players": ["Ana"], "options": {"sum2_bonus_points": 40}}
    answer = client.post("/api/games", json=body, headers={"Accept-Language": "en"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "option_alone"
    assert client.get("/api/games").json() == []
    record = {"format": "kniffel-record/1", "variant": "jamb", "players": ["Ana"]}
    record["options"] = {"sum2_bonus_points": 40}
    assert replay(loads(json.dumps(record))).options.sum2_bonus_points == 40


def test_the_form_starts_a_yams_game_with_the_announce_column(client: TestClient) -> None:
    form = {
        "variant": "yams",
        "player": ["Léa"],
        "house_rules": "1",
        "chance": "1",
        "pasch": "matching_dice",
        "joker": "none",
        "kniffel_bonus": "0",
        "middle": "1",  # Jamb's column: not Yams'
        "announce": "1",
    }
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    game_id = str(response.headers["location"]).rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").json()
    assert [c["id"] for c in state["columns"]] == ["down", "up", "free", "announce"]
    assert state["options"]["announce"] is True and state["options"]["hand"] is False


def test_the_start_page_offers_jamb_and_yams_with_their_rules(client: TestClient) -> None:
    page = client.get("/", params={"lang": "hr"}).text
    assert 'value="jamb"' in page and 'value="yams"' in page
    for field in ("trips_bonus", "straight_fixed", "sum2_bonus", "hand", "middle", "announce"):
        assert f'name="{field}"' in page


@pytest.mark.parametrize("variant", ["jamb", "yams"])
def test_the_api_starts_a_family_game(client: TestClient, variant: str) -> None:
    options = {"middle": True} if variant == "jamb" else {"announce": True}
    body = {"variant": variant, "players": ["Anna"], "options": options}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    state = client.get(f"/api/games/{created.json()['id']}").json()
    assert state["variant"] == variant and state["columns"][-1]["discipline"] in (
        "middle",
        "announce",
    )


def test_a_house_rule_the_preset_lacks_is_refused_plainly(client: TestClient) -> None:
    body = {"variant": "jamb", "players": ["Anna"], "options": {"chance": False}}
    api = client.post("/api/games", json=body)
    assert api.status_code == 400  # the rules' refusal, as for any option a preset lacks
    assert "chance" in api.json()["message"]
    bad = {"variant": "jamb", "players": ["Anna"], "options": {"trips_bonus": 15}}
    assert client.post("/api/games", json=bad).status_code == 422


def test_the_api_imports_a_jamb_record_with_its_announcements_and_rolls(client: TestClient) -> None:
    record = json.loads((DATA / "jamb-announce.json").read_text(encoding="utf-8"))
    created = client.post("/api/records", json=record)
    assert created.status_code == 201, created.text
    state = client.get(f"/api/games/{created.json()['id']}").json()
    assert [p["total"] for p in state["players"]] == [178, 15]


def test_the_api_takes_an_announcement_and_an_entry_with_its_roll(client: TestClient) -> None:
    record = json.loads((DATA / "jamb-announce.json").read_text(encoding="utf-8"))
    record["events"] = record["events"][:1]  # Anna's first roll
    game = client.post("/api/records", json=record).json()

    def send(event: dict[str, object]) -> dict[str, object]:
        headers = {"X-Kniffel-Key": game["key"]}
        body = {"event": event}
        response = client.post(f"/api/games/{game['id']}/events", json=body, headers=headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    send({"type": "announce", "player": "Anna", "cell": "announce.poker"})
    send({"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 1], "keep": [6, 6, 6]})
    state = send({"type": "enter", "player": "Anna", "cell": "announce.poker", "roll": 2})
    assert state["players"][0]["total"] == 64  # type: ignore[index]


def _sheet(page: str, seat: int) -> str:
    start = page.index(f'id="sheet-{seat}"')
    return page[start : page.index("</section>", start)]


def _line(sheet: str, head: str) -> list[str]:
    found = re.search(
        rf'<th scope="row">{re.escape(head)}</th>\s*((?:<td[^>]*>[^<]*</td>)+)', sheet
    )
    assert found is not None, head
    return re.findall(r"<td[^>]*>([^<]*)</td>", found.group(1))


@pytest.mark.parametrize(
    ("lang", "heads", "rows"),
    [
        (
            "hr",
            ["↓ Dolje", "Slobodna", "↑ Gore", "Najava", "Ručna", "↕ Od sredine"],
            ["Jedinice", "Max", "Min", "Triling", "Kenta", "Ful", "Poker", "Jamb"],
        ),
        (
            "sr-Latn",
            ["↓ Na dole", "Slobodna", "↑ Na gore", "Najava", "Ručna", "↕ Od sredine"],
            ["Jedinice", "Max", "Min", "Triling", "Kenta", "Ful", "Poker", "Jamb"],
        ),
        (
            "de",
            ["↓ Runter", "Frei", "↑ Rauf", "Ansage", "Hand", "↕ Von der Mitte"],
            ["Einser", "Max", "Min", "Drilling", "Straße", "Full House", "Poker", "Jamb"],
        ),
    ],
)
def test_the_board_draws_a_jamb_sheet_in_the_players_words_with_its_three_sums(
    client: TestClient, lang: str, heads: list[str], rows: list[str]
) -> None:
    game_id = imported(client, "jamb-hand-and-middle")
    sheet = _sheet(client.get(f"/g/{game_id}", params={"lang": lang}).text, 0)
    # Six columns: each head a mark (↓ S ↑ N R ↕), its full name read aloud and in the legend.
    marked = re.findall(
        r'<th scope="col" class="col-head short [a-z]+"><span aria-hidden="true">([^<]+)</span> '
        r'<span class="sr-only">([^<]+)</span></th>',
        sheet,
    )
    assert [f"{mark} {name}" if mark in "↓↑↕" else name for mark, name in marked] == heads
    assert [mark for mark, _ in marked][1::2] == [heads[1][0], heads[3][0], heads[5][0]]
    legend = re.search(r'<p class="col-legend" aria-hidden="true">(.*?)</p>', sheet)
    assert legend and re.sub(r"<[^>]+>", "", legend.group(1)).count(heads[1]) == 1
    shown = re.findall(r'<th scope="row" class="row-head">([^<]+)</th>', sheet)
    assert len(shown) == 13 and set(rows) <= set(shown)
    # Σ1, Σ2, Σ3 and the total under each column are the rules' (as the API and
    # `kniffel replay --json` give them).
    columns = client.get(f"/api/games/{game_id}").json()["players"][0]["columns"]
    order = ["down", "free", "up", "announce", "hand", "middle"]
    for head, key in (("Σ1", "sum1"), ("Σ2", "sum2"), ("Σ3", "sum3")):
        assert _line(sheet, head) == [str(columns[c][key]) for c in order], head
    assert any(columns[c]["sum2"] for c in order)  # the sums shown are not all nought
    assert "Summe oben" not in sheet and "Kniffel-Bonus" not in sheet


def _new_board(client: TestClient, dice_mode: str, **options: str) -> str:
    form = {"variant": "jamb", "player": ["Ana", "Ivo"], "dice_mode": dice_mode, **options}
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).rsplit("/", 1)[1]


def _version(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def test_announcing_is_one_button_per_row_after_the_first_roll_and_shows_to_everybody(
    client: TestClient,
) -> None:
    game_id = _new_board(client, "virtual")
    page = client.get(f"/g/{game_id}").text
    assert "announce-btn" not in page  # nothing rolled yet: nothing to announce
    early = client.post(
        f"/g/{game_id}/announce", data={"version": _version(page), "cell": "announce.straight"}
    )
    assert early.status_code == 422 and "Ana" in early.text
    client.post(f"/g/{game_id}/roll", data={"version": _version(page)})
    page = client.get(f"/g/{game_id}").text
    names = re.findall(r'class="announce-btn"[^>]*aria-label="([^"]+)"', page)
    assert len(names) == 13 and "Ansage: Straße" in names
    answer = client.post(
        f"/g/{game_id}/announce", data={"version": _version(page), "cell": "announce.straight"}
    )
    assert answer.status_code == 200, answer.text
    # A watching phone (no key) sees the announced row marked, and no button to announce.
    with TestClient(client.app) as watcher:
        seen = watcher.get(f"/g/{game_id}").text
    assert re.search(
        r'<td class="cell [^"]*announced[^"]*"><button[^>]*id="c0-announce\.straight"', seen
    )
    assert "Ansage, Straße, angesagt" in seen and "announce-btn" not in seen
    state = client.get(f"/api/games/{game_id}").json()
    assert state["turn"]["allowed"] == ["announce.straight"]


def test_with_real_dice_the_player_says_the_roll_where_it_matters(client: TestClient) -> None:
    game_id = _new_board(client, "physical", house_rules="1", hand="1")
    page = client.get(f"/g/{game_id}").text
    # The roll buttons reach the preview: a late roll cannot go into the hand column.
    late = client.get(f"/g/{game_id}/board", params={"dice": "66666", "rolls": "2"}).text
    assert re.search(r'<td class="cell refused[^"]*"><button[^>]*id="c0-hand\.jamb"', late)
    first = client.get(f"/g/{game_id}/board", params={"dice": "66666", "rolls": "1"}).text
    assert re.search(r'<td class="cell open[^"]*"><button[^>]*id="c0-hand\.jamb"', first)
    refused = client.post(
        f"/g/{game_id}/enter",
        data={"version": _version(page), "cell": "hand.jamb", "dice": "66666", "rolls": "2"},
    )
    assert refused.status_code == 422
    assert "Wurf 2" in refused.text
    taken = client.post(
        f"/g/{game_id}/enter",
        data={"version": _version(page), "cell": "hand.jamb", "dice": "66666", "rolls": "1"},
    )
    assert taken.status_code in (200, 303), taken.text
    ana = client.get(f"/api/games/{game_id}").json()["players"][0]
    assert ana["columns"]["hand"]["sum3"] == 80  # 5 × 6 + 50
