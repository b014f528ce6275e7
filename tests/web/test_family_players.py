"""Finished Jamb and Yams games in the players' figures (issue 23): the player page and the CSV
export count the family's five of a kind (Jamb's ``jamb`` row, Yams' ``kniffel`` row) as
Kniffels, and show the games' totals."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.settings import Settings
from kniffel.web.app import create_app

JAMB_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
JAMB_ROWS = (*JAMB_UPPER, "max", "min", "trips", "straight", "full_house", "poker", "jamb")
#: Every row's dice but Jamb's: three of the face above, Max, Min, Triling, Kenta, Ful, Poker.
DICE = {
    **{
        row: [face] * 3 + [f for f in range(1, 7) if f != face][:2]
        for face, row in enumerate(JAMB_UPPER, start=1)
    },
    "max": [6, 6, 6, 5, 5],
    "min": [1, 1, 1, 2, 2],
    "trips": [4, 4, 4, 1, 2],
    "straight": [1, 2, 3, 4, 5],
    "full_house": [3, 3, 3, 2, 2],
    "poker": [5, 5, 5, 5, 2],
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}"), bots=BotSeats(delay=0))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def jamb_record(jambs: dict[str, int], *, hand: bool) -> dict[str, Any]:
    """A finished Jamb game in which each player makes the Jamb row (five sixes) in the first
    ``jambs[player]`` columns and misses it (four sixes) in the others."""
    columns = ["down", "free", "up", "announce"] + (["hand"] if hand else [])
    cells = [f"down.{row}" for row in JAMB_ROWS] + [f"up.{row}" for row in reversed(JAMB_ROWS)]
    cells += [f"{c}.{row}" for c in columns if c not in ("down", "up") for row in JAMB_ROWS]
    events = []
    for cell in cells:
        column, row = cell.split(".")
        for player, made in jambs.items():
            dice = DICE.get(row)
            if dice is None:
                dice = [6] * 5 if columns.index(column) < made else [6, 6, 6, 6, 5]
            # Ručna and the unannounced Najava take the first roll.
            event = {"type": "enter", "player": player, "cell": cell, "dice": dice, "roll": 1}
            events.append(event)
    return {
        "format": "kniffel-record/1",
        "variant": "jamb",
        "options": {"hand": hand},
        "players": list(jambs),
        "events": events,
    }


def imported(client: TestClient, record: dict[str, Any]) -> dict[str, Any]:
    created = client.post("/api/records", json=record)
    assert created.status_code == 201, created.text
    state: dict[str, Any] = client.get(f"/api/games/{created.json()['id']}").json()
    assert state["finished"] is True
    return state


def stat(page: str, name: str) -> str:
    found = re.search(rf'data-stat="{name}">([^<]*)<', page)
    assert found, name
    return found.group(1)


def test_jambs_jamb_row_counts_as_a_kniffel_on_the_player_page_and_in_the_csv(
    client: TestClient,
) -> None:
    state = imported(client, jamb_record({"Ana": 2, "Ivo": 0}, hand=False))
    ana = client.get("/api/players/ana").json()
    jamb = next(p for p in ana["presets"] if p["variant"] == "jamb")
    assert (jamb["kniffel_rate"], jamb["kniffels_per_game"]) == (1.0, 2.0)
    ivo = client.get("/api/players/ivo").json()
    assert next(p for p in ivo["presets"] if p["variant"] == "jamb")["kniffel_rate"] == 0.0
    page = client.get("/spieler/ana", params={"lang": "en"})
    assert page.status_code == 200
    assert stat(page.text, "kniffel-rate") == "100.0%"
    rows = list(csv.DictReader(io.StringIO(client.get("/export/spiele.csv").text.lstrip("\ufeff"))))
    assert {r["name"]: r["kniffels"] for r in rows if r["game"] == state["id"]} == {
        "Ana": "2",
        "Ivo": "0",
    }


def numbers(text: str) -> int:
    """A figure as the page writes it, thousands separator and all ("1,815")."""
    return int(re.sub(r"\D", "", text))


def test_a_finished_jamb_game_with_rucna_shows_its_totals_on_the_player_pages_and_in_the_csv(
    client: TestClient,
) -> None:
    """Jamb's four columns and Ručna are more than the three columns the player figures once
    kept per seat: the player API, page and CSV answered 500 for every Jamb player."""
    state = imported(client, jamb_record({"Ana": 1, "Ivo": 3}, hand=True))
    # Each column by docs/rules.md, "Jamb": Σ1 = 3 × (1 + … + 6) = 63, + 30 at 60 or more;
    # Σ2 = (Max 28 − Min 7) × ones 3; Σ3 = Triling 22 + Kenta on the first roll 66 + Ful 43
    # + Poker 60, and Jamb 80 where it is made (five sixes: 5 × 6 + 50).
    column = 63 + 30 + (28 - 7) * 3 + 22 + 66 + 43 + 60
    totals = {"Ana": 5 * column + 80, "Ivo": 5 * column + 3 * 80}
    assert {p["name"]: p["total"] for p in state["players"]} == totals
    for name, total in totals.items():
        figures = client.get(f"/api/players/{name.lower()}")
        assert figures.status_code == 200, figures.text
        jamb = next(p for p in figures.json()["presets"] if p["variant"] == "jamb")
        assert (jamb["games"], jamb["mean"], jamb["best"], jamb["worst"]) == (
            1,
            total,
            total,
            total,
        )
        page = client.get(f"/spieler/{name.lower()}", params={"lang": "hr"})
        assert page.status_code == 200, page.text
        assert numbers(stat(page.text, "best")) == total
        assert numbers(stat(page.text, "worst")) == total
    listing = client.get("/spieler", params={"lang": "hr"})
    assert listing.status_code == 200 and "Ana" in listing.text and "Ivo" in listing.text
    games = client.get("/export/spiele.csv")
    assert games.status_code == 200, games.text
    rows = [r for r in csv.DictReader(io.StringIO(games.text.lstrip("\ufeff")))]
    mine = {r["name"]: r for r in rows if r["game"] == state["id"]}
    assert {name: int(r["total"]) for name, r in mine.items()} == totals
    assert {name: r["place"] for name, r in mine.items()} == {"Ana": "2", "Ivo": "1"}
    players = client.get("/export/spieler.csv")
    assert players.status_code == 200, players.text
    figures_rows = list(csv.DictReader(io.StringIO(players.text.lstrip("\ufeff"))))
    means = {r["name"]: float(r["mean"]) for r in figures_rows if r["variant"] == "jamb"}
    assert means == {name: float(total) for name, total in totals.items()}
