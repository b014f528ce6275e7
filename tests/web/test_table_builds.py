"""Advice that cannot be used to burn the server (issue 9, finding 2).

A request never builds a solver table: the presets' tables are built in the
background at the first start, other tables only when a key holder asks, by one
worker at a time, while the request answers at once (202 with the progress, or
403 without the key). The disk cache keeps to its size bound.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.rules import Discipline, get_variant
from kniffel.settings import Settings
from kniffel.solver.builds import Table, TableBuilds, preset_tables
from kniffel.solver.exact import cache, column
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.sheet_space import SheetSpace
from kniffel.web.app import create_app

#: House rules no other test builds a table for.
RARE = {"pasch": "matching_dice", "zero_only_upper": True, "kniffel_bonus": 50}


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}", **settings)))


def _builds(client: TestClient) -> TableBuilds:
    builds: TableBuilds = client.app.state.tables  # type: ignore[attr-defined]
    return builds


def _new_game(client: TestClient, options: dict[str, Any]) -> Any:
    body = {"variant": "kniffel", "players": ["Anna"], "options": options}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _table_children() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "kniffel-table"]


def test_an_unkeyed_request_for_new_rules_builds_nothing(tmp_path: Path, fresh_cache: Path) -> None:
    with _client(tmp_path) as client:
        game = _new_game(client, RARE)
        for path in (
            f"/api/games/{game['id']}/advice",
            f"/api/games/{game['id']}/analysis",
            f"/api/games/{game['id']}/review",
        ):
            response = client.get(path)
            assert response.status_code == 403, (path, response.text)
            assert "key" in response.text
        tipp = client.get(f"/g/{game['id']}/tipp", headers={"HX-Request": "true"})
        assert tipp.status_code == 403
        assert "Schlüssel" in tipp.text
        page = client.get(f"/g/{game['id']}/analyse")
        assert page.status_code == 403 and "Schlüssel" in page.text
        builds = _builds(client)
        assert builds.queued() == () and builds.running is None and builds.built == []
        assert _table_children() == []
    assert not fresh_cache.exists() or not list(fresh_cache.glob("*.npz"))


def test_a_key_holder_starts_the_build_and_is_answered_at_once(
    tmp_path: Path, fresh_cache: Path
) -> None:
    with _client(tmp_path) as client:
        game = _new_game(client, RARE)
        url = f"/api/games/{game['id']}/advice"
        response = client.get(url, headers={"X-Kniffel-Key": game["key"]})
        assert response.status_code == 202, response.text
        body = response.json()
        assert body["code"] == "table_building"
        assert 0.0 <= body["params"]["progress"] <= 1.0
        assert "being built" in body["message"]
        table = Table(get_variant("kniffel", RARE).options, Discipline.FREE)
        builds = _builds(client)
        assert table in (builds.running, *builds.queued())
        # Once it is being built, anybody sees that (and the progress), and nothing more is queued.
        again = client.get(url)
        assert again.status_code == 202 and again.json()["code"] == "table_building"
        assert client.get(url, params={"key": game["key"]}).status_code == 202
        # The value table, then the chance table the Tipp's reasons read (docs/solver.md).
        chances = Table(table.options, Discipline.FREE, chances=True)
        assert [t for t in (builds.running, *builds.queued()) if t is not None] == [table, chances]
        # The Tipp panel says so and asks again until the table is there.
        tipp = client.get(f"/g/{game['id']}/tipp", headers={"HX-Request": "true"})
        assert tipp.status_code == 202
        assert "wird berechnet" in tipp.text
        # static/tafel/tipp.js asks there, saying that it waited (no wait for the reasons then).
        assert f'data-tipp-building="/g/{game["id"]}/tipp?gewartet=1"' in tipp.text
        assert len(_table_children()) <= 1
    # Closing the app ends the build.
    assert _table_children() == []


def test_the_tipp_of_a_key_holders_device_starts_the_build(
    tmp_path: Path, fresh_cache: Path
) -> None:
    with _client(tmp_path) as client:
        game = _new_game(client, RARE)
        client.get(f"/g/{game['id']}?key={game['key']}")  # the link puts the key in a cookie
        tipp = client.get(f"/g/{game['id']}/tipp", headers={"HX-Request": "true"})
        assert tipp.status_code == 202, tipp.text
        assert "Der Tipp wird berechnet" in tipp.text and "<progress" in tipp.text
        builds = _builds(client)
        options = get_variant("kniffel", RARE).options
        assert [t for t in (builds.running, *builds.queued()) if t is not None] == [
            Table(options, Discipline.FREE),
            Table(options, Discipline.FREE, chances=True),
        ]


def test_the_best_bot_waits_for_its_tables_instead_of_building_them(
    tmp_path: Path, fresh_cache: Path
) -> None:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}"), bots=BotSeats(delay=0))
    with TestClient(app) as client:
        body = {
            "variant": "kniffel",
            "players": ["Robo", "Anna"],
            "dice_mode": "virtual",
            "bots": {"Robo": "best"},
            "options": RARE,
        }
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        game = response.json()
        # Robo is to move: the creator (a key holder) set the seat, so its table is queued,
        # and Robo has not moved (no request built anything).
        builds = _builds(client)
        table = Table(get_variant("kniffel", RARE).options, Discipline.FREE)
        assert table in (builds.running, *builds.queued())
        assert client.get(f"/api/games/{game['id']}").json()["version"] == 0
        assert len(_table_children()) <= 1
    assert _table_children() == []


def test_ready_tables_are_read_without_a_key(tmp_path: Path, preset_tables: None) -> None:
    with _client(tmp_path) as client:
        game = _new_game(client, {})
        response = client.get(f"/api/games/{game['id']}/advice")
        assert response.status_code == 200, response.text
        assert response.json()["choices"]
        assert _builds(client).built == []


def test_the_first_start_queues_the_presets_tables(tmp_path: Path, fresh_cache: Path) -> None:
    wanted = set(preset_tables())
    variants = {v.options for v in map(get_variant, ("kniffel", "yahtzee"))}
    assert {t.options for t in wanted} == variants
    assert {t.discipline for t in wanted} == {Discipline.FREE, None}
    with _client(tmp_path, prebuild_tables=True) as client:
        builds = _builds(client)
        pending = {t for t in (builds.running, *builds.queued()) if t is not None}
        handled = pending | set(builds.built)
        # Each is queued, built, or was ready already (the ↓↑ table in this test process).
        assert handled <= wanted
        assert all(t in handled or builds.is_ready(t) for t in wanted)
        # An advice request for a preset meanwhile answers 202 with the progress, key or not.
        game = _new_game(client, {})
        assert client.get(f"/api/games/{game['id']}/advice").status_code == 202
    assert _table_children() == []


def test_presets_built_before_are_ready_at_once(tmp_path: Path, preset_tables: None) -> None:
    with _client(tmp_path, prebuild_tables=True) as client:
        builds = _builds(client)
        assert builds.wait(timeout=120)
        assert builds.built == []  # found on disk (and in memory): nothing to build
        for name in ("kniffel", "yahtzee", "rauf-runter", "dreifach"):
            assert builds.readiness(get_variant(name)).ready


# ------------------------------------------------------------- the builder


def _down(**options: Any) -> Table:
    return Table(get_variant("kniffel", options).options, Discipline.DOWN)


def test_one_build_at_a_time_each_table_once(fresh_cache: Path) -> None:
    """Real builds (↓ tables take a fraction of a second), in the order asked, never two at once."""
    builds = TableBuilds()
    tables = [_down(chance=False), _down(joker="none"), _down(pasch="matching_dice")]
    most = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal most
        while not done.is_set():
            most = max(most, len(_table_children()))
            done.wait(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        builds.enqueue(tuple(tables))
        builds.enqueue((tables[0], tables[1]))  # already queued or running: not again
        assert builds.wait(timeout=300)
    finally:
        done.set()
        watcher.join()
        builds.close()
    assert builds.built == tables
    assert most <= 1
    for table in tables:
        assert builds.is_ready(table)
        assert table.discipline is not None
        assert column.load_table(SheetSpace(table.options, table.discipline)) is not None
    # Asked again when ready: nothing is built.
    builds2 = TableBuilds()
    builds2.enqueue(tuple(tables))
    assert builds2.wait(timeout=60)
    builds2.close()
    assert builds2.built == []


def test_the_disk_cache_drops_the_least_recently_used_tables(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = (
        solve_column(t.options, Discipline.DOWN)
        for t in (_down(chance=False), _down(joker="none"), _down(pasch="matching_dice"))
    )
    paths = [cache.path_for(t.space) for t in (first, second, third)]
    sizes = [p.stat().st_size for p in paths]
    assert all(p.exists() for p in paths)
    # Room for two of them: loading the first makes the second the least recently used.
    monkeypatch.setenv("KNIFFEL_CACHE_MAX_BYTES", str(sizes[0] + sizes[2] + 1))
    past = paths[0].stat().st_mtime - 100
    for i, path in enumerate(paths):
        os.utime(path, (past + i, past + i))
    loaded = solve_column(first.options, Discipline.DOWN)
    assert loaded.cached
    assert column.save_table(third) == paths[2]
    assert [p.exists() for p in paths] == [True, False, True]
    np.testing.assert_array_equal(solve_column(first.options, Discipline.DOWN).values, first.values)


def test_the_cache_bound_is_a_setting() -> None:
    assert Settings().cache_max_bytes == 500_000_000
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KNIFFEL_CACHE_MAX_BYTES", "1000")
        assert Settings().cache_max_bytes == 1000
