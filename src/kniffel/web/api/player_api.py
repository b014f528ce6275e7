"""Players across games as JSON: ``GET /api/players``, ``GET /api/players/{name}`` and
``POST /api/games/{id}/players/{seat}/link`` (a key holder counts a seat as another name).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from kniffel.web.api.api import Key
from kniffel.web.pages.players import players_of

__all__ = ["api"]

api = APIRouter(tags=["players"])


@api.get("/players", summary="Every player with a finished game, and the leaderboard per preset")
def players_json(request: Request) -> dict[str, Any]:
    players = players_of(request)
    board = {v: [r.as_dict() for r in rows] for v, rows in players.leaderboard().items()}
    return {"players": players.listed(), "leaderboard": board}


@api.get(
    "/players/{name:path}",
    responses={
        404: {"description": "no finished game of that player"},
        422: {"description": "the request is malformed"},
    },
    summary="One player's figures across games (name without regard to case and spaces)",
)
def player_json(name: str, request: Request) -> dict[str, Any]:
    players = players_of(request)
    return players.stats_json(players.stats(name))


class LinkBody(BaseModel):
    name: Annotated[
        str | None,
        Field(max_length=200, description="the name to count the seat as; null: its own name"),
    ] = None


@api.post(
    "/games/{game_id}/players/{seat}/link",
    responses={
        400: {"description": "the body is not JSON"},
        403: {"description": "the key is missing or wrong"},
        404: {"description": "there is no such game"},
        409: {"description": "no such seat, or the game is not over"},
        422: {"description": "the request is malformed"},
    },
    summary="Count a seat of a finished game as another player (needs the game's key)",
)
def link_json(
    game_id: str,
    seat: Annotated[int, PathParam(ge=0, le=7, description="the seat, 0 for the first")],
    body: LinkBody,
    key: Key,
    request: Request,
) -> dict[str, Any]:
    return players_of(request).link(game_id, seat, body.name, key)
