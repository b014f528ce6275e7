"""Opening the database: engine settings per dialect and the migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.pool import StaticPool

__all__ = ["MIGRATIONS", "migrate", "open_engine"]

MIGRATIONS = Path(__file__).parent / "migrations"

# Any constant works; it only has to be the same in every process.
_MIGRATION_LOCK = 0x4B4E4946


def open_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's directory is created first."""
    parsed = make_url(url)
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
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe when several processes start)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
