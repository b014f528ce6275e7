"""The game store: create games, read them back, append events one at a time.

Appends are optimistic: an event is stored only when the game's version is
still the one the caller replayed, so two writers can never both extend the
same state (the loser gets :class:`VersionConflict` and nothing is stored).
The same SQL serialises writers on SQLite and on PostgreSQL, and across
several server processes, because the check lives in the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    bindparam,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql.dml import Update

from kniffel.store.database import check_wal_index, migrate, open_engine
from kniffel.store.models import EVENTS, GAMES
from kniffel.store.summary import Summary

__all__ = [
    "CHANNEL",
    "VERSION_QUERY",
    "Appended",
    "GameStore",
    "NewGame",
    "StoredGame",
    "VersionConflict",
    "VersionsUnavailable",
    "stored_from_row",
]


#: On PostgreSQL every stored event is announced on this channel by the append's own transaction
#: (``pg_notify``, delivered at its commit), the payload ``"<game id> <version>"``: one round trip
#: less per change than a ``NOTIFY`` sent after it (:mod:`kniffel.board.pghub` listens).
CHANNEL = "kniffel_games"


class VersionConflict(ValueError):
    """The game changed since the caller read it; nothing was stored."""

    def __init__(self, game_id: str, expected: int, actual: int | None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"the game has changed meanwhile (version {actual}, not {expected}); reload it"
        )


class VersionsUnavailable(Exception):
    """A version could not be asked the quick way now (:mod:`kniffel.store.loop_versions`):
    ask the way that always works."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a game is created with; ``options`` are the complete resolved options."""

    id: str
    key: str
    variant: str
    options: dict[str, Any]
    players: tuple[str, ...]
    dice_mode: str
    bots: dict[str, str] = field(default_factory=dict)
    #: The games evening it belongs to (the id of the evening's first game), ``None`` alone.
    evening: str | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored; ``events`` only when loaded with them."""

    id: str
    key: str
    variant: str
    options: dict[str, Any]
    players: tuple[str, ...]
    dice_mode: str
    bots: dict[str, str]
    created_at: datetime
    updated_at: datetime
    finished: bool
    version: int
    events: tuple[dict[str, Any], ...] = ()
    #: The summary columns (kniffel.store.summary): cells filled, totals, winners.
    turns: int = 0
    totals: tuple[int, ...] = ()
    winners: tuple[str, ...] = ()
    #: The games evening (docs/board.md, "Revanche"): the id of its first game, ``None`` for a
    #: game alone; and the game a Revanche started after this one, ``None`` before.
    evening: str | None = None
    revanche: str | None = None


class Appended(NamedTuple):
    """Where an append left the game: its new version and when it was stored."""

    version: int
    at: datetime


class Append(NamedTuple):
    """One event to store after ``expected_version`` (see :meth:`GameStore.append`)."""

    game_id: str
    expected_version: int
    payload: dict[str, Any]
    finished: bool
    summary: Summary | None = None


def _append_on(
    connection: Connection, append: Append, now: datetime, announce: bool
) -> Appended | VersionConflict:
    values = _move_on_values(append, now)
    new_version = values["new_version"]
    summary = append.summary
    # The conditional update takes the row's write lock first, so a second writer waits
    # here and then finds the version moved on; a refused one changes nothing.
    statement: Update
    if announce:
        values["notice"] = f"{append.game_id} {new_version}"
        statement = _MOVE_ON_ANNOUNCED if summary is None else _MOVE_ON_SUMMARY_ANNOUNCED
    else:
        statement = _MOVE_ON if summary is None else _MOVE_ON_SUMMARY
    moved = connection.execute(statement, values)
    rowcount = moved.rowcount
    moved.close()
    if rowcount != 1:
        found = connection.execute(VERSION_QUERY, {"game_id": append.game_id}).scalar()
        return VersionConflict(append.game_id, append.expected_version, found)
    row = {"game_id": append.game_id, "seq": new_version, "payload": append.payload}
    connection.execute(_ADD_EVENT, {**row, "created_at": now})
    return Appended(new_version, now)


def _move_on_values(append: Append, now: datetime) -> dict[str, Any]:
    """The parameters of the update that moves ``append``'s game on (``_MOVE_ON…``)."""
    new_version = append.expected_version + 1
    values: dict[str, Any] = {
        "game_id": append.game_id,
        "expected": append.expected_version,
        "new_version": new_version,
        "new_finished": append.finished,
        "new_updated_at": now,
    }
    summary = append.summary
    if summary is not None:
        values.update(
            new_finished=summary.finished,
            new_turns=summary.turns,
            new_totals=list(summary.totals),
            new_winners=list(summary.winners),
        )
    return values


class _OnTheCursor:
    """A Core statement in the driver's own words: compiled once, its parameters put in the
    compiled order through the dialect's own bind processors (dates, JSON, booleans stored as
    SQLAlchemy stores them), run on the transaction's DBAPI cursor. SQLAlchemy's execution of
    the append's two statements cost more CPU than SQLite's work and the commit together
    (docs/benchmarks.md, "Server CPU per request (issue 35 item 4)")."""

    def __init__(self, statement: Any, dialect: Any, keys: Sequence[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        if not compiled.positional or compiled.positiontup is None:
            raise ValueError("a driver with positional parameters only")
        self.sql = str(compiled)
        self.names = tuple(compiled.positiontup)
        self.processors = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.names
        )
        self.error = dialect.loaded_dbapi.Error

    def run(self, connection: Connection, values: Mapping[str, Any]) -> int:
        """Runs the statement with ``values`` in ``connection``'s transaction: its row count.
        The engine's ``before_cursor_execute`` listeners hear it first (the write gate,
        ``database.WriteGate``); a driver error is raised as SQLAlchemy raises it."""
        parameters = tuple(
            value if process is None else process(value)
            for process, value in zip(
                self.processors, (values[name] for name in self.names), strict=True
            )
        )
        cursor = connection.connection.cursor()
        try:
            connection.dispatch.before_cursor_execute(
                connection, cursor, self.sql, parameters, None, False
            )
            cursor.execute(self.sql, parameters)
            rowcount: int = cursor.rowcount
            return rowcount
        except self.error as error:
            raise DBAPIError.instance(self.sql, parameters, error, self.error) from error
        finally:
            cursor.close()


class _CursorAppends:
    """:func:`_append_on` on the driver's cursor (SQLite, where nothing is announced)."""

    def __init__(self, dialect: Any) -> None:
        self.move_on = _OnTheCursor(_MOVE_ON, dialect)
        self.move_on_summary = _OnTheCursor(_MOVE_ON_SUMMARY, dialect)
        self.add_event = _OnTheCursor(_ADD_EVENT, dialect, _EVENT_COLUMNS)

    def append(
        self, connection: Connection, append: Append, now: datetime
    ) -> Appended | VersionConflict:
        values = _move_on_values(append, now)
        new_version = values["new_version"]
        moved = self.move_on if append.summary is None else self.move_on_summary
        if moved.run(connection, values) != 1:
            found = connection.execute(VERSION_QUERY, {"game_id": append.game_id}).scalar()
            return VersionConflict(append.game_id, append.expected_version, found)
        row = {"game_id": append.game_id, "seq": new_version, "payload": append.payload}
        self.add_event.run(connection, {**row, "created_at": now})
        return Appended(new_version, now)


def _utc(moment: datetime) -> datetime:
    # SQLite hands timestamps back without their zone; they were stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _game_row(game: NewGame, summary: Summary, now: datetime, *, version: int) -> dict[str, Any]:
    """The games row of a new game at ``version`` (its events stored with it)."""
    return {
        "id": game.id,
        "key": game.key,
        "variant": game.variant,
        "options": dict(game.options),
        "players": list(game.players),
        "dice_mode": game.dice_mode,
        "bots": dict(game.bots),
        "created_at": now,
        "updated_at": now,
        "finished": summary.finished,
        "version": version,
        "turns": summary.turns,
        "totals": list(summary.totals),
        "winners": list(summary.winners),
    }


def _stored(row: Row[Any], events: Sequence[dict[str, Any]] = ()) -> StoredGame:
    return StoredGame(
        id=row.id,
        key=row.key,
        variant=row.variant,
        options=dict(row.options),
        players=tuple(row.players),
        dice_mode=row.dice_mode,
        bots=dict(row.bots),
        created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
        finished=row.finished,
        version=row.version,
        events=tuple(events),
        turns=row.turns or 0,
        totals=tuple(row.totals or ()),
        winners=tuple(row.winners or ()),
        # A row read by a query that names its columns may lack these.
        evening=getattr(row, "evening", None),
        revanche=getattr(row, "revanche", None),
    )


def stored_from_row(row: Mapping[str, Any], events: Sequence[dict[str, Any]] = ()) -> StoredGame:
    """:class:`StoredGame` from a row of ``games`` read by the driver itself (its columns by
    name, JSON already decoded), as :meth:`GameStore.load` gives it."""
    return _stored(SimpleNamespace(**row), events)  # type: ignore[arg-type]


#: A game's version by id (a statement built once, reused by every read).
VERSION_QUERY = select(GAMES.c.version).where(GAMES.c.id == bindparam("game_id"))
#: An append's statements, built once (building them per call cost more than running them): the
#: game moves on from ``expected`` (with or without its summary columns), the event is inserted.
_MOVE_ON = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("expected"))
    .values(
        version=bindparam("new_version"),
        finished=bindparam("new_finished"),
        updated_at=bindparam("new_updated_at"),
    )
)
_MOVE_ON_SUMMARY = _MOVE_ON.values(
    turns=bindparam("new_turns"),
    totals=bindparam("new_totals"),
    winners=bindparam("new_winners"),
)
#: The same on PostgreSQL, announcing the new version when (and only when) the row moved on.
_ANNOUNCE = func.pg_notify(literal(CHANNEL), bindparam("notice"))
_MOVE_ON_ANNOUNCED = _MOVE_ON.returning(_ANNOUNCE)
_MOVE_ON_SUMMARY_ANNOUNCED = _MOVE_ON_SUMMARY.returning(_ANNOUNCE)
_ADD_EVENT = insert(EVENTS)
_EVENT_COLUMNS = ("game_id", "seq", "payload", "created_at")
#: A game's row (its columns by name) and its events after a version.
_ROW = select(GAMES).where(GAMES.c.id == bindparam("game_id"))
_EVENTS = (
    select(EVENTS.c.payload)
    .where(
        EVENTS.c.game_id == bindparam("game_id"),
        EVENTS.c.seq > bindparam("after"),
        EVENTS.c.seq <= bindparam("upto"),
    )
    .order_by(EVENTS.c.seq)
)


def _cursor_appends(engine: Engine) -> _CursorAppends | None:
    """The appends on the driver's cursor where its parameters are positional (SQLite)."""
    if engine.dialect.name != "sqlite":
        return None
    try:
        return _CursorAppends(engine.dialect)
    except ValueError:
        return None


class GameStore:
    """Games and their events in an SQL database (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # The version query in the driver's own words, for a cursor without SQLAlchemy's
        # execution machinery (which cost more than the query; docs/benchmarks.md, "Load").
        compiled = VERSION_QUERY.compile(dialect=engine.dialect)
        self._version_sql = str(compiled)
        self._version_positional = bool(compiled.positional)
        #: Whether each append announces its new version on :data:`CHANNEL` (PostgreSQL).
        self.announces = engine.dialect.name == "postgresql"
        #: The appends on the driver's cursor (SQLite; PostgreSQL's announce through Core).
        self._on_cursor = None if self.announces else _cursor_appends(engine)

    @classmethod
    def open(cls, url: str) -> GameStore:
        """Connect to ``url`` and run the migrations."""
        engine = open_engine(url)
        migrate(engine)
        return cls(engine)

    @property
    def url(self) -> str:
        """The database URL, password included (for a hub that connects by itself)."""
        return self.engine.url.render_as_string(hide_password=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    def check_files(self) -> None:
        """Raises SQLite's read-only error while the file cannot be used safely (its WAL index
        made unwritable under the board), touching no connection (:func:`check_wal_index`)."""
        check_wal_index(self.engine)

    def reachable(self) -> bool:
        """Whether the database answers a trivial query now (for ``/healthz``)."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except (DBAPIError, OSError):
            return False
        return True

    def check_writable(self) -> None:
        """Raise the database's error when it cannot be written now (opened read-only, a
        read-only file, a read-only PostgreSQL role or standby): a write that changes nothing,
        rolled back."""
        with self.engine.connect() as connection, connection.begin() as transaction:
            connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            transaction.rollback()

    def create(
        self,
        game: NewGame,
        events: Sequence[dict[str, Any]] = (),
        *,
        finished: bool = False,
        summary: Summary | None = None,
    ) -> StoredGame:
        """Store a new game, with ``events`` already checked by the caller, in one transaction.

        ``summary`` is the replay's summary (its ``finished`` wins over ``finished``).
        """
        now = datetime.now(UTC)
        if summary is None:
            summary = Summary(finished, 0, (0,) * len(game.players), ())
        row = _game_row(game, summary, now, version=len(events))
        if game.evening is not None:  # named only when set: a lone game is stored as before
            row["evening"] = game.evening
        with self.engine.begin() as connection:
            connection.execute(insert(GAMES), row)
            if events:
                connection.execute(
                    _ADD_EVENT,
                    [
                        {"game_id": game.id, "seq": seq, "payload": payload, "created_at": now}
                        for seq, payload in enumerate(events, start=1)
                    ],
                )
        return stored_from_row(row, events)

    def create_revanche(self, after: str, game: NewGame, summary: Summary) -> str:
        """Store ``game`` as the Revanche of the game ``after``, once: the id of the Revanche.

        In one transaction ``after`` is marked with ``game``'s id where it has no Revanche yet,
        and ``game`` is stored in ``after``'s evening (``game.evening`` is ignored; ``after``
        joins the evening it opens). Where ``after`` has its Revanche already (another tap, or
        another device, came first) nothing is stored and that Revanche's id is returned. The
        conditional update takes the row's write lock, so two at once store one game.
        """
        now = datetime.now(UTC)
        with self.engine.begin() as connection:
            marked = connection.execute(
                update(GAMES)
                .where(GAMES.c.id == after, GAMES.c.revanche.is_(None))
                .values(revanche=game.id, evening=func.coalesce(GAMES.c.evening, GAMES.c.id))
            )
            rowcount = marked.rowcount
            marked.close()
            found = connection.execute(
                select(GAMES.c.evening, GAMES.c.revanche).where(GAMES.c.id == after)
            ).first()
            if found is None:
                raise LookupError(after)
            if rowcount != 1:
                return str(found.revanche)
            row = _game_row(game, summary, now, version=0)
            connection.execute(insert(GAMES), {**row, "evening": found.evening, "revanche": None})
        return game.id

    def evening(self, evening: str) -> list[StoredGame]:
        """The games of an evening (without their events), oldest first."""
        query = (
            select(GAMES).where(GAMES.c.evening == evening).order_by(GAMES.c.created_at, GAMES.c.id)
        )
        with self.engine.connect() as connection:
            return [_stored(row) for row in connection.execute(query)]

    def evenings_of(self, player: str, limit: int = 3) -> list[str]:
        """The evenings (ids) of the player with key ``player`` (:func:`kniffel.store.player_key`)
        in which they finished a game, the latest first."""
        from kniffel.store.results import PLAYER_RESULTS  # it imports this module's tables

        latest = func.max(GAMES.c.created_at)
        query = (
            select(GAMES.c.evening)
            .join(PLAYER_RESULTS, PLAYER_RESULTS.c.game_id == GAMES.c.id)
            .where(
                PLAYER_RESULTS.c.player == player,
                PLAYER_RESULTS.c.version >= 0,
                GAMES.c.evening.is_not(None),
            )
            .group_by(GAMES.c.evening)
            .order_by(latest.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [str(evening) for evening in connection.scalars(query)]

    def load(self, game_id: str, *, with_events: bool = True, after: int = 0) -> StoredGame | None:
        """The game ``game_id`` with its events in order, or ``None``; with ``after``, only the
        events after that version (a kept replay of version ``after`` is caught up with them).

        Two Core statements built once, on one connection: every cache miss and every catch-up
        comes here, and the ORM's session cost more than the queries (docs/benchmarks.md,
        "Live updates")."""
        with self.engine.connect() as connection:
            row = connection.execute(_ROW, {"game_id": game_id}).first()
            if row is None:
                return None
            events: list[dict[str, Any]] = []
            if with_events:
                found = connection.execute(
                    _EVENTS, {"game_id": game_id, "after": after, "upto": row.version}
                )
                events = list(found.scalars())
            return _stored(row, events)

    def version(self, game_id: str) -> int | None:
        """The game's version, ``None`` for an unknown id: one indexed read on a pooled
        connection, straight through the driver's cursor (every read of the board asks it
        first)."""
        params: Any = (game_id,) if self._version_positional else {"game_id": game_id}
        connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(self._version_sql, params)
                found = cursor.fetchone()
            finally:
                cursor.close()
        finally:
            connection.close()  # back to the pool, its read transaction rolled back
        return None if found is None else int(found[0])

    def append(
        self,
        game_id: str,
        expected_version: int,
        payload: dict[str, Any],
        *,
        finished: bool,
        summary: Summary | None = None,
    ) -> Appended:
        """Store ``payload`` as event ``expected_version + 1``.

        ``summary`` (the replay with the event applied) goes into the summary
        columns in the same transaction. Raises :class:`VersionConflict` (and
        stores nothing) when the game is no longer at ``expected_version``.
        """
        found = self.append_many([Append(game_id, expected_version, payload, finished, summary)])[0]
        if isinstance(found, VersionConflict):
            raise found
        return found

    def append_many(self, appends: Sequence[Append]) -> list[Appended | VersionConflict]:
        """Store several appends in one transaction (one commit, one flush to the disk).

        Each is stored exactly as :meth:`append` would store it alone, in order: one that
        finds its game moved on (by an append before it in the list, too) stores nothing and
        gives its :class:`VersionConflict` in its place. All or none of the others are
        stored: an error of the database rolls back the whole transaction and is raised.
        """
        now = datetime.now(UTC)
        results: list[Appended | VersionConflict] = []
        try:
            # Core statements on one connection, one transaction: no ORM unit of work for a
            # row that is only inserted (every entry of every table comes through here).
            with self.engine.begin() as connection:
                on_cursor = self._on_cursor
                for append in appends:
                    results.append(
                        _append_on(connection, append, now, self.announces)
                        if on_cursor is None
                        else on_cursor.append(connection, append, now)
                    )
        except IntegrityError:
            if len(appends) != 1:
                raise
            # Two writers of one version that both passed the update (only possible without
            # the update's row lock); the event's unique number refused the second.
            append = appends[0]
            version = self.version(append.game_id)
            return [VersionConflict(append.game_id, append.expected_version, version)]
        return results

    def summaries(self, finished: bool | None = None, limit: int = 200) -> list[StoredGame]:
        """Games without their events, most recently changed first."""
        query = select(GAMES).order_by(GAMES.c.updated_at.desc(), GAMES.c.id).limit(limit)
        if finished is not None:
            query = query.where(GAMES.c.finished == finished)
        with self.engine.connect() as connection:
            return [_stored(row) for row in connection.execute(query)]

    def count(self) -> int:
        with self.engine.connect() as connection:
            return connection.scalar(select(func.count()).select_from(GAMES)) or 0
