"""Opening the database: engine settings per dialect and the migrations."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import weakref
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

__all__ = [
    "MIGRATIONS",
    "DriverMissing",
    "NewerSchema",
    "WriteGate",
    "check_driver",
    "check_wal_index",
    "current_revision",
    "head_revision",
    "libpq_url",
    "migrate",
    "open_engine",
    "write_gate",
]

#: How many pooled SQLite connections a process keeps open: about as many as the threads that
#: run requests at once (anyio's default limit is 40), so that a busy server does not open
#: and close a connection, pragmas and all, for every request beyond the pool.
SQLITE_POOL = 40
#: How long an SQLite writer waits for another one before it gives up (SQLite's busy timeout).
_BUSY_SECONDS = 30
#: How long a writer waits at the :class:`WriteGate` before it goes on without it.
_GATE_SECONDS = 30

MIGRATIONS = Path(__file__).parent / "migrations"


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL ``postgresql+psycopg://...`` as a plain libpq URL (for psycopg's own
    connections: the hub's and the event loop's)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


_REVISION = re.compile(r"^revision\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DOWN = re.compile(r"^down_revision\s*=\s*(?:[\"']([^\"']+)[\"']|None)", re.MULTILINE)

# Any constant works; it only has to be the same in every process.
_MIGRATION_LOCK = 0x4B4E4946


class DriverMissing(RuntimeError):
    """A PostgreSQL URL in an installation without psycopg (the ``postgres`` extra)."""


#: What to install for PostgreSQL: psycopg is an extra, SQLite needs nothing (docs/deploy.md).
POSTGRES_EXTRA = (
    "PostgreSQL needs psycopg, which this installation lacks: install the board with "
    "its postgres extra (pip install 'kniffel[postgres]', or uv sync --extra postgres)"
)


def check_driver(url: str) -> None:
    """Raise :class:`DriverMissing` when ``url`` is PostgreSQL and psycopg is not installed."""
    if make_url(url).get_backend_name() != "postgresql":
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise DriverMissing(POSTGRES_EXTRA) from None


def open_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's directory is created first. A PostgreSQL URL
    without a driver (``postgresql://``) means psycopg, the one the board installs."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        check_driver(url)
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        # A database that does not answer fails a connect within seconds instead of hanging
        # a request (and /healthz) for minutes.
        return create_engine(parsed, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if parsed.query.get("uri") == "true" and database.startswith("file:"):
        # SQLite's URI form (``file:PATH?mode=ro``): the file is PATH, not a folder "file:".
        database = database.removeprefix("file:")
    if not memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {
        "connect_args": {"check_same_thread": False, "timeout": _BUSY_SECONDS}
    }
    if memory:
        # One shared connection, or every new one would see an empty database.
        kwargs["poolclass"] = StaticPool
    else:
        kwargs.update(pool_size=SQLITE_POOL, max_overflow=SQLITE_POOL)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_pragmas)
    if not memory:
        _GATES[engine] = WriteGate(engine)
        _INDEXES[engine] = str(Path(database).expanduser()) + "-shm"
    return engine


def check_wal_index(engine: Engine) -> None:
    """Raises SQLite's read-only error (``SQLITE_READONLY``) while the WAL index (``-shm``) of
    ``engine``'s file cannot be written; nothing for other databases.

    SQLite maps the WAL index into memory, and every reader and writer writes into it, also
    when a connection closes: made immutable under a running board (``chattr +i``), the next
    request killed the process with SIGBUS, without a log line (issue 33, item 7). This looks
    at the file alone (one ``access`` call) and touches no connection, so the board answers
    503 and logs the outage once (docs/deploy.md, "Limits at the edge"); the web asks before
    every request and the background before every round.
    """
    index = _INDEXES.get(engine)
    if index is None:
        return
    if os.path.exists(index) and not os.access(index, os.W_OK):
        refused = sqlite3.OperationalError(
            f"attempt to write a readonly database ({Path(index).name} cannot be written)"
        )
        refused.sqlite_errorname = "SQLITE_READONLY"
        raise refused


#: The WAL index of each engine :func:`open_engine` made for an SQLite file, noted when it is
#: made: every request asks (docs/benchmarks.md, "Load").
_INDEXES: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def write_gate(engine: Engine) -> WriteGate | None:
    """The gate of an engine that :func:`open_engine` made for an SQLite file, else ``None``."""
    return _GATES.get(engine)


_GATES: weakref.WeakKeyDictionary[Engine, WriteGate] = weakref.WeakKeyDictionary()
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")
_HOLDS = "kniffel_holds_write_gate"


class WriteGate:
    """One writing transaction at a time among this process's SQLite connections.

    SQLite allows one writer per file; a second connection that tries to write waits in
    SQLite's busy handler, which sleeps and retries (up to 100 ms a sleep) instead of
    queueing. Under load (docs/benchmarks.md, "Load") entries spent seconds there while the
    CPU idled. The gate is taken before a connection's first writing statement and given
    back when the connection returns to the pool, its transaction over, so this process's
    writers queue on a lock and each starts the moment the one before has committed.
    Readers never take it: WAL lets them read while a writer writes. A writer in another
    process (an import from the command line) still meets the busy timeout.
    """

    def __init__(self, engine: Engine) -> None:
        self.lock = threading.Lock()
        event.listen(engine, "before_cursor_execute", self._take)
        # Given back when the connection returns to the pool, after its commit or rollback
        # has finished (the engine's own commit event comes before the commit is done), or
        # when it is closed or thrown away.
        for name in ("checkin", "close"):
            event.listen(engine.pool, name, self._give)
        event.listen(engine.pool, "invalidate", self._give_invalid)

    def _take(self, connection: Connection, *args: Any) -> None:
        statement: str = args[1]
        info = connection.info
        if not info.get(_HOLDS) and statement.lstrip()[:7].upper().startswith(_WRITES):
            # Bounded like SQLite's own wait: should a thread ever write on a second
            # connection inside its own transaction, it goes on after the timeout and meets
            # SQLite's busy handler as it did without the gate, instead of waiting forever.
            info[_HOLDS] = self.lock.acquire(timeout=_GATE_SECONDS)

    def _give(self, dbapi_connection: Any, connection_record: Any) -> None:
        if connection_record is not None:
            self._release(connection_record.info)

    def _give_invalid(self, dbapi_connection: Any, connection_record: Any, error: Any) -> None:
        self._give(dbapi_connection, connection_record)

    def _release(self, info: dict[Any, Any]) -> None:
        if info.pop(_HOLDS, False):
            self.lock.release()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers go on while a writer commits; busy_timeout makes a second
    # writer wait instead of failing at once.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={_BUSY_SECONDS * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    # FULL: a commit is on disk before it returns, so an acknowledged event
    # survives a power cut, not only a crash of the process (docs/deploy.md).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


class NewerSchema(RuntimeError):
    """The database was migrated by a newer release: this one does not know its schema and
    must not write to it (there is no downgrade; docs/deploy.md, "Upgrades")."""

    def __init__(self, found: str) -> None:
        self.found = found
        super().__init__(
            f"the database was migrated by a newer release of kniffel (schema {found}; this "
            f"release knows schemas up to {head_revision()}): run the newer release, or "
            "restore the backup taken before the upgrade (docs/deploy.md, Upgrades)"
        )


@cache
def known_revisions() -> frozenset[str]:
    """Every migration's revision id, read from the files."""
    return frozenset(_revisions()[0])


@cache
def head_revision() -> str:
    """The newest migration's revision id, read from the files without importing Alembic.

    The head is the one revision no other names as its ``down_revision``.
    """
    revisions, parents = _revisions()
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migrations must have one head, found {sorted(heads)}")
    return heads.pop()


def _revisions() -> tuple[set[str], set[str]]:
    """Every revision and every revision some other names as its ``down_revision``."""
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
    return revisions, parents


def current_revision(connection: Connection) -> str | None:
    """The revision the database is stamped with, ``None`` for a database without one."""
    if not inspect(connection).has_table("alembic_version"):
        return None  # a fresh database
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if found is None else str(found)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe when several processes start).

    A database migrated by a newer release raises :class:`NewerSchema` and is left as it
    is. A database already at the head is only looked at (one small query): Alembic
    is not even imported, which keeps the start fast. A new SQLite database (no table
    at all) gets the models' tables and the head's stamp in one transaction
    (:func:`_create_fresh`), which is what the migrations build, without them.
    """
    with engine.connect() as connection:
        revision = current_revision(connection)
        fresh = revision is None and not inspect(connection).get_table_names()
        connection.rollback()
    if revision == head_revision():
        return
    if revision is not None and revision not in known_revisions():
        # Alembic would fail with "Can't locate revision" deep in a traceback.
        raise NewerSchema(revision)
    if fresh and engine.dialect.name == "sqlite" and _create_fresh(engine):
        return
    _upgrade(engine)


_VERSION_TABLE = (
    "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
    "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
)


def _create_fresh(engine: Engine) -> bool:
    """The models' tables and Alembic's stamp of the head, in one transaction.

    Running the migrations one by one on an empty file cost a start about half a second
    (docs/benchmarks.md, "Start"); tests check that this builds the schema the migrations
    build (``tests/store/test_opening.py``). ``False`` when another process created the
    tables meanwhile (nothing done here; the migrations then find the head).
    """
    # Every table is in METADATA: the package kniffel.store, imported before this
    # module, imports the modules that define them.
    from kniffel.store.models import METADATA

    try:
        with engine.begin() as connection:
            METADATA.create_all(connection)
            connection.execute(text(_VERSION_TABLE))
            connection.execute(
                text("INSERT INTO alembic_version (version_num) VALUES (:head)"),
                {"head": head_revision()},
            )
    except DBAPIError:
        return False
    return True


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
