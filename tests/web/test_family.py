"""Jamb and Yams on the board before it starts them: a record imports and shows, the API
reads it with Jamb's sums, and asking for a new Jamb game is refused in plain words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
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
    label = "Jamb" if name.startswith("jamb") else "Yams"
    tipp = client.get(f"/g/{game_id}/tipp")
    assert f"Tipp, Analyse und Chancen gibt es für {label} noch nicht" in tipp.text
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


@pytest.mark.parametrize("variant", ["jamb", "yams"])
def test_a_new_family_game_is_refused_plainly_not_a_server_error(
    client: TestClient, variant: str
) -> None:
    form = client.post("/games", data={"variant": variant, "player": ["Anna", "Ben"]})
    assert form.status_code == 422
    assert "Unbekannte Variante" in form.text
    api = client.post("/api/games", json={"variant": variant, "players": ["Anna"]})
    assert api.status_code == 422
    assert "variant" in api.json()["message"]


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
