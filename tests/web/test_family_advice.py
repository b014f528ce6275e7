"""The Tipp, the review and the chances of Jamb and Yams: the ``best`` family bot's heuristic
(docs/solver.md, "Jamb and Yams: the bot's heuristic")."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.chances import LIVE_PER_CLIENT
from kniffel.record import dumps, loads, replay
from kniffel.rules import (
    Announce,
    AnnounceAction,
    Cell,
    Dice,
    Enter,
    EnterAction,
    Game,
    Roll,
    RollAction,
    Row,
    get_variant,
    turns_of,
)
from kniffel.settings import Settings
from kniffel.solver.chances.family import MAX_SAMPLES
from kniffel.solver.chances.forecast import forecast
from kniffel.solver.play.family import make_family_bot, play_game
from kniffel.web.app import create_app

from .waiting import settled


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # The chances stay their first answer, not narrowed (tests/web/conftest.py, CHANCES_REFINE).
    settings = Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}", chances_refine=1)
    app = create_app(settings, bots=BotSeats(delay=0))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def started(client: TestClient, variant: str, options: dict[str, Any] | None = None) -> Any:
    body = {"variant": variant, "players": ["Ana", "Ivo"], "options": options or {}}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    return created.json()


def send(client: TestClient, game: Any, event: dict[str, Any]) -> None:
    headers = {"X-Kniffel-Key": game["key"]}
    answer = client.post(f"/api/games/{game['id']}/events", json={"event": event}, headers=headers)
    assert answer.status_code == 200, answer.text


def the_bots_action(client: TestClient, game_id: str) -> RollAction | EnterAction | AnnounceAction:
    record = client.get(f"/api/games/{game_id}/record").json()
    played = replay(loads(json.dumps(record).encode()))
    return make_family_bot("best", played.variant).choose(played)


def described(action: RollAction | EnterAction | AnnounceAction) -> dict[str, Any]:
    if isinstance(action, RollAction):
        return {"action": "roll", "keep": list(action.keep)}
    kind = "enter" if isinstance(action, EnterAction) else "announce"
    return {"action": kind, "cell": str(action.cell)}


@pytest.mark.parametrize(
    ("variant", "options"), [("jamb", {}), ("yams", {"hand": True, "announce": True})]
)
def test_the_tipp_of_a_family_game_lists_keeps_entries_and_announcements_as_the_bot_plays(
    client: TestClient, variant: str, options: dict[str, Any]
) -> None:
    game = started(client, variant, options)
    send(client, game, {"type": "roll", "player": "Ana", "dice": [6, 6, 6, 2, 1]})
    answer = client.get(f"/api/games/{game['id']}/advice", params={"top": 100})
    assert answer.status_code == 200, answer.text
    advice = answer.json()
    assert advice["source"] == "heuristic" and advice["exact"] is False
    assert advice["chances"] is None and advice["chances_pending"] is False
    kinds = {c["action"] for c in advice["choices"]}
    assert kinds == {"roll", "enter", "announce"}
    values = [c["expected"] for c in advice["choices"]]
    assert values == sorted(values, reverse=True) and advice["expected"] == values[0]
    assert all(c["cost"] >= 0 for c in advice["choices"])
    # the best choice is what the best bot does in that position
    best = advice["choices"][0]
    shown = {k: best[k] for k in ("action", "keep", "cell") if k in best}
    assert shown == described(the_bots_action(client, game["id"]))
    # each announcement names an empty cell of the announce column
    announced = [c for c in advice["choices"] if c["action"] == "announce"]
    assert all(c["cell"].startswith("announce.") for c in announced)


def test_the_tipp_after_an_announcement_plays_for_the_announced_cell(client: TestClient) -> None:
    game = started(client, "jamb")
    send(client, game, {"type": "roll", "player": "Ana", "dice": [6, 6, 6, 6, 2]})
    send(client, game, {"type": "announce", "player": "Ana", "cell": "announce.jamb"})
    advice = client.get(f"/api/games/{game['id']}/advice", params={"top": 100}).json()
    entries = [c for c in advice["choices"] if c["action"] == "enter"]
    assert [c["cell"] for c in entries] == ["announce.jamb"]  # announced: only there
    assert not any(c["action"] == "announce" for c in advice["choices"])
    assert advice["choices"][0] == {**advice["choices"][0], "action": "roll", "keep": [6, 6, 6, 6]}


def test_the_tipp_with_dice_typed_at_the_table_counts_the_roll_for_kenta(
    client: TestClient,
) -> None:
    game = started(client, "jamb")
    first = client.get(
        f"/api/games/{game['id']}/advice", params={"dice": "12345", "rolls": 1, "top": 100}
    ).json()
    third = client.get(
        f"/api/games/{game['id']}/advice", params={"dice": "12345", "rolls": 3, "top": 100}
    ).json()

    def kenta(advice: dict[str, Any]) -> int:
        return int(next(c["points"] for c in advice["choices"] if c["cell"] == "free.straight"))

    assert (kenta(first), kenta(third)) == (66, 46)  # docs/rules.md, "Jamb": Kenta by the roll
    assert {c["action"] for c in third["choices"]} == {"enter"}  # no roll left


def test_the_tipp_before_the_first_roll_is_to_roll(client: TestClient) -> None:
    game = started(client, "jamb")
    advice = client.get(f"/api/games/{game['id']}/advice").json()
    assert [c["action"] for c in advice["choices"]] == ["roll"]
    assert 300 < advice["expected"] < 1500  # the bot's worth of an empty Jamb sheet


def test_the_tipp_panel_of_a_jamb_game_speaks_croatian_and_says_it_is_the_bots_heuristic(
    client: TestClient,
) -> None:
    game = started(client, "jamb")
    send(client, game, {"type": "roll", "player": "Ana", "dice": [6, 6, 6, 2, 1]})
    panel = client.get(f"/g/{game['id']}/tipp", params={"lang": "hr"})
    assert panel.status_code == 200, panel.text
    assert "Heuristika jakog bota, ne optimum" in panel.text
    assert "Zadrži" in panel.text or "Upiši" in panel.text or "Najavi" in panel.text
    assert "Auf Sieg" not in panel.text and "tipp-modes" not in panel.text


def test_auf_sieg_is_refused_plainly_for_jamb(client: TestClient) -> None:
    game = started(client, "jamb")
    answer = settled(client, f"/api/games/{game['id']}/advice/win")
    assert answer.status_code == 409 and answer.json()["code"] == "no_solver"


def jamb_with_a_blunder() -> Game:
    """A finished solitaire Jamb game of the best bot, but for its first turn: five sixes on
    the first roll went into the free column's ones (0) instead of a Jamb (80)."""
    variant = get_variant("jamb")
    game = Game(variant, ["Ana"])
    game.push(Roll("Ana", Dice.of([6, 6, 6, 6, 6])))
    game.push(Enter("Ana", Cell("free", Row.ONES)))
    faces = np.random.default_rng([23, 2]).integers(1, 7, size=(turns_of(variant), 3, 5))
    return play_game(make_family_bot("best", variant), faces, "Ana", game)


def test_the_review_of_a_finished_jamb_game_rates_a_known_bad_move_worse_than_the_bots(
    client: TestClient,
) -> None:
    played = jamb_with_a_blunder()
    assert played.is_finished
    created = client.post("/api/records", json=json.loads(dumps(played)))
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    answer = settled(client, f"/api/games/{game_id}/review")
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["source"] == "heuristic" and review["finished"] is True
    decisions = {d["event"]: d for d in review["decisions"]}
    blunder = decisions[2]
    assert blunder["choice"] == {**blunder["choice"], "action": "enter", "cell": "free.ones"}
    assert blunder["best"]["action"] in ("enter", "announce")
    assert blunder["best"]["expected"] > blunder["choice"]["expected"]
    assert blunder["severity"] == "patzer" and blunder["accuracy"] < 50
    # every other decision is the bot's own: rated as its choice, nothing lost
    others = [d for event, d in decisions.items() if event != 2]
    assert len(others) > 52 and all(d["loss"] < 1e-6 for d in others)
    assert any(d["choice"]["action"] == "announce" for d in others)  # announcements rated too
    assert review["costliest"][0] == 2

    page = settled(client, f"/g/{game_id}/analyse", params={"lang": "hr"})
    assert page.status_code == 200, page.text
    assert "Ocijenjeno prema jakom botu" in page.text
    assert "Upiši: Slobodna, Jedinice (0)" in page.text  # the blunder among the costliest
    table = settled(client, f"/g/{game_id}/analyse/alle", params={"lang": "de"})
    assert table.status_code == 200 and "Bewertet gegen den starken Bot" in table.text
    chart = client.get(f"/g/{game_id}/analyse/verlauf.svg")
    assert chart.status_code == 200 and "<svg" in chart.text


def late_jamb(left: int) -> Game:
    """A two-player Jamb game of the best bot, stopped when each player has ``left`` entries
    to make (seeded dice)."""
    variant = get_variant("jamb")
    game = Game(variant, ["Ana", "Ivo"])
    bot = make_family_bot("best", variant)
    rng = np.random.default_rng([23, 2])  # a close game to the end
    while game.filled_count(1) < turns_of(variant) - left:
        action = bot.choose(game)
        name = game.current_name
        assert name is not None
        if isinstance(action, RollAction):
            thrown = rng.integers(1, 7, size=5 - len(action.keep)).tolist()
            game.push(Roll(name, Dice.of([*action.keep, *thrown]), action.keep))
        elif isinstance(action, AnnounceAction):
            game.push(Announce(name, action.cell))
        else:
            game.push(Enter(name, action.cell))
    return game


def test_the_chances_of_a_jamb_game_are_simulated_in_the_background_and_then_answered(
    client: TestClient,
) -> None:
    played = late_jamb(left=2)
    created = client.post("/api/records", json=json.loads(dumps(played)))
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    first = client.get(f"/api/games/{game_id}/chances")
    assert first.status_code == 202, first.text  # no request simulates: the board's thread does
    assert first.json()["code"] == "chances_pending"
    assert 0 <= first.json()["params"]["progress"] <= 1
    for _ in range(600):  # generous: the busy machine
        answer = client.get(f"/g/{game_id}/chancen.json")
        if answer.status_code == 200:
            break
        assert answer.status_code == 202, answer.text
        time.sleep(0.5)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["method"] == "simulation" and found["samples"] == MAX_SAMPLES  # 2 entries left
    wins = [p["win"] for p in found["players"]]
    assert abs(sum(wins) - 1) < 1e-9
    for player in found["players"]:
        low, high = player["interval"]
        assert low <= player["win"] <= high and high - low > 0  # sampled: an interval
        assert (player["method"], player["samples"]) == ("simulation", MAX_SAMPLES)
    # the same position gives the same figures everywhere: seeded by the sheets
    again = forecast(played)
    assert [p.as_dict() for p in again.players] == found["players"]
    assert client.get(f"/api/games/{game_id}/chances").json() == found
    # the end chart has a point per round, drawn off the request (tests/web/test_chances.py)
    chart = client.get(f"/g/{game_id}/chancen.svg", params={"lang": "de"})
    assert chart.status_code == 202 and "data-chart-pending" in chart.text


def test_the_simulated_chances_wait_in_a_bounded_queue_and_a_newer_version_replaces_its_older(
    client: TestClient,
) -> None:
    """Jamb's chances wait in the board's live queue like every game's (docs/deploy.md,
    "Limits"): one client has at most LIVE_PER_CLIENT waiting besides the one worked on."""
    service = client.app.state.chances  # type: ignore[attr-defined]
    games = [started(client, "jamb") for _ in range(LIVE_PER_CLIENT + 2)]
    accepted = []
    for game in games:
        answer = client.get(f"/api/games/{game['id']}/chances")
        if answer.status_code != 202:
            break
        accepted.append(game)
    assert answer.status_code == 503 and answer.json()["code"] == "chances_busy", answer.text
    assert int(answer.headers["Retry-After"]) > 0
    assert LIVE_PER_CLIENT <= len(accepted) <= LIVE_PER_CLIENT + 1
    assert service.live.waiting() == len(accepted)  # a Jamb forecast takes many seconds
    # An entry in a waiting game: its newer version takes the older one's place.
    waiting = accepted[-1]
    send(client, waiting, {"type": "roll", "player": "Ana", "dice": [6, 6, 6, 2, 1]})
    send(client, waiting, {"type": "enter", "player": "Ana", "cell": "free.sixes"})
    answer = client.get(f"/g/{waiting['id']}/chancen.json")
    assert answer.status_code == 202, answer.text
    assert service.live.waiting() == len(accepted)
