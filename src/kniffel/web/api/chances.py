"""Win chances and the Tipp auf Sieg as JSON: ``/api/games/{id}/chances``, ``/advice/win``
(the board's page routes are :mod:`kniffel.web.pages.chances_pages`).

- ``GET /api/games/{id}/chances``: each player's chance to finish first with its
  95 % interval, how it was computed, expected final total and 10th/90th
  percentiles (docs/board.md, "Gewinnchancen"; docs/solver.md, "Win chances").
- ``GET /g/{id}/chancen.json``: the same for the board's page (static/tafel/chances.js): it
  lies under the page's address, so the device's key (a cookie for that address
  only) comes with it and may start building the tables of a house-rules game.
- ``GET /g/{id}/chancen.svg``: each player's chance after every entry (Jamb and Yams: after
  every round, :mod:`kniffel.solver.chances.rounds`).

All come from one function (``forecast`` of the solver, behind
:class:`kniffel.board.chances.ChancesService`), computed once per game version and kept, so
every device at the table that shows the chances costs one computation per entry. No request
computes them (a simulated sheet costs up to seconds): the first for a version queues them and
answers 202 ``chances_pending`` with the progress and ``Retry-After``; the service's live
worker works them out and later requests get them (503 ``chances_busy`` when the live queue
is full, docs/api.md, "Answers that fill in"). The chart values every position of the game,
so no request draws it either: the first queues it and gets a "being drawn" picture (202),
the service's worker draws it, the end screen asks again.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from kniffel.board.advice import AdviceService
from kniffel.board.chances import Busy, ChancesService
from kniffel.board.views import GameView
from kniffel.rules import MAX_ROLLS, Dice
from kniffel.web import rendering
from kniffel.web.api import pending, tables
from kniffel.web.api.api import OPTIONAL_KEY, Key, Rolls, TableDice, Top
from kniffel.web.api.pending import PendingBody

__all__ = ["chances_body", "chances_service", "router"]

api = APIRouter(tags=["advice"])
router = APIRouter()

#: Seconds after which the end screen asks again for a chart being drawn.
ASK_AGAIN = 2
#: Seconds after which a board asks again for chances being worked out.
ASK_AGAIN_CHANCES = 1


#: What the chances route documents: its 202 has two codes, its 503 two reasons.
CHANCES_RESPONSES: dict[int | str, dict[str, Any]] = {
    **tables.GAME_RESPONSES,
    202: {"model": PendingBody, "description": "being built or worked out; ask again"},
    503: {
        **tables.GAME_RESPONSES[503],
        "description": (
            "the table builds of new house rules (tables_busy) or the chances being worked "
            "out (chances_busy) are full; ask again after Retry-After"
        ),
    },
}


def chances_service(request: Request) -> ChancesService:
    found: ChancesService = request.app.state.chances
    return found


def chances_body(request: Request, view: GameView) -> dict[str, Any] | JSONResponse:
    """The answer of the API and of the board's page: the figures if they are worked out,
    else 202 with the progress (queued), or 503 when the queue is full."""
    try:
        found = chances_service(request).chances(view, tables.client_of(request))
    except Busy as busy:
        line = (
            "the chances of many games are being worked out; nothing was queued, "
            f"ask again in {busy.retry_after} seconds"
        )
        return JSONResponse(
            {
                "code": "chances_busy",
                "params": {"reason": busy.reason, "retry_after": busy.retry_after},
                "message": line,
                "detail": line,  # every error body has it (docs/api.md)
            },
            status_code=503,
            headers={"Retry-After": str(busy.retry_after)},
        )
    if isinstance(found, float):
        return JSONResponse(
            {
                "code": "chances_pending",
                "params": {"progress": round(found, 2)},
                "message": "the chances of this version are being worked out; ask again",
            },
            status_code=202,
            headers={"Retry-After": str(ASK_AGAIN_CHANCES), "Cache-Control": "no-store"},
        )
    body = {
        "version": view.version,
        "method": found.method,
        "samples": found.samples,
        "refining": found.refining,
        "players": [p.as_dict() for p in found.players],
    }
    if found.refining:  # narrower figures are on their way: ask again (static/tafel/chances.js)
        headers = {"Retry-After": str(ASK_AGAIN_CHANCES), "Cache-Control": "no-store"}
        return JSONResponse(body, headers=headers)
    return body


@api.get(
    "/games/{game_id}/chances",
    openapi_extra=OPTIONAL_KEY,
    responses=CHANCES_RESPONSES,
    response_model=None,
    summary="Each player's chance to finish first, expected final total, 10th and 90th percentile",
)
def chances_json(game_id: str, request: Request, key: Key = None) -> dict[str, Any] | JSONResponse:
    """``version``, ``method`` (``exact``: every player's final total has its exact
    distribution, so the chances are exact; ``simulation``: some are estimated from games of
    the best bot, seeded by the position), ``samples`` (the most simulated games behind one
    player; 0 when exact) and ``players`` in seat order, each with ``name``, ``win``, its 95 %
    ``interval`` [low, high] (the chance itself when exact), ``method`` and ``samples`` of
    their own distribution, ``expected_total``, ``p10`` and ``p90``. Players are assumed to
    play on like the best bot; dice not yet entered do not count; ties count as shared.

    The first request for a game version queues the work and answers 202 ``chances_pending``
    (``params.progress``, ``Retry-After``); ask again until the figures come (the same on
    every later request for that version). In Jamb and Yams ``refining`` true (with
    ``Retry-After``) says more games are being played to narrow the intervals, until every
    player's range is within ±3 points or a bound of work is reached: ask again for each
    narrower answer; false, the figures stay as they are."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    return chances_body(request, view)


@api.get(
    "/games/{game_id}/advice/win",
    openapi_extra=OPTIONAL_KEY,
    responses=pending.responses("wins_busy"),
    response_model=None,
    summary="Tipp auf Sieg: the choices of the player to move by their chance to finish first",
)
def win_advice(
    game_id: str,
    request: Request,
    dice: TableDice = None,
    rolls: Rolls = MAX_ROLLS,
    top: Top = 5,
    key: Key = None,
) -> dict[str, Any] | JSONResponse:
    """``player``, ``version`` and ``choices`` (best first), each a roll with the dice to
    ``keep`` or an entry into ``cell`` with its ``points``, its ``label`` and ``win``: the
    chance to finish first after it against the strongest other player, everyone playing on
    like the best bot. Dice typed at the table count only before a roll is recorded.

    The list is worked out off the request: the first request for a position queues it and
    answers 202 ``wins_pending`` (``params.progress``, ``Retry-After``); 503 ``wins_busy``
    when the queue is full (docs/api.md, "Answers that fill in")."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    tables.builds(request).ensure_solver(view)  # Jamb and Yams: no "Auf Sieg" (docs/solver.md)
    game = view.game
    player = game.current_player()
    given = None if dice is None else Dice.parse(dice)
    if given is not None and (player is None or game.pending(player) is not None):
        given = None
    advising: AdviceService = request.app.state.advice
    try:
        choices = advising.wins_of(view, given, rolls, tables.client_of(request))
    except Busy as busy:
        return pending.busy_answer("wins_busy", "many lists of Auf Sieg are", busy)
    if isinstance(choices, float):
        what = "the list of Auf Sieg of this position is"
        return pending.pending_answer("wins_pending", what, choices, pending.ASK_AGAIN)
    return {
        "player": None if player is None else game.players[player],
        "version": view.version,
        "choices": [c.as_dict() for c in choices[:top]],
    }


router.include_router(api, prefix="/api")
