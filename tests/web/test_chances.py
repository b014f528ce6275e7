"""Win chances in the board: the JSON, kept per version, and the end screen's chart."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.rules import ROWS
from kniffel.settings import Settings
from kniffel.solver.chances import refine
from kniffel.solver.chances.family import family_kept
from kniffel.web.app import create_app

from .conftest import CHART_WORK
from .waiting import settled

#: The board reads the presets' tables; a server builds them at its first start.
pytestmark = pytest.mark.usefixtures("preset_tables")


def _new(client: TestClient, variant: str, players: list[str]) -> Any:
    response = client.post("/api/games", json={"variant": variant, "players": players})
    assert response.status_code == 201, response.text
    return response.json()


def _enter(client: TestClient, game: Any, event: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/games/{game['id']}/events",
        json={"event": event},
        headers={"X-Kniffel-Key": game["key"]},
    )
    assert answer.status_code == 200, answer.text


def _chances(client: TestClient, path: str) -> Any:
    """The chances at ``path`` once the board's live worker has worked them out."""
    answer = client.get(path)
    if answer.status_code == 202:
        assert client.app.state.chances.live.join(timeout=600)  # type: ignore[attr-defined]
        answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_chances_answer_pending_then_the_figures(client: TestClient) -> None:
    """Issue 21: a simulated sheet costs up to seconds, which the request spent. Now the first
    request queues the work and answers at once how far it is; the board's live worker works
    the chances out once, and every later request gets the same figures."""
    game = _new(client, "rauf-runter", ["Anna", "Ben", "Cem"])
    path = f"/api/games/{game['id']}/chances"
    first = client.get(path)
    assert first.status_code == 202, first.text
    assert first.json()["code"] == "chances_pending"
    assert 0 <= first.json()["params"]["progress"] <= 1
    assert int(first.headers["retry-after"]) > 0
    live = client.app.state.chances.live  # type: ignore[attr-defined]
    assert live.join(timeout=600)
    figures = client.get(path)
    assert figures.status_code == 200, figures.text
    assert [p["name"] for p in figures.json()["players"]] == ["Anna", "Ben", "Cem"]
    assert client.get(path).json() == figures.json()
    assert client.get(f"/g/{game['id']}/chancen.json").json() == figures.json()
    assert live.worked == 1


def test_an_empty_game_is_even(client: TestClient) -> None:
    game = _new(client, "rauf-runter", ["Anna", "Ben", "Cem", "Dora"])
    body = _chances(client, f"/api/games/{game['id']}/chances")
    assert set(body) == {"version", "method", "samples", "refining", "players"}
    assert (
        body["refining"] is False
        and "retry-after" not in client.get(f"/g/{game['id']}/chancen.json").headers
    )
    assert body["method"] == "simulation"
    assert [p["name"] for p in body["players"]] == ["Anna", "Ben", "Cem", "Dora"]
    assert body["samples"] > 0
    for player in body["players"]:
        assert set(player) == {
            *("name", "win", "interval", "method", "samples", "expected_total", "p10", "p90")
        }
        assert player["method"] == "simulation" and player["samples"] == body["samples"]
        assert player["win"] == pytest.approx(0.25)  # equal sheets: the same games
        low, high = player["interval"]
        assert low < 0.25 < high
        # the best bot's mean over 100,000 seeded games (docs/bot.md) is 687.72
        assert abs(player["expected_total"] - 687.72) < 3
        assert player["p10"] < player["expected_total"] < player["p90"]


def test_a_lead_shows_and_a_finished_game_is_decided(client: TestClient) -> None:
    game = _new(client, "kniffel", ["Anna", "Ben"])
    _enter(client, game, {"type": "enter", "player": "Anna", "cell": "main.kniffel", "points": 50})
    body = _chances(client, f"/api/games/{game['id']}/chances")
    assert body["method"] == "simulation"  # twelve entries left: simulated
    anna, ben = body["players"]
    assert anna["win"] > 0.6 > ben["win"]
    assert anna["win"] + ben["win"] == pytest.approx(1.0)
    assert anna["expected_total"] == pytest.approx(ben["expected_total"] + 50, abs=25)
    first = body["version"]
    middle = [row.value for row in ROWS if row.value not in ("kniffel", "chance")]
    _enter(client, game, {"type": "enter", "player": "Ben", "cell": "main.kniffel", "points": 0})
    for row in middle:
        for name in ("Anna", "Ben"):
            event = {"type": "enter", "player": name, "cell": f"main.{row}", "points": 0}
            _enter(client, game, event)
    for name in ("Anna", "Ben"):
        _enter(client, game, {"type": "enter", "player": name, "cell": "main.chance", "points": 5})
    body = _chances(client, f"/api/games/{game['id']}/chances")
    assert body["version"] > first
    # Anna: 50 + 5; Ben: zeros and 5: Anna has won
    assert body["method"] == "exact"
    assert [p["win"] for p in body["players"]] == [1.0, 0.0]
    assert [p["interval"] for p in body["players"]] == [[1.0, 1.0], [0.0, 0.0]]
    assert [p["expected_total"] for p in body["players"]] == [55.0, 5.0]
    chart = _drawn_chart(client, game["id"])
    assert chart.headers["content-type"].startswith("image/svg+xml")
    page = client.get(f"/g/{game['id']}")
    assert f"/g/{game['id']}/chancen.svg" in page.text
    assert "data-chances-switch" in page.text


def _drawn_chart(client: TestClient, game_id: str) -> Any:
    """The end chart, once the board's worker has drawn it."""
    charts = client.app.state.chances  # type: ignore[attr-defined]
    client.get(f"/g/{game_id}/chancen.svg")
    assert charts.join(timeout=600)
    chart = client.get(f"/g/{game_id}/chancen.svg")
    assert chart.status_code == 200, chart.text
    return chart


def _imported(client: TestClient, variant: str, players: list[str], seed: int) -> str:
    import random

    from kniffel.board.players.sample import random_record

    answer = client.post("/api/records", json=random_record(variant, players, random.Random(seed)))
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    return game_id


def test_the_end_chart_is_drawn_off_the_request(client: TestClient) -> None:
    """The chart values every position of the game (seconds to minutes): its request answers
    at once that it is being drawn and queues it; the board's worker draws it once; later
    requests get the chart, and nothing is computed again."""
    game_id = _imported(client, "kniffel", ["Anna", "Ben"], 20)
    first = client.get(f"/g/{game_id}/chancen.svg", headers={"Accept-Language": "de"})
    assert first.status_code == 202
    charts = client.app.state.chances  # type: ignore[attr-defined]
    assert first.headers["content-type"].startswith("image/svg+xml")
    assert "Das Diagramm wird gezeichnet" in first.text
    assert int(first.headers["retry-after"]) > 0
    again = client.get(f"/g/{game_id}/chancen.svg", headers={"Accept-Language": "de"})
    assert again.status_code in (200, 202)  # queued once, not twice
    assert charts.join(timeout=600)
    assert charts.series_computed == 1
    drawn = client.get(f"/g/{game_id}/chancen.svg", headers={"Accept-Language": "de"})
    assert drawn.status_code == 200
    assert "Gewinnchancen nach jedem Eintrag" in drawn.text
    assert "data-chart-pending" not in drawn.text
    english = client.get(f"/g/{game_id}/chancen.svg?lang=en")
    assert english.status_code == 202  # another language: drawn anew, from the same series
    assert charts.join(timeout=600)
    assert "Win chances after every entry" in client.get(f"/g/{game_id}/chancen.svg?lang=en").text
    assert charts.series_computed == 1


def test_a_finished_jamb_game_gets_its_end_chart_a_point_per_round(client: TestClient) -> None:
    """Issue 32: Jamb and Yams had no end chart (each position is thousands of bot games); now
    the board's worker draws one with a point per round from a bounded number of games, with
    its 95 % interval as a band, in the page's words."""
    game_id = _imported(client, "jamb", ["Ana", "Ben"], 3)
    first = client.get(f"/g/{game_id}/chancen.svg?lang=hr")
    assert first.status_code == 202 and "data-chart-pending" in first.text
    charts = client.app.state.chances  # type: ignore[attr-defined]
    assert charts.join(timeout=600)
    drawn = client.get(f"/g/{game_id}/chancen.svg?lang=hr")
    assert drawn.status_code == 200, drawn.text
    assert drawn.headers["content-type"].startswith("image/svg+xml")
    assert "Izgledi za pobjedu nakon svakog kruga" in drawn.text and "Krug" in drawn.text
    assert "data-chart-pending" not in drawn.text and "Kniffel" not in drawn.text
    assert drawn.text.count('class="band"') == 2  # each player's interval
    page = client.get(f"/g/{game_id}?lang=hr").text
    assert "data-chances-chart" in page and "Izgledi za pobjedu nakon svakog kruga" in page


def test_one_client_cannot_queue_charts_without_bound(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One client has at most ``per_client`` charts waiting; beyond, a 503 with Retry-After
    that queues nothing (the worker draws one chart at a time).

    The drawing is held until the queue is checked: on a slow machine the worker took the
    first chart only after the third request had come, and the client's share was full one
    request early (CI, [202, 202, 503, 202])."""
    import threading

    from kniffel.board.chances import ChancesService

    drawing, release = threading.Event(), threading.Event()

    def held(self: ChancesService, *args: Any) -> str:
        drawing.set()
        release.wait(timeout=600)
        return "<svg/>"  # what is drawn is not the point here

    monkeypatch.setattr(ChancesService, "_draw", held)
    charts = client.app.state.chances  # type: ignore[attr-defined]
    games = [_imported(client, "rauf-runter", ["Anna", "Ben"], seed) for seed in range(4)]
    answers = [client.get(f"/g/{games[0]}/chancen.svg")]
    assert drawing.wait(timeout=600)  # the worker holds the first chart
    answers += [client.get(f"/g/{g}/chancen.svg") for g in games[1:]]
    # the first is being drawn, the next two wait: the client's share is full
    assert [a.status_code for a in answers] == [202, 202, 202, 503]
    assert int(answers[3].headers["retry-after"]) > 0
    assert charts.waiting() == 3
    release.set()
    charts.close()  # the waiting ones are dropped


#: Per preset: the cells each player fills in turn (with 0 points, Chance 20) and after which
#: of them the three paths are compared: far from the end (simulated) and, in one column,
#: near it (exact). Rauf-Runter's ↓ and ↑ columns go in their order.
THREE_PATHS = {
    "kniffel": ([f"main.{row.value}" for row in ROWS], (1, 10, 11), {"simulation", "exact"}),
    "yahtzee": ([f"main.{row.value}" for row in ROWS], (1, 11), {"simulation", "exact"}),
    "rauf-runter": (
        ["down.ones", "up.chance", "free.sixes", "down.twos"],
        (0, 3),
        {"simulation"},
    ),
    "dreifach": (["x1.chance", "x2.ones", "x3.kniffel"], (0, 2), {"simulation"}),
}


@pytest.mark.parametrize("variant", list(THREE_PATHS))
def test_the_series_the_api_and_the_board_agree(
    client: TestClient, variant: str, tmp_path: Path
) -> None:
    """One position, three paths: ``kniffel chances --json`` on the game's record (the series
    of the end-of-game chart too), the API and the board's tabs give the same chance and
    interval, simulated and exact alike, in every preset."""
    from click.testing import CliRunner

    from kniffel.cli import cli

    cells, compared, methods = THREE_PATHS[variant]
    game = _new(client, variant, ["Anna", "Ben"])
    checked = set()
    for index, cell in enumerate(cells):
        for name in ("Anna", "Ben"):
            points = 20 if cell.endswith(".chance") else 0
            _enter(client, game, {"type": "enter", "player": name, "cell": cell, "points": points})
        if index not in compared:
            continue
        api = _chances(client, f"/api/games/{game['id']}/chances")
        page = _chances(client, f"/g/{game['id']}/chancen.json")
        assert page == api
        record = client.get(f"/g/{game['id']}/record").content
        path = tmp_path / "game.json"
        path.write_bytes(record)
        result = CliRunner().invoke(cli, ["chances", "--json", str(path)])
        assert result.exit_code == 0, result.output
        last = json.loads(result.output)["turns"][-1]
        assert last["event"] == 2 * (index + 1)
        for player in api["players"]:
            assert last["chances"][player["name"]] == player["win"]
            assert last["intervals"][player["name"]] == player["interval"]
        assert last["method"] == api["method"]
        assert last["samples"] == api["samples"]
        checked.add(api["method"])
    assert checked == methods


def test_unknown_game(client: TestClient) -> None:
    assert client.get("/api/games/nope/chances").status_code == 404
    assert client.get("/g/nope/chancen.svg").status_code == 404


def test_the_tipp_auf_sieg_plays_for_the_win(client: TestClient) -> None:
    """Ben's last turn, only Chance open, Anna finished with 30, Ben holding 6 6 6 5 1 after
    roll 2: for points keep 6 6 6 5; for the win (a tie needs two more sixes) keep 6 6 6."""
    game = _new(client, "kniffel", ["Anna", "Ben"])
    for row in [r.value for r in ROWS if r.value != "chance"]:
        for name in ("Anna", "Ben"):
            _enter(
                client, game, {"type": "enter", "player": name, "cell": f"main.{row}", "points": 0}
            )
    _enter(client, game, {"type": "enter", "player": "Anna", "cell": "main.chance", "points": 30})
    _enter(client, game, {"type": "roll", "player": "Ben", "dice": [6, 6, 6, 1, 2]})
    _enter(client, game, {"type": "roll", "player": "Ben", "dice": [6, 6, 6, 5, 1], "keep": [6, 6]})
    points = client.get(f"/api/games/{game['id']}/advice").json()
    assert points["choices"][0]["keep"] == [5, 6, 6, 6]
    body = settled(client, f"/api/games/{game['id']}/advice/win").json()
    assert body["player"] == "Ben"
    best = body["choices"][0]
    assert best["action"] == "roll" and best["keep"] == [6, 6, 6]
    assert best["win"] == pytest.approx(0.5 / 36, abs=1e-4)  # two sixes tie: half a win
    everything = settled(client, f"/api/games/{game['id']}/advice/win?top=500").json()["choices"]
    points_keep = next(c for c in everything if c.get("keep") == [5, 6, 6, 6])
    assert points_keep["win"] < 1e-4  # 23 and one die never reach 30
    finished = client.get("/api/games/nope/advice/win")
    assert finished.status_code == 404


def test_jamb_chances_narrow_after_their_first_answer_until_the_cap_and_a_new_entry_stops_it(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: Jamb's chances rested on a first answer's games (about ±7 points a quarter
    into a game). Now the board narrows them in the background, answering each narrower range
    with ``refining`` true until the range is within ±3 points or each sheet has ``cap`` times
    its first answer's games; an entry stops the narrowing of the version it leaves behind."""
    first = 24  # games a sheet's first answer plays: a fraction of a second here
    monkeypatch.setattr(refine, "family_samples_for", lambda left: first if left > 0 else 0)
    settings = Settings(db=db_url, chart_work=CHART_WORK, chances_refine=4)
    with TestClient(create_app(settings)) as client:
        service = client.app.state.chances  # type: ignore[attr-defined]
        game = _new(client, "jamb", ["Ana", "Ivo"])
        for name, dice, row in (
            ("Ana", [6, 6, 6, 6, 2], "poker"),
            ("Ivo", [1, 1, 2, 3, 4], "ones"),
        ):
            _enter(client, game, {"type": "roll", "player": name, "dice": dice})
            _enter(client, game, {"type": "enter", "player": name, "cell": f"free.{row}"})
        path = f"/g/{game['id']}/chancen.json"
        answers = [_chances(client, path)]
        assert answers[0]["refining"] is True  # 24 games a sheet: far wider than ±3
        assert [p["samples"] for p in answers[0]["players"]] == [first, first]
        while answers[-1]["refining"] and len(answers) < 20:
            answer = client.get(path)
            assert answer.status_code == 200 and answer.headers["retry-after"] == "1"
            assert service.live.join(timeout=600)
            answers.append(client.get(path).json())
        last = answers[-1]
        assert not last["refining"] and "retry-after" not in client.get(path).headers
        games = [p["samples"] for p in last["players"]]
        assert max(games) > first and all(n <= 4 * first for n in games)  # the cap: 4 times

        def width(body: Any) -> float:
            return max(p["interval"][1] - p["interval"][0] for p in body["players"])

        assert width(last) < width(answers[0])

        # The next entry: its narrowing is held before it plays, a newer entry comes, and the
        # held narrowing stops at its next game without keeping one.
        held, go = threading.Event(), threading.Event()
        real = refine.family_forecast

        def holding(*args: Any, **kwargs: Any) -> Any:
            held.set()
            assert go.wait(timeout=600)
            return real(*args, **kwargs)

        monkeypatch.setattr(refine, "family_forecast", holding)
        _enter(client, game, {"type": "roll", "player": "Ana", "dice": [5, 5, 5, 1, 2]})
        _enter(client, game, {"type": "enter", "player": "Ana", "cell": "free.trips"})
        second = client.app.state.service.get(game["id"])  # type: ignore[attr-defined]
        assert _chances(client, path)["refining"] is True  # its narrowing is queued
        assert held.wait(timeout=600)
        _enter(client, game, {"type": "roll", "player": "Ivo", "dice": [2, 2, 2, 3, 4]})
        _enter(client, game, {"type": "enter", "player": "Ivo", "cell": "free.twos"})
        assert service.superseded(second)  # the entry itself, asked for or not
        assert client.get(path).status_code == 202  # the newest version's first answer waits
        go.set()
        assert service.live.join(timeout=600)
        assert family_kept(second.game, 0) == first  # Ana's new sheet: no game more kept
        stale = service.chances(second, "test")
        assert not isinstance(stale, float) and stale.refining is False
        assert [p.samples for p in stale.players] == [first, 4 * first]
        assert client.get(path).json()["refining"] in (True, False)  # the newest goes on
