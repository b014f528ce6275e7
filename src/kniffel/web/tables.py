"""Solved tables in the board: no request builds one, and only a key holder starts a build.

The Tipp, the analysis, the review and the best bot read solved tables
(:mod:`kniffel.solver.builds`). Before one of them runs, :func:`ensure` asks the
app's :class:`~kniffel.solver.builds.TableBuilds`:

- the tables are ready: go on (reading stays open to everyone, as watching is);
- they are being built (queued or running): :class:`TableBuilding`, which the
  API answers 202 with ``{"code": "table_building", "params": {"progress": p},
  "message": ...}`` and the pages show as "wird berechnet" with the progress;
- they are missing: only a request with the game's key queues them (and gets
  202); without it :class:`TableNeedsKey` (403), and nothing is built. The
  presets' tables are queued for anyone (should they have gone from the cache).
- the builds of new house rules are full (the queue, or this client's share an hour:
  :class:`~kniffel.solver.builds.BuildsBusy`): the API answers 503 with
  ``Retry-After`` and ``{"code": "tables_busy", "params": {"reason": ..., "retry_after":
  s}, "message": ...}``, and nothing is queued (docs/deploy.md, "Limits").

The presets' tables with their default options are queued when the board
starts (``Settings.prebuild_tables``), so a fresh server builds them once in
the background and they are there from then on (cached on disk).
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from kniffel.board.errors import BoardError, Forbidden
from kniffel.board.service import GameView
from kniffel.rules import Variant
from kniffel.solver.builds import BuildsBusy, TableBuilds, preset_tables, solvable, tables_for
from kniffel.web.errors import ErrorBody

__all__ = [
    "GAME_RESPONSES",
    "RESPONSES",
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
    403: {
        "model": ErrorBody,
        "description": "the solver table is not built, and only the game's key may start it",
    },
    503: {
        "model": ErrorBody,
        "description": "the table builds of new house rules are full; ask again after Retry-After",
    },
}
#: What a reading route of one game that needs its tables documents (the review, the chances).
GAME_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "there is no such game"},
    422: {"model": ErrorBody, "description": "the request is malformed"},
    **RESPONSES,
}


class NoSolver(BoardError):
    """The solver has no tables for the game's variant (Jamb, Yams with its extra columns):
    the Tipp, the analysis and the chances say so instead of failing (docs/rules.md, "Jamb")."""

    status = 409
    default_code = "no_solver"

    def __init__(self, variant: Variant) -> None:
        super().__init__(
            f"the Tipp, the analysis and the chances are not available for {variant.label} yet",
            variant=variant.label,
        )


class TableNeedsKey(Forbidden):
    """The game's tables are not built, and the request cannot start it (no key)."""

    def __init__(self) -> None:
        super().__init__(
            "the solver table for this game's house rules is not built yet; "
            "only a request with the game's key can start building it"
        )


class TableBuilding(Exception):
    """The game's tables are being built: ``progress`` from 0 to 1."""

    def __init__(self, progress: float) -> None:
        self.progress = progress
        super().__init__(f"the solver table is being built ({progress:.0%})")


def builds(request: Request) -> TableBuilds:
    table_builds: TableBuilds = request.app.state.tables
    return table_builds


def ensure(request: Request, view: GameView, key: str | None) -> None:
    """Returns when ``view``'s tables are ready; raises :class:`TableBuilding` or
    :class:`TableNeedsKey` otherwise (queueing the build when ``key`` is the game's)."""
    if not solvable(view.variant):
        raise NoSolver(view.variant)
    table_builds = builds(request)
    state = table_builds.readiness(view.variant)
    if state.ready:
        return
    if not state.building:
        presets = set(preset_tables())
        if not all(t in presets for t in tables_for(view.variant)) and (
            not key
            or not secrets.compare_digest(key.encode("utf-8", "surrogatepass"), view.key.encode())
        ):
            raise TableNeedsKey()
        state = table_builds.request(view.variant, client_of(request))
        if state.ready:
            return
    raise TableBuilding(state.progress)


def client_of(request: Request) -> str:
    """Who asks, for the builds' share per client: the address (behind a proxy, the one
    ``--forwarded-allow-ips`` lets uvicorn take from ``X-Forwarded-For``)."""
    return request.client.host if request.client is not None else "?"


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


def install(app: FastAPI, table_builds: TableBuilds) -> None:
    """Puts the builder on ``app`` and answers :class:`TableBuilding` with 202."""
    app.state.tables = table_builds

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
