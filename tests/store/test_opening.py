"""Opening the store: SQLite durability, and migrations only when the schema is behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from kniffel.store import GameStore, database
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
    upgrades: list[str] = []
    real_upgrade = database._upgrade

    def counting(engine: object) -> None:
        upgrades.append("upgrade")
        real_upgrade(engine)  # type: ignore[arg-type]

    monkeypatch.setattr(database, "_upgrade", counting)
    GameStore.open(url).close()
    assert upgrades == ["upgrade"]
    GameStore.open(url).close()
    assert upgrades == ["upgrade"]
    with GameStore.open(url).engine.connect() as connection:
        stamped = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert stamped == head_revision()
