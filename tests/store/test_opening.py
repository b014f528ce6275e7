"""Opening the store: SQLite durability, and migrations only when the schema is behind."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from kniffel.store import GameStore, NewGame, VersionConflict, database
from kniffel.store.database import MIGRATIONS, head_revision


def test_the_head_read_from_the_files_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert head_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_sqlite_commits_reach_the_disk_before_they_return(tmp_path: Path) -> None:
    store = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        with store.engine.connect() as connection:
            # 2 = FULL: an acknowledged event survives a power cut.
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        store.close()


def test_a_database_at_the_head_is_not_migrated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    engine = database.open_engine(url)
    database._upgrade(engine)  # the whole chain, as an older release left the file
    engine.dispose()
    upgrades: list[str] = []
    real_upgrade = database._upgrade

    def counting(engine: object) -> None:
        upgrades.append("upgrade")
        real_upgrade(engine)  # type: ignore[arg-type]

    monkeypatch.setattr(database, "_upgrade", counting)
    GameStore.open(url).close()
    GameStore.open(url).close()
    assert upgrades == []
    with GameStore.open(url).engine.connect() as connection:
        stamped = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert stamped == head_revision()


def _append_many(store: GameStore, game_id: str, count: int, failures: list[BaseException]) -> None:
    try:
        for version in range(count):
            store.append(game_id, version, {"type": "note", "n": version}, finished=False)
    except BaseException as exc:  # the test reports whatever went wrong
        failures.append(exc)


def test_writers_in_one_process_queue_instead_of_meeting_sqlites_busy_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without SQLite's busy timeout, a writer that finds another one writing fails at once
    # ("database is locked"); the process's write gate must keep that from ever happening.
    monkeypatch.setattr(database, "_BUSY_SECONDS", 0)
    store = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        games = [f"g{n:07d}" for n in range(8)]
        for game_id in games:
            store.create(NewGame(game_id, "k" * 32, "kniffel", {}, ("Anna",), "physical"))
        failures: list[BaseException] = []
        threads = [
            threading.Thread(target=_append_many, args=(store, game_id, 40, failures))
            for game_id in games
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert [store.version(game_id) for game_id in games] == [40] * 8
    finally:
        store.close()


def test_a_refused_write_gives_the_gate_back(tmp_path: Path) -> None:
    store = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        gate = database.write_gate(store.engine)
        assert gate is not None
        store.create(NewGame("g0000001", "k" * 32, "kniffel", {}, ("Anna",), "physical"))
        store.append("g0000001", 0, {"type": "note"}, finished=False)
        assert not gate.lock.locked()
        with pytest.raises(VersionConflict):
            store.append("g0000001", 0, {"type": "note"}, finished=False)
        assert not gate.lock.locked()
        # An event row for a game that does not exist: the foreign key refuses it.
        with pytest.raises(IntegrityError), store.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO events (game_id, seq, payload, created_at) "
                    "VALUES ('nope', 1, '{}', '2026-01-01')"
                )
            )
        assert not gate.lock.locked()
    finally:
        store.close()


def test_an_in_memory_database_has_no_gate() -> None:
    store = GameStore.open("sqlite://")
    try:
        assert database.write_gate(store.engine) is None
    finally:
        store.close()
