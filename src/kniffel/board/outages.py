"""A database that does not answer, or cannot be written: how the board tells it from a bug,
and one log line per outage (docs/deploy.md, "Limits at the edge").

The web answers such an error with 503 (:mod:`kniffel.web.middleware.outage`); the background
chores (:mod:`kniffel.board.background`) wait for the database. Both log through
:class:`Outages`: one warning when an outage starts, one line when the database answers again,
never a traceback per request or per chore.
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy import exc

__all__ = ["QUIET_SECONDS", "Outages", "is_outage", "read_only"]

#: Seconds without a database error after which the next one starts a new outage (and logs).
QUIET_SECONDS = 30.0
#: The drivers' own connection errors (the store's quick reads use the driver directly).
_DRIVER_ERRORS = {
    ("sqlite3", "OperationalError"),
    ("sqlite3", "InterfaceError"),
    ("psycopg", "OperationalError"),
    ("psycopg", "InterfaceError"),
}


def read_only(error: BaseException) -> bool:
    """The database refuses writes: SQLite's SQLITE_READONLY family (a file opened read-only,
    made read-only or immutable under the board), PostgreSQL's read-only transaction (25006:
    a standby, a read-only role)."""
    orig = getattr(error, "orig", None) or error
    name = getattr(orig, "sqlite_errorname", None)
    if isinstance(name, str) and name.startswith("SQLITE_READONLY"):
        return True
    return getattr(orig, "sqlstate", None) == "25006"


def is_outage(error: BaseException) -> bool:
    """A connection that failed or went away, a pool with no connection in time, or a database
    that cannot be written; not a wrong statement (that stays a bug, with its traceback)."""
    if isinstance(error, exc.DBAPIError):
        return (
            isinstance(error, exc.OperationalError | exc.InterfaceError)
            or bool(error.connection_invalidated)
            or read_only(error)
        )
    if isinstance(error, exc.TimeoutError):
        return True
    kind = type(error)
    for base in kind.__mro__:
        if (base.__module__.partition(".")[0], base.__name__) in _DRIVER_ERRORS:
            return True
    return read_only(error)


class Outages:
    """One warning on ``log`` when an outage starts (the next only after :data:`QUIET_SECONDS`
    without an error), and with ``back`` one line when it is over."""

    def __init__(self, log: logging.Logger, what: str = "answering 503 until it answers again"):
        self._log = log
        self._what = what
        self._lock = threading.Lock()
        self._last: float | None = None
        self._down = False

    def seen(self, error: BaseException) -> None:
        now = time.monotonic()
        with self._lock:
            new = self._last is None or now - self._last > QUIET_SECONDS or not self._down
            self._last = now
            self._down = True
        if new:
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()
            self._log.warning(
                "database %s (%s): %s",
                "cannot be written" if read_only(error) else "unreachable",
                reason[0] if reason else type(error).__name__,
                self._what,
            )

    def back(self) -> None:
        """The database answered: one line if it was down."""
        with self._lock:
            was, self._down = self._down, False
        if was:
            self._log.warning("database answers again")
