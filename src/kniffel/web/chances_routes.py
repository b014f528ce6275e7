"""Win chances in the board: ``/api/games/{id}/chances`` and the end screen's chart.

- ``GET /api/games/{id}/chances``: each player's chance to finish first with its
  95 % interval, how it was computed, expected final total and 10th/90th
  percentiles (docs/board.md, "Gewinnchancen"; docs/solver.md, "Win chances").
- ``GET /g/{id}/chancen.json``: the same for the board's page (static/chances.js): it
  lies under the page's address, so the device's key (a cookie for that address
  only) comes with it and may start building the tables of a house-rules game.
- ``GET /g/{id}/chancen.svg``: each player's chance after every entry.

All come from one function (``forecast`` of the solver, behind
:class:`kniffel.board.chances.ChancesService`), computed once per game version and kept, so
every device at the table that shows the chances costs one computation per entry. The chart
values every position of the game, so no request draws it: the first queues it and gets a
"being drawn" picture (202), the service's worker draws it, the end screen asks again.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.chances import ChancesService, ChartsBusy
from kniffel.board.views import GameView
from kniffel.locales import N_
from kniffel.rules import Dice
from kniffel.web import rendering
from kniffel.web.api import tables
from kniffel.web.api.api import OPTIONAL_KEY, Key, Rolls, TableDice, Top

__all__ = ["chances_body", "chances_service", "router"]

#: The chart's words (message ids of the catalogues) by keyword of :func:`chances_chart_svg`.
CHART_WORDS = {
    "title": N_("Gewinnchancen nach jedem Eintrag"),
    "xlabel": N_("Eintrag"),
    "ylabel": N_("Gewinnchance"),
}

api = APIRouter(tags=["advice"])
pages = APIRouter(include_in_schema=False)
router = APIRouter()


#: How the end screen's chart looks while it is being drawn (the words filled in).
PLACEHOLDER = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360" '
    'role="img" data-chart-pending="{retry}"><title>{text}</title>'
    '<rect width="640" height="360" fill="#f4f4f4"/>'
    '<text x="320" y="185" text-anchor="middle" font-family="sans-serif" font-size="18" '
    'fill="#444">{text}</text></svg>'
)
#: Seconds after which the end screen asks again for a chart being drawn.
ASK_AGAIN = 2


def chances_service(request: Request) -> ChancesService:
    found: ChancesService = request.app.state.chances
    return found


def chances_body(request: Request, view: GameView) -> dict[str, Any]:
    """The answer of the API and of the board's page."""
    found = chances_service(request).chances(view)
    return {
        "version": view.version,
        "method": found.method,
        "samples": found.samples,
        "players": [p.as_dict() for p in found.players],
    }


@api.get(
    "/games/{game_id}/chances",
    openapi_extra=OPTIONAL_KEY,
    responses=tables.GAME_RESPONSES,
    summary="Each player's chance to finish first, expected final total, 10th and 90th percentile",
)
def chances_json(game_id: str, request: Request, key: Key = None) -> dict[str, Any]:
    """``version``, ``method`` (``exact``: every player's final total has its exact
    distribution, so the chances are exact; ``simulation``: some are estimated from games of
    the best bot, seeded by the position), ``samples`` (the most simulated games behind one
    player; 0 when exact) and ``players`` in seat order, each with ``name``, ``win``, its 95 %
    ``interval`` [low, high] (the chance itself when exact), ``method`` and ``samples`` of
    their own distribution, ``expected_total``, ``p10`` and ``p90``. Players are assumed to
    play on like the best bot; dice not yet entered do not count; ties count as shared."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    return chances_body(request, view)


@api.get(
    "/games/{game_id}/advice/win",
    openapi_extra=OPTIONAL_KEY,
    responses=tables.GAME_RESPONSES,
    summary="Tipp auf Sieg: the choices of the player to move by their chance to finish first",
)
def win_advice(
    game_id: str,
    request: Request,
    dice: TableDice = None,
    rolls: Rolls = 3,
    top: Top = 5,
    key: Key = None,
) -> dict[str, Any]:
    """``player``, ``version`` and ``choices`` (best first), each a roll with the dice to
    ``keep`` or an entry into ``cell`` with its ``points``, its ``label`` and ``win``: the
    chance to finish first after it against the strongest other player, everyone playing on
    like the best bot. Dice typed at the table count only before a roll is recorded."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    game = view.game
    player = game.current_player()
    given = None if dice is None else Dice.parse(dice)
    if given is not None and (player is None or game.pending(player) is not None):
        given = None
    choices = chances_service(request).wins(game, given, rolls)
    return {
        "player": None if player is None else game.players[player],
        "version": view.version,
        "choices": [c.as_dict() for c in choices[:top]],
    }


@pages.get("/g/{game_id}/chancen.json")
def chances_page_json(request: Request, game_id: str) -> dict[str, Any]:
    """The chances for the board's page, with this device's key (the API's answer)."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, rendering.device_key(request, view))
    return chances_body(request, view)


@pages.get("/g/{game_id}/chancen.svg")
async def chances_chart(request: Request, game_id: str) -> Response:
    """Each player's win chance after every entry (SVG), for the end screen."""
    t = rendering.translator(request)
    lang = t.lang
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    if not tables.builds(request).readiness(view.variant).ready:
        # A chart never starts a build; the API or a key holder's page does.
        return _placeholder(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)

    words = {key: t(text) for key, text in CHART_WORDS.items()}
    try:
        svg = chances_service(request).chart(view, lang, words, tables.client_of(request))
    except ChartsBusy as busy:
        text = t("Gerade werden viele Diagramme gezeichnet. Bitte später noch einmal ansehen.")
        return _placeholder(text, 503, busy.retry_after)
    if svg is None:
        return _placeholder(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


def _placeholder(text: str, status: int, retry: int) -> Response:
    """A picture that says why the chart is not there yet (the end screen asks again)."""
    from html import escape

    return Response(
        PLACEHOLDER.format(text=escape(text), retry=retry),
        status_code=status,
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store", "Retry-After": str(retry)},
    )


router.include_router(api, prefix="/api")
router.include_router(pages)
