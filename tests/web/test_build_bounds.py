"""Table builds that anyone who creates a game can ask for are bounded (issue 21, finding 2):
per client and overall, with a clear "busy, ask again" answer, and the presets' tables
never leave the cache for them (docs/deploy.md, "Limits")."""

from __future__ import annotations

import multiprocessing
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.rules import Discipline, get_variant
from kniffel.settings import Settings
from kniffel.solver.builds import Table, TableBuilds
from kniffel.solver.exact import cache
from kniffel.solver.exact.column import solve_column
from kniffel.web.app import create_app

from .table import advice, new_game


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(
        create_app(
            Settings(
                db=f"sqlite:///{tmp_path / 'k.db'}",
                prebuild_tables=False,
                background=False,
                **settings,
            )
        )
    )


def _builds(client: TestClient) -> TableBuilds:
    builds: TableBuilds = client.app.state.tables  # type: ignore[attr-defined]
    return builds


def _pending(builds: TableBuilds) -> set[Table]:
    return {t for t in (builds.running, *builds.queued()) if t is not None}


def _game(client: TestClient, bonus: int) -> dict[str, Any]:
    """A game with house rules of its own (a Kniffel bonus no other game has)."""
    return new_game(client, variant="kniffel", players=["Anna"], options={"kniffel_bonus": bonus})


def _table_children() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "kniffel-table"]


def test_one_client_queues_two_new_house_rules_an_hour_then_hears_when_to_ask_again(
    tmp_path: Path, fresh_cache: Path
) -> None:
    with _client(tmp_path) as client:
        first, second, third = (_game(client, bonus) for bonus in (101, 102, 103))
        assert advice(client, first).status_code == 202
        assert advice(client, second).status_code == 202
        before = _pending(_builds(client)) | set(_builds(client).built)
        refused = advice(client, third)
        assert refused.status_code == 503, refused.text
        body = refused.json()
        assert body["code"] == "tables_busy" and body["params"]["reason"] == "client_limit"
        assert 3000 < int(refused.headers["retry-after"]) <= 3600
        assert "ask again" in body["message"]
        # Nothing of the third game's rules was queued; asking for the first again is free.
        options = get_variant("kniffel", {"kniffel_bonus": 103}).options
        assert all(t.options != options for t in _pending(_builds(client)))
        assert _pending(_builds(client)) | set(_builds(client).built) == before
        assert advice(client, first).status_code == 202
        # The Tipp of a key holder's device says so in plain words.
        client.get(f"/g/{third['id']}?key={third['key']}")
        tipp = client.get(f"/g/{third['id']}/tipp", headers={"HX-Request": "true"})
        assert tipp.status_code == 503
        assert "Bitte in 60 Minuten noch einmal versuchen" in tipp.text
        assert len(_table_children()) <= 1
    assert _table_children() == []


def test_the_queue_of_new_house_rules_is_bounded_for_everyone(
    tmp_path: Path, fresh_cache: Path
) -> None:
    with _client(tmp_path, table_queue=2, table_builds_per_client=100) as client:
        first, second = _game(client, 201), _game(client, 202)
        assert advice(client, first).status_code == 202
        refused = advice(client, second)
        assert refused.status_code == 503, refused.text
        assert refused.json()["params"]["reason"] == "queue_full"
        assert int(refused.headers["retry-after"]) > 0
        # The Tipp of a key holder's device says when to ask again, in the plural's form: the
        # queue's minute read "Bitte in 1 Minuten".
        client.get(f"/g/{second['id']}?key={second['key']}")
        tipp = client.get(f"/g/{second['id']}/tipp", headers={"HX-Request": "true"})
        assert tipp.status_code == 503
        assert "Bitte in 1 Minute noch einmal versuchen." in tipp.text
        options = get_variant("kniffel", {"kniffel_bonus": 202}).options
        assert all(t.options != options for t in _pending(_builds(client)))
    assert _table_children() == []


def test_a_plain_games_tables_are_queued_without_a_key_when_missing(
    tmp_path: Path, fresh_cache: Path
) -> None:
    """Should the presets' tables be gone, a plain game's advice waits for them (202) instead
    of asking a watcher for the key (403 ``key_missing``)."""
    with _client(tmp_path) as client:
        game = _game(client, get_variant("kniffel").options.kniffel_bonus)
        answer = client.get(f"/api/games/{game['id']}/advice")
        assert answer.status_code == 202, answer.text
        assert Table(get_variant("kniffel").options, Discipline.FREE) in _pending(
            _builds(client)
        ) | set(_builds(client).built)
    assert _table_children() == []


def test_new_house_rules_never_push_the_presets_tables_out_of_the_cache(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Kniffel preset's table is the least recently used file of a cache with room for one
    more table; two tables of new house rules come after it (↓ tables, a fraction of a second
    to build). The cache keeps files by name and size, so the preset's file is a ↓ table's
    bytes under the preset's name (building the real one takes about a minute)."""
    first = solve_column(get_variant("kniffel", {"chance": False}).options, Discipline.DOWN)
    first_path = cache.path_for(first.space)
    preset_path = cache.column_path(get_variant("kniffel").options, Discipline.FREE)
    shutil.copyfile(first_path, preset_path)
    past = first_path.stat().st_mtime - 1000
    os.utime(preset_path, (past, past))
    monkeypatch.setenv("KNIFFEL_CACHE_MAX_BYTES", str(2 * first_path.stat().st_size + 1))
    second = solve_column(get_variant("kniffel", {"joker": "none"}).options, Discipline.DOWN)
    assert preset_path.exists()
    assert not first_path.exists()
    assert cache.path_for(second.space).exists()
