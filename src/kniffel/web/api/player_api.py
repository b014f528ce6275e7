"""Players across games as JSON: ``GET /api/players``, ``GET /api/players/{name}`` and
``POST /api/games/{id}/players/{seat}/link`` (a key holder counts a seat as another name).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from kniffel.web.api.api import Key
from kniffel.web.pages.player_pages import PAGE
from kniffel.web.pages.players import players_of

__all__ = ["api"]

api = APIRouter(tags=["players"])


@api.get(
    "/players",
    summary="The players with a finished game and the leaderboard per preset, 100 a page",
)
def players_json(
    request: Request,
    page: Annotated[int, Query(ge=1, le=1_000_000, description="the page, from 1")] = 1,
) -> dict[str, Any]:
    """Page ``page`` of the players (most games first) and of each preset's leaderboard (best
    mean first), :data:`~kniffel.web.pages.player_pages.PAGE` of each: a page costs the same
    however many players there are (issue 33). ``count`` and ``pages`` say how far it goes."""
    players = players_of(request)
    first, last = (page - 1) * PAGE, page * PAGE
    count = players.player_count()
    board = {v: [r.as_dict() for r in rows] for v, rows in players.leaderboard(first, last).items()}
    return {
        "players": players.listed(first, last),
        "leaderboard": board,
        "count": count,
        "page": page,
        "pages": max(1, -(-count // PAGE)),
    }


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
