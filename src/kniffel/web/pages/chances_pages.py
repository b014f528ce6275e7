"""Win chances on the board's pages: ``/g/{id}/chancen.json`` (the API's answer with the
device's key) and the end screen's chart ``/g/{id}/chancen.svg``, drawn off the request by the
:class:`~kniffel.board.chances.ChancesService`'s queue (202 with a "being drawn" picture until
then, 503 when the queue is full). The JSON for programs is :mod:`kniffel.web.api.chances`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.chances import Busy
from kniffel.locales import N_
from kniffel.web import rendering
from kniffel.web.api import tables
from kniffel.web.api.chances import ASK_AGAIN, chances_body, chances_service
from kniffel.web.present.pending_chart import pending_chart as _placeholder

__all__ = ["router"]

#: The chart's words (message ids of the catalogues) by keyword of :func:`chances_chart_svg`.
CHART_WORDS = {
    "title": N_("Gewinnchancen nach jedem Eintrag"),
    "xlabel": N_("Eintrag"),
    "ylabel": N_("Gewinnchance"),
}
#: Jamb's and Yams's chart: a point per round (docs/board.md, "Gewinnchancen").
ROUND_CHART_WORDS = {
    "title": N_("Gewinnchancen nach jeder Runde"),
    "xlabel": N_("Runde"),
    "ylabel": N_("Gewinnchance"),
}

router = APIRouter(include_in_schema=False)
pages = router


@pages.get("/g/{game_id}/chancen.json", response_model=None)
def chances_page_json(request: Request, game_id: str) -> dict[str, Any] | JSONResponse:
    """The chances for the board's page, with this device's key (the API's answer)."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, rendering.device_key(request, view))
    return chances_body(request, view)


@pages.get("/g/{game_id}/chancen.svg")
async def chances_chart(request: Request, game_id: str) -> Response:
    """Each player's win chance after every entry (SVG), for the end screen; Jamb and Yams
    after every round (their positions are valued by bot games: a bounded number per chart)."""
    t = rendering.translator(request)
    lang = t.lang
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    by_round = chances_service(request).series_apart(view.variant)
    if not by_round and not tables.builds(request).readiness(view.variant).ready:
        # A chart never starts a build; the API or a key holder's page does.
        return _placeholder(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)

    chosen = ROUND_CHART_WORDS if by_round else CHART_WORDS
    words = {key: t(text) for key, text in chosen.items()}
    try:
        svg = chances_service(request).chart(view, lang, words, tables.client_of(request))
    except Busy as busy:
        text = t("Gerade werden viele Diagramme gezeichnet. Bitte später noch einmal ansehen.")
        return _placeholder(text, 503, busy.retry_after)
    if svg is None:
        return _placeholder(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
