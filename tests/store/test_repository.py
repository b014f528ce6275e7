"""The SQLite store: migrations, appends with a version check, persistence."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, tzinfo
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from kniffel.store import (
    GameStore,
    NewGame,
    VersionConflict,
    database,
    migrate,
    open_engine,
    repository,
)
from kniffel.store.database import MIGRATIONS
from kniffel.store.summary import Summary

ENTER = {"type": "enter", "player": "Anna", "cell": "chance", "points": 23}


def _new(game_id: str = "g1", **fields: object) -> NewGame:
    values: dict[str, object] = {
        "id": game_id,
        "key": "secret",
        "variant": "kniffel",
        "options": {"chance": True},
        "players": ("Anna", "Ben"),
        "dice_mode": "physical",
        **fields,
    }
    return NewGame(**values)  # type: ignore[arg-type]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "deeper" / "kniffel.db"


@pytest.fixture
def store(path: Path) -> Iterator[GameStore]:
    opened = GameStore.open(f"sqlite:///{path}")
    yield opened
    opened.close()


def test_opening_creates_the_directory_the_tables_and_stamps_the_newest_revision(
    store: GameStore, path: Path
) -> None:
    assert path.exists()
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "events", "alembic_version"} <= tables
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    with store.engine.connect() as connection:
        stamped = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert stamped == head


def _differences(engine: Engine) -> list[object]:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from kniffel.store.models import METADATA

    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), METADATA))


def test_the_migrations_build_exactly_the_models_tables(path: Path) -> None:
    # The whole chain of migrations, from an empty file (a new database skips it).
    engine = open_engine(f"sqlite:///{path}")
    try:
        database._upgrade(engine)
        assert _differences(engine) == []
    finally:
        engine.dispose()


def test_a_new_database_gets_the_models_tables_without_running_the_migrations(
    store: GameStore, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _differences(store.engine) == []
    # The same tables, columns and indexes as the migrations build.
    migrated = open_engine(f"sqlite:///{path.with_name('migrated.db')}")
    try:
        database._upgrade(migrated)
        assert _schema(store.engine) == _schema(migrated)
    finally:
        migrated.dispose()
    # A new database is not migrated; one at the head neither.
    upgrades: list[Engine] = []
    monkeypatch.setattr(database, "_upgrade", upgrades.append)
    GameStore.open(f"sqlite:///{path.with_name('new.db')}").close()
    GameStore.open(f"sqlite:///{path.with_name('new.db')}").close()
    assert upgrades == []


def _schema(engine: Engine) -> dict[str, object]:
    found = inspect(engine)
    return {
        table: (
            sorted((c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(table)),
            found.get_pk_constraint(table)["constrained_columns"],
            sorted(
                (i["name"], tuple(i["column_names"]), i["unique"]) for i in found.get_indexes(table)
            ),
            sorted(
                (tuple(k["constrained_columns"]), k["referred_table"], k["options"].get("ondelete"))
                for k in found.get_foreign_keys(table)
            ),
            sorted(str(u["column_names"]) for u in found.get_unique_constraints(table)),
        )
        for table in sorted(found.get_table_names())
    }


def test_migrating_again_changes_nothing(store: GameStore) -> None:
    store.create(_new())
    migrate(store.engine)
    assert store.count() == 1


def test_sqlite_runs_in_wal_mode_with_foreign_keys(store: GameStore) -> None:
    with store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA busy_timeout")).scalar() >= 1000


def test_a_created_game_reads_back_with_its_events_in_order(store: GameStore) -> None:
    events = [ENTER, {"type": "undo"}, ENTER]
    created = store.create(_new(bots={"Ben": "best"}), events, finished=False)
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded == created
    assert loaded.events == tuple(events)
    assert loaded.version == 3
    assert loaded.bots == {"Ben": "best"}
    assert loaded.created_at.tzinfo is not None
    assert store.load("g2") is None
    assert store.version("g2") is None


def test_an_append_needs_the_current_version(store: GameStore) -> None:
    store.create(_new())
    first = store.append("g1", 0, ENTER, finished=False)
    assert first.version == 1
    with pytest.raises(VersionConflict) as stale:
        store.append("g1", 0, {"type": "undo"}, finished=False)
    assert (stale.value.expected, stale.value.actual) == (0, 1)
    with pytest.raises(VersionConflict):
        store.append("missing", 0, ENTER, finished=False)
    loaded = store.load("g1")
    assert loaded is not None and loaded.events == (ENTER,)
    assert loaded.updated_at >= loaded.created_at


def test_the_event_number_is_unique_per_game_whatever_the_caller_does(
    store: GameStore, path: Path
) -> None:
    store.create(_new(), [ENTER])
    with sqlite3.connect(path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute(
            "INSERT INTO events (game_id, seq, payload, created_at) VALUES ('g1', 1, '{}', '')"
        )


def test_summaries_filter_by_finished_newest_change_first(store: GameStore) -> None:
    store.create(_new("a"))
    store.create(_new("b"), [ENTER], finished=True)
    store.create(_new("c"))
    store.append("a", 0, ENTER, finished=False)
    assert [s.id for s in store.summaries()] == ["a", "c", "b"]
    assert [s.id for s in store.summaries(finished=True)] == ["b"]
    assert [s.id for s in store.summaries(finished=False)] == ["a", "c"]
    assert all(s.events == () for s in store.summaries())


def test_a_reopened_store_holds_the_same_games(path: Path) -> None:
    first = GameStore.open(f"sqlite:///{path}")
    first.create(_new(), [ENTER])
    first.append("g1", 1, {"type": "undo"}, finished=False)
    before = first.load("g1")
    first.close()
    second = GameStore.open(f"sqlite:///{path}")
    try:
        assert second.load("g1") == before
    finally:
        second.close()


def test_an_in_memory_database_works_for_quick_experiments() -> None:
    store = GameStore.open("sqlite://")
    try:
        store.create(_new())
        store.append("g1", 0, ENTER, finished=False)
        assert store.version("g1") == 1
    finally:
        store.close()


class _Clock(datetime):
    """The store's clock stopped, so that two games stored alike read alike."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Clock:
        return cls(2026, 12, 6, 12, 0, 0, 123456, tzinfo=tz)


def test_an_append_on_the_drivers_cursor_stores_what_sqlalchemy_stores(
    store: GameStore, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's appends run on the driver's cursor (``GameStore._on_cursor``): the rows are
    byte for byte those of SQLAlchemy's execution of the same statements."""
    monkeypatch.setattr(repository, "datetime", _Clock)
    assert store._on_cursor is not None
    payloads = [
        {"type": "enter", "player": "Anna", "cell": "ones", "dice": [1, 1, 1, 2, 3]},
        {"type": "enter", "player": "Ben", "cell": "kniffel", "points": 50, "note": "äß ✓"},
    ]
    summary = Summary(finished=True, turns=2, totals=(3, 50), winners=("Ben",))
    for game_id, on_cursor in (("cursor", store._on_cursor), ("core", None)):
        store._on_cursor = on_cursor
        store.create(_new(game_id))
        store.append(game_id, 0, payloads[0], finished=False)
        store.append(game_id, 1, payloads[1], finished=True, summary=summary)
        with pytest.raises(VersionConflict):  # refused alike, storing nothing
            store.append(game_id, 1, payloads[0], finished=False)
    with sqlite3.connect(path) as raw:
        games = {row[0]: row[1:] for row in raw.execute("SELECT * FROM games")}
        events = [
            raw.execute("SELECT * FROM events WHERE game_id = ? ORDER BY seq", (game,)).fetchall()
            for game in ("cursor", "core")
        ]
    assert games["cursor"] == games["core"]
    # finished, version, turns, totals, winners
    assert games["core"][-7:-2] == (1, 2, 2, "[3, 50]", '["Ben"]')
    assert [row[1:] for row in events[0]] == [row[1:] for row in events[1]]
    assert len(events[0]) == 2


def test_a_driver_error_on_the_cursor_is_raised_as_sqlalchemys(store: GameStore) -> None:
    """An event number stored twice (behind the store's back) is SQLAlchemy's
    ``IntegrityError`` on the cursor too: the append answers it as a version conflict."""
    store.create(_new())
    with store.engine.begin() as connection:
        connection.execute(text("INSERT INTO events VALUES ('g1', 1, '{}', '2026-12-06')"))
    with pytest.raises(VersionConflict):
        store.append("g1", 0, {"type": "undo"}, finished=False)
    with pytest.raises(IntegrityError):
        store.append_many(
            [
                repository.Append("g1", 0, {"type": "undo"}, False),
                repository.Append("g1", 0, {"type": "undo"}, False),
            ]
        )
