"""A new game's house rules are built while its board loads (issue 35): creating the game queues
the tables its first Tipp reads, under the creator's share, which counts one combination once;
a preset game costs nothing, and creating games queues no more than the Tipp could
(docs/deploy.md, "Limits").

The builds here are stand-ins that run until the app closes (no table is built)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.rules import Discipline, Variant, get_variant
from kniffel.settings import Settings
from kniffel.solver.builds import Table, TableBuilds
from kniffel.web.app import create_app

from .table import advice, new_game

DATA = Path(__file__).parent.parent / "data"


def _held(builds: TableBuilds, table: Table) -> None:
    """A build that never ends before its builder closes (no child process, nothing built)."""
    with builds._lock:
        builds.built.append(table)
    while not builds._stopped:
        time.sleep(0.01)


@pytest.fixture
def client(
    tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    monkeypatch.setattr(TableBuilds, "_run_child", _held)
    settings = Settings(
        db=f"sqlite:///{tmp_path / 'k.db'}",
        tables_at_creation=True,
        prebuild_tables=False,
        background=False,
        table_builds_per_client=2,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _builds(client: TestClient) -> TableBuilds:
    builds: TableBuilds = client.app.state.tables  # type: ignore[attr-defined]
    return builds


def _pending(client: TestClient) -> list[Table]:
    builds = _builds(client)
    return [t for t in (builds.running, *builds.queued()) if t is not None]


def _variant(client: TestClient, game_id: str) -> Variant:
    variant: Variant = client.app.state.service.get(game_id).variant  # type: ignore[attr-defined]
    return variant


def _new_game(client: TestClient, bonus: int, variant: str = "kniffel") -> dict[str, Any]:
    return new_game(client, variant=variant, options={"kniffel_bonus": bonus})


def test_each_way_of_making_a_game_queues_its_first_tipps_tables(client: TestClient) -> None:
    # The JSON API: the exact values first, then the chance table the Tipp's reasons read.
    game = _new_game(client, 71)
    options = get_variant("kniffel", {"kniffel_bonus": 71}).options
    free = Table(options, Discipline.FREE)
    assert _pending(client) == [free, Table(options, Discipline.FREE, chances=True)]
    # The start page's form, with a house rule of its own.
    form = {"variant": "kniffel", "player": ["Anna"], "house_rules": "1", "kniffel_bonus": "72"}
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    made = _variant(client, response.headers["location"].removeprefix("/g/"))
    assert made.options.kniffel_bonus == 72
    assert Table(made.options, Discipline.FREE) in _pending(client)
    # The Tipp of the first game finds its tables being built: 202, nothing more queued.
    before = _pending(client)
    assert advice(client, game).status_code == 202
    assert _pending(client) == before


def test_an_imported_game_still_to_be_played_queues_its_tables(client: TestClient) -> None:
    record = json.loads((DATA / "rrk-due-and-clear.json").read_text())
    record["options"] = {"kniffel_bonus": 73}
    response = client.post("/api/records", json=record)
    assert response.status_code == 201, response.text
    options = get_variant("rauf-runter", {"kniffel_bonus": 73}).options
    assert _pending(client) == [Table(options, Discipline.FREE), Table(options, None)]


def test_a_finished_import_queues_nothing_and_its_revanche_its_tables(client: TestClient) -> None:
    record = json.loads((DATA / "kniffel-seed-examples.json").read_text())
    record["options"] = {"kniffel_bonus": 74}
    response = client.post("/api/records", json=record)
    assert response.status_code == 201, response.text
    finished = response.json()
    assert _pending(client) == []
    path = f"/api/games/{finished['id']}/revanche"
    revanche = client.post(path, headers={"X-Kniffel-Key": finished["key"]})
    assert revanche.status_code == 200, revanche.text
    options = get_variant("kniffel", {"kniffel_bonus": 74}).options
    assert _pending(client)[:1] == [Table(options, Discipline.FREE)]


def test_a_preset_game_costs_nothing_at_its_creation(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked: list[Table] = []  # a listener's failure is only logged: the looks are counted

    def look(_builds: TableBuilds, table: Table) -> bool:
        looked.append(table)
        return False

    monkeypatch.setattr(TableBuilds, "is_ready", look)
    for variant in ("kniffel", "yahtzee", "rauf-runter", "dreifach"):
        response = client.post("/api/games", json={"variant": variant, "players": ["Anna"]})
        assert response.status_code == 201, response.text
    assert looked == []
    assert _pending(client) == [] and _builds(client).built == []


def test_creating_games_queues_no_more_than_the_clients_share(client: TestClient) -> None:
    """Two new combinations an hour for one client (``table_builds_per_client``): a third
    game is created all the same, and its Tipp says when to ask again."""
    games = [_new_game(client, bonus) for bonus in (81, 82, 83, 84)]
    assert {t.options.kniffel_bonus for t in _pending(client)} == {81, 82}
    # The creations and the Tipps of the same rules count once: both still answer "building".
    assert advice(client, games[0]).status_code == 202
    assert advice(client, games[1]).status_code == 202
    refused = advice(client, games[2])
    assert refused.status_code == 503, refused.text
    assert refused.json()["params"]["reason"] == "client_limit"
    assert {t.options.kniffel_bonus for t in _pending(client)} == {81, 82}


def test_one_combination_counts_once_for_every_game_and_table_of_it(client: TestClient) -> None:
    """Kniffel, then Rauf-Runter with the same house rules: the ↓↑ table of the second adds
    no combination to the client's share (two an hour), so a second house rule still fits."""
    _new_game(client, 91)
    _new_game(client, 91, variant="rauf-runter")
    other = _new_game(client, 92)
    options = get_variant("kniffel", {"kniffel_bonus": 91}).options
    assert Table(options, None) in _pending(client)
    assert {t.options.kniffel_bonus for t in _pending(client)} == {91, 92}
    assert advice(client, other).status_code == 202
