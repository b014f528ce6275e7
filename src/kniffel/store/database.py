"""Opening the database: engine settings per dialect and the migrations."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.pool import StaticPool

__all__ = ["MIGRATIONS", "current_revision", "head_revision", "migrate", "open_engine"]

MIGRATIONS = Path(__file__).parent / "migrations"
_REVISION = re.compile(r"^revision\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DOWN = re.compile(r"^down_revision\s*=\s*(?:[\"']([^\"']+)[\"']|None)", re.MULTILINE)

# Any constant works; it only has to be the same in every process.
_MIGRATION_LOCK = 0x4B4E4946


def open_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's directory is created first."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        # A database that does not answer fails a connect within seconds instead of hanging
        # a request (and /healthz) for minutes.
        return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        # One shared connection, or every new one would see an empty database.
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers go on while a writer commits; busy_timeout makes a second
    # writer wait instead of failing at once.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    # FULL: a commit is on disk before it returns, so an acknowledged event
    # survives a power cut, not only a crash of the process (docs/deploy.md).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


@cache
def head_revision() -> str:
    """The newest migration's revision id, read from the files without importing Alembic.

    The head is the one revision no other names as its ``down_revision``.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        found = _REVISION.search(source)
        if found is None:
            continue
        revisions.add(found.group(1))
        down = _DOWN.search(source)
        if down is not None and down.group(1):
            parents.add(down.group(1))
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migrations must have one head, found {sorted(heads)}")
    return heads.pop()


def current_revision(connection: Connection) -> str | None:
    """The revision the database is stamped with, ``None`` for a database without one."""
    if not inspect(connection).has_table("alembic_version"):
        return None  # a fresh database
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if found is None else str(found)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe when several processes start).

    A database already at the head is only looked at (one small query): Alembic
    is not even imported, which keeps the start fast.
    """
    with engine.connect() as connection:
        behind = current_revision(connection) != head_revision()
        connection.rollback()
    if behind:
        _upgrade(engine)


def _upgrade(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # A migration that copies a table (Alembic's batch mode) drops the old
            # one; with foreign keys on, that would cascade to every event.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(
                        text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK}
                    )
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
