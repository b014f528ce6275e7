"""The Revanche and the games evening (docs/board.md, "Revanche"; docs/api.md).

A Revanche starts the next game with the same players, rules, dice mode and bot seats, the next
player starting; it needs the game's key, is started once however often it is asked for, and
takes the old game's watchers along. The games it links form an evening, whose tally the end
screen, the player pages, the CSV and the records carry.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from click.testing import CliRunner
from fastapi.testclient import TestClient

from kniffel.board.errors import BoardError, Forbidden
from kniffel.board.hub import LocalHub
from kniffel.board.pghub import PgHub
from kniffel.board.service import GameService, GameView
from kniffel.cli import cli
from kniffel.rules import get_variant, rows_for
from kniffel.store import GameStore
from kniffel.store.database import MIGRATIONS, open_engine

#: The rows of a sheet without the Chance row (the shortest whole game: 12 entries a player).
ROWS = tuple(row.value for row in rows_for(get_variant("kniffel", {"chance": False}).options))
OPTIONS = {"chance": False, "kniffel_bonus": 50}
STRONG, WEAK = [6, 6, 6, 6, 6], [1, 2, 3, 4, 5]


def play_game(service: GameService, view: GameView, strong: str) -> None:
    """Every row entered, in turn; ``strong`` throws 66666 each time, the others 12345."""
    for _ in ROWS:
        for player in view.players:
            dice = STRONG if player == strong else WEAK
            current = service.get(view.id).game
            cell = next(row for row in ROWS if current.points(player, current.cell(row)) is None)
            event = {"type": "enter", "player": player, "cell": cell, "dice": dice}
            service.apply(view.id, view.key, event)


def finished_game(service: GameService, strong: str = "Anna") -> GameView:
    view = service.create("kniffel", OPTIONS, ["Anna", "Ben", "Cem"])
    play_game(service, view, strong)
    return service.get(view.id)


def test_a_revanche_keeps_players_rules_and_dice_the_next_player_starting(
    service: GameService,
) -> None:
    first = finished_game(service)
    second = service.revanche(first.id, first.key)
    assert second.id != first.id and second.key != first.key
    assert second.players == ("Ben", "Cem", "Anna")  # Ben sat after Anna, who started
    assert second.game.current_name == "Ben"
    assert second.variant.name == "kniffel" and second.options == first.options
    assert second.dice_mode == first.dice_mode and second.version == 0
    play_game(service, second, "Ben")
    third = service.revanche(second.id, second.key)
    assert third.game.current_name == "Cem"
    assert third.players == ("Cem", "Anna", "Ben")


def test_a_revanche_keeps_virtual_dice_and_bot_seats(db_url: str) -> None:
    store = GameStore.open(db_url)
    service = GameService(store, LocalHub())  # no bot driver: the test moves every seat
    try:
        view = service.create("kniffel", OPTIONS, ["Anna", "Robo"], "virtual", {"Robo": "greedy"})
        for _ in ROWS:
            for player in view.players:
                game = service.roll(view.id, view.key, player).game
                cell = next(row for row in ROWS if game.points(player, game.cell(row)) is None)
                service.apply(view.id, view.key, {"type": "enter", "player": player, "cell": cell})
        second = service.revanche(view.id, view.key)
        assert second.dice_mode == "virtual" and second.bots == {"Robo": "greedy"}
        assert second.players == ("Robo", "Anna")
    finally:
        store.close()


def test_a_revanche_is_started_once_however_often_it_is_asked_for(
    service: GameService,
) -> None:
    first = finished_game(service)
    with ThreadPoolExecutor(4) as pool:
        started = list(pool.map(lambda _: service.revanche(first.id, first.key).id, range(8)))
    assert len(set(started)) == 1
    assert service.revanche(first.id, first.key).id == started[0]
    assert len(service.store.evening(first.id)) == 2  # the first game and one Revanche


def test_a_revanche_needs_the_key_and_a_finished_game(service: GameService) -> None:
    first = finished_game(service)
    with pytest.raises(Forbidden):
        service.revanche(first.id, None)
    with pytest.raises(Forbidden):
        service.revanche(first.id, "not-the-key")
    running = service.create("kniffel", OPTIONS, ["Anna", "Ben"])
    with pytest.raises(BoardError) as refused:
        service.revanche(running.id, running.key)
    assert refused.value.code == "revanche_unfinished"
    assert service.store.count() == 2  # nothing started


def test_the_evening_tally_counts_wins_points_and_the_best_game(service: GameService) -> None:
    first = finished_game(service, strong="Anna")
    second = service.revanche(first.id, first.key)
    play_game(service, second, "Ben")
    third = service.revanche(second.id, second.key)
    play_game(service, third, "Ben")
    evening, revanche = service.evening(third.id)
    assert revanche is None and evening is not None
    assert evening.id == first.id and evening.games == 3
    strong = service.get(first.id).game.total("Anna")
    weak = service.get(first.id).game.total("Ben")
    figures = {p.name: (p.games, p.wins, p.points) for p in evening.players}
    assert figures == {
        "Ben": (3, 2, 2 * strong + weak),
        "Anna": (3, 1, strong + 2 * weak),
        "Cem": (3, 0, 3 * weak),
    }
    assert [p.name for p in evening.players] == ["Ben", "Anna", "Cem"]
    assert evening.players[0].average == pytest.approx((2 * strong + weak) / 3)
    assert evening.best is not None
    assert (evening.best.game_id, evening.best.number, evening.best.name) == (first.id, 1, "Anna")
    assert evening.best.total == strong
    assert service.evening(first.id)[1] == second.id


def test_the_api_starts_the_revanche_with_the_key(client: TestClient, service: GameService) -> None:
    first = finished_game(service)
    path = f"/api/games/{first.id}/revanche"
    assert client.post(path).status_code == 403
    assert client.post(path, headers={"X-Kniffel-Key": "wrong"}).status_code == 403
    answers = [client.post(path, headers={"X-Kniffel-Key": first.key}) for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    created = answers[0].json()
    assert answers[1].json()["id"] == created["id"] and created["key"]
    assert created["url"] == f"/g/{created['id']}#key={created['key']}"
    assert [p["name"] for p in created["players"]] == ["Ben", "Cem", "Anna"]
    running = client.post(
        f"/api/games/{created['id']}/revanche", headers={"X-Kniffel-Key": created["key"]}
    )
    assert running.status_code == 400 and running.json()["code"] == "revanche_unfinished"


def test_the_end_screen_button_starts_the_revanche_and_hands_the_key_on(
    client: TestClient, service: GameService
) -> None:
    first = finished_game(service)
    watcher = TestClient(client.app)
    assert 'action="/g/' not in watcher.get(f"/g/{first.id}").text.split('class="end"')[1][:2000]
    refused = watcher.post(f"/g/{first.id}/revanche", follow_redirects=False)
    assert refused.status_code == 403 and service.store.count() == 1
    client.get(f"/g/{first.id}?key={first.key}")  # this device holds the key
    page = client.get(f"/g/{first.id}").text
    assert f'action="/g/{first.id}/revanche"' in page and ">Revanche<" in page
    started = client.post(f"/g/{first.id}/revanche", follow_redirects=False)
    assert started.status_code == 303
    address = started.headers["location"]
    second = service.get(address.removeprefix("/g/"))
    assert client.get(address).text.count('class="entry"') == 1  # it may enter: it has the key
    again = client.post(f"/g/{first.id}/revanche", follow_redirects=False)
    assert again.headers["location"] == address
    # A watcher is taken to the Revanche without a key; the old page shows the link.
    went = watcher.get(f"/g/{first.id}/revanche", follow_redirects=False)
    assert went.status_code == 303 and went.headers["location"] == address
    assert "set-cookie" not in went.headers
    assert f'data-revanche="{second.id}"' in watcher.get(f"/g/{first.id}").text


def test_the_old_game_s_watchers_hear_of_the_revanche(
    client: TestClient, service: GameService
) -> None:
    first = finished_game(service)
    with client.websocket_connect(f"/api/games/{first.id}/live") as socket:
        assert socket.receive_json()["type"] == "state"
        second = service.revanche(first.id, first.key)
        assert socket.receive_json() == {
            "type": "revanche",
            "game": second.id,
            "url": f"/g/{first.id}/revanche",
        }
    # A device whose connection was down at that moment hears of it when it reconnects.
    service.get(first.id)
    with client.websocket_connect(f"/api/games/{first.id}/live") as socket:
        assert socket.receive_json()["type"] == "state"
        assert socket.receive_json()["game"] == second.id


def test_the_end_screen_shows_the_evening_in_the_reader_s_language(
    client: TestClient, service: GameService
) -> None:
    first = finished_game(service)
    second = service.revanche(first.id, first.key)
    play_game(service, second, "Ben")
    german = client.get(f"/g/{second.id}?lang=de").text
    assert "Spieleabend: 2 Spiele" in german and "Bestes Spiel des Abends" in german
    english = client.get(f"/g/{second.id}?lang=en").text
    assert "Games night: 2 games" in english and "Best game of the night" in english
    player = client.get("/spieler/Cem?lang=de").text
    assert "Spieleabende" in player and f'data-evening="{first.id}"' in player


def test_the_csv_and_the_records_carry_the_evening(
    client: TestClient, service: GameService
) -> None:
    first = finished_game(service)
    second = service.revanche(first.id, first.key)
    play_game(service, second, "Ben")
    alone = finished_game(service)
    text = client.get("/export/spiele.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    evenings = {row["game"]: row["evening"] for row in rows}
    assert evenings == {first.id: first.id, second.id: first.id, alone.id: ""}
    record = client.get(f"/api/games/{second.id}/record").json()
    assert record["evening"] == first.id
    assert "evening" not in client.get(f"/api/games/{alone.id}/record").json()
    # Imported, the evening is kept: the end screen shows its tally again.
    imported = client.post("/api/records", json=record).json()
    assert service.evening(imported["id"])[0] is not None
    broken = client.post("/api/records", json={**record, "evening": "no spaces"})
    assert broken.status_code == 400 and broken.json()["code"] == "record_evening"
    assert service.export_record(imported["id"]) == record  # the same record, evening and all


def test_a_game_stored_before_the_evening_gets_its_revanche_after_the_upgrade(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = open_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006_player_key_nfkc")
    old = GameService(GameStore(engine), LocalHub())
    first = finished_game(old)  # stored by today's code into the 0006 schema, as a lone game
    engine.dispose()
    store = GameStore.open(url)  # migrates to the head
    try:
        upgraded = GameService(store, LocalHub())
        assert upgraded.evening(first.id) == (None, None)
        second = upgraded.revanche(first.id, first.key)
        evening, revanche = upgraded.evening(first.id)
        assert revanche == second.id and evening is not None and evening.id == first.id
    finally:
        store.close()


def test_kniffel_export_and_import_carry_the_evening(tmp_path: Path) -> None:
    url, other = (f"sqlite:///{tmp_path / name}" for name in ("a.db", "b.db"))
    store = GameStore.open(url)
    service = GameService(store, LocalHub())
    first = finished_game(service)
    second = service.revanche(first.id, first.key)
    play_game(service, second, "Ben")
    store.close()
    out = tmp_path / "out"
    exported = CliRunner().invoke(
        cli, ["export", "--csv", str(out), "--records", str(out), "--db", url]
    )
    assert exported.exit_code == 0, exported.output
    rows = list(csv.DictReader(io.StringIO((out / "games.csv").read_text(encoding="utf-8-sig"))))
    assert {row["evening"] for row in rows} == {first.id}
    records = sorted(out.glob("kniffel-*.json"))
    assert [json.loads(path.read_text())["evening"] for path in records] == [first.id] * 2
    assert CliRunner().invoke(cli, ["import", str(out), "--db", other]).exit_code == 0
    moved = GameStore.open(other)
    try:
        games = moved.evening(first.id)
        assert len(games) == 2
        evening = GameService(moved, LocalHub()).evening(games[0].id)[0]
        assert evening is not None and evening.games == 2
    finally:
        moved.close()


def test_a_revanche_heard_twice_is_told_once_and_another_release_s_hub_ignores_it() -> None:
    async def watch() -> list[int | str]:
        hub = PgHub("postgresql://nobody@127.0.0.1:1/none")  # connects only when started
        async with hub._local.subscribe("old") as subscription:
            hub._heard("old revanche:new")  # from another process, through PostgreSQL
            hub._local.revanche("old", "new")  # and from this one
            hub._heard("old 3")
            heard = [await asyncio.wait_for(subscription.next_news(), timeout=2)]
            heard.append(await asyncio.wait_for(subscription.next_news(), timeout=2))
            return heard

    assert asyncio.run(watch()) == ["new", 3]
