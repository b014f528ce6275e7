"""Solved tables in the board over HTTP: no request builds one, and only a key holder starts one.

The Tipp, the analysis, the review and the best bot read solved tables. Before one of them
runs, :func:`ensure` asks the app's :class:`~kniffel.board.tables.TableReadiness`:

- the tables are ready: go on (reading stays open to everyone, as watching is);
- they are being built (queued or running): :class:`TableBuilding`, which the
  API answers 202 with ``{"code": "table_building", "params": {"progress": p},
  "message": ...}`` and the pages show as "wird berechnet" with the progress;
- they are missing: only a request with the game's key queues them (and gets
  202); without it :class:`TableNeedsKey` (403), and nothing is built. The
  presets' tables are queued for anyone (should they have gone from the cache).
- the builds of new house rules are full (the queue, or this client's share an hour:
  :class:`~kniffel.board.tables.BuildsBusy`): the API answers 503 with
  ``Retry-After`` and ``{"code": "tables_busy", "params": {"reason": ..., "retry_after":
  s}, "message": ...}``, and nothing is queued (docs/deploy.md, "Limits").

A build that a request starts through a bot seat (creating or importing a game with a ``best``
seat, or an entry that makes one move) counts against the client of that request like a
Tipp's (:class:`AskingClient` tells the bot seats who asks; issue 33 item 3).

The presets' tables with their default options are queued when the board
starts (``Settings.prebuild_tables``), so a fresh server builds them once in
the background and they are there from then on (cached on disk).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.types import ASGIApp, Receive, Scope, Send

from kniffel.board.service import GameView
from kniffel.board.tables import (
    BuildsBusy,
    NoSolver,
    TableBuilding,
    TableNeedsKey,
    TableReadiness,
    asking,
)
from kniffel.web.middleware.errors import ErrorBody

__all__ = [
    "GAME_RESPONSES",
    "RESPONSES",
    "AskingClient",
    "BuildsBusy",
    "NoSolver",
    "TableBuilding",
    "TableNeedsKey",
    "builds",
    "ensure",
    "install",
]


class BuildingBody(BaseModel):
    """202: the game's solver table is being built; ask again (``params.progress``: 0 to 1)."""

    code: Literal["table_building"]
    params: dict[str, float]
    message: str


#: What the routes that read tables document besides their own answers.
RESPONSES: dict[int | str, dict[str, Any]] = {
    202: {"model": BuildingBody, "description": "the solver table is being built; ask again"},
    403: {"description": "the solver table is not built, and only the game's key may start it"},
    503: {
        "model": ErrorBody,
        "description": "the table builds of new house rules are full; ask again after Retry-After",
    },
}
#: What a reading route of one game that needs its tables documents (the review, the chances).
GAME_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"description": "there is no such game"},
    422: {"description": "the request is malformed"},
    **RESPONSES,
}


def builds(request: Request) -> TableReadiness:
    """The app's table readiness (:class:`kniffel.board.tables.TableReadiness`)."""
    readiness: TableReadiness = request.app.state.readiness
    return readiness


def ensure(request: Request, view: GameView, key: str | None) -> None:
    """Returns when ``view``'s tables are ready; raises :class:`TableBuilding` or
    :class:`TableNeedsKey` otherwise (queueing the build when ``key`` is the game's)."""
    builds(request).ensure(view, key, client_of(request))


def client_of(request: Request) -> str:
    """Who asks, for the builds' share per client: the address (behind a proxy, the one
    ``--forwarded-allow-ips`` lets uvicorn take from ``X-Forwarded-For``)."""
    return request.client.host if request.client is not None else "?"


class AskingClient:
    """Names the client of each HTTP request (:data:`kniffel.board.tables.asking`, as
    :func:`client_of` does) while it runs, for the builds it starts through bot seats."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = asking.set(client[0] if client else "?")
        try:
            await self.app(scope, receive, send)
        finally:
            asking.reset(token)


def busy_body(busy: BuildsBusy) -> dict[str, object]:
    return {
        "code": "tables_busy",
        "params": {"reason": busy.reason, "retry_after": busy.retry_after},
        "message": (
            "the solver tables of new house rules are being built for others; "
            f"nothing was queued, ask again in {busy.retry_after} seconds"
        ),
    }


def building_body(progress: float) -> dict[str, object]:
    return {
        "code": "table_building",
        "params": {"progress": round(progress, 2)},
        "message": (
            "the solver table for this game's house rules is being built; "
            "ask again in a few seconds"
        ),
    }


def install(app: FastAPI, readiness: TableReadiness) -> None:
    """Puts the readiness (and its builder) on ``app`` and answers :class:`TableBuilding`
    with 202 and :class:`BuildsBusy` with 503."""
    app.state.readiness = readiness
    app.state.tables = readiness.builds
    app.add_middleware(AskingClient)

    async def building(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, TableBuilding)
        return JSONResponse(building_body(exc.progress), status_code=202)

    async def busy(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, BuildsBusy)
        return JSONResponse(
            busy_body(exc), status_code=503, headers={"Retry-After": str(exc.retry_after)}
        )

    app.add_exception_handler(TableBuilding, building)
    app.add_exception_handler(BuildsBusy, busy)
