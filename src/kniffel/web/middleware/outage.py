"""A database that does not answer: 503 with ``Retry-After``, and one log line per outage
(docs/deploy.md, "Limits at the edge").

Without this, every request during a PostgreSQL restart (or with an SQLite file that cannot be
opened) answered 500 and wrote its own traceback: hundreds of lines for one event that the
operator already sees on ``/healthz``. Now a request that meets a connection error answers 503
``database_unavailable`` with ``Retry-After: 5``, and the log gets one warning when the outage
starts: the next one only after :data:`QUIET_SECONDS` without such an error.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc, make_url
from starlette.types import ASGIApp, Receive, Scope, Send

from kniffel.board.outages import QUIET_SECONDS, Outages, is_outage
from kniffel.web.middleware.errors import error_response

__all__ = ["CODE", "QUIET_SECONDS", "RETRY_AFTER", "install"]

CODE = "database_unavailable"
#: Seconds a client is asked to wait before it tries again.
RETRY_AFTER = 5
_LOG = logging.getLogger("kniffel.web")
_MESSAGE = "the database cannot be reached just now; nothing was stored, try again in a moment"


def install(app: FastAPI, db: str) -> None:
    """Answer connection errors of the database at URL ``db`` with 503 (one handler for every
    route)."""
    outages = Outages(_LOG)

    async def unavailable(_request: Request, error: Exception) -> JSONResponse:
        if isinstance(error, exc.DBAPIError) and not is_outage(error):
            raise error
        outages.seen(error)
        return error_response(503, _MESSAGE, code=CODE, headers={"Retry-After": str(RETRY_AFTER)})

    app.add_exception_handler(exc.DBAPIError, unavailable)
    if make_url(db).get_backend_name() == "sqlite":
        app.add_middleware(FileGuard, outages=outages)
    # The pool found no connection in time (every one lost or hanging).
    app.add_exception_handler(exc.TimeoutError, unavailable)
    # The drivers' own errors: the store's quick reads use the driver's connection directly.
    for error in _driver_errors(make_url(db).get_backend_name()):
        app.add_exception_handler(error, unavailable)


def _driver_errors(backend: str) -> list[type[Exception]]:
    """The connection errors of the database's own driver; psycopg only for PostgreSQL, whose
    import alone took about 0.3 s of CPU of every SQLite board's start (docs/benchmarks.md,
    "Start")."""
    if backend == "postgresql":
        import psycopg

        return [
            psycopg.OperationalError,
            psycopg.InterfaceError,
            psycopg.errors.ReadOnlySqlTransaction,
        ]
    import sqlite3

    return [sqlite3.OperationalError, sqlite3.InterfaceError]


class FileGuard:
    """Before every request: the SQLite file can be used safely (the store's ``check_files``);
    else 503 as for any outage, without touching the database. A connection to a file whose
    WAL index was made unwritable under the board killed the process with SIGBUS, even at
    its close (issue 33, item 7)."""

    def __init__(self, app: ASGIApp, *, outages: Outages) -> None:
        self.app = app
        self.outages = outages

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        store = getattr(scope["app"].state, "store", None) if "app" in scope else None
        check = getattr(store, "check_files", None)
        if scope["type"] in ("http", "websocket") and check is not None:
            try:
                check()
            except Exception as error:
                if not is_outage(error):
                    raise
                self.outages.seen(error)
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1013})
                    return
                headers = {"Retry-After": str(RETRY_AFTER)}
                response = error_response(503, _MESSAGE, code=CODE, headers=headers)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
