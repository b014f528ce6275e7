"""The game review (Spielbericht) in the board: ``/g/{id}/analyse`` and its JSON.

- ``GET /g/{id}/analyse``: the review, the first view of the analysis; the full
  table of every decision is one tap away at ``/g/{id}/analyse/alle``.
- ``GET /g/{id}/analyse/verlauf.svg``: the chart of each player's expected
  final total after every decision, drawn from the review once it is made (by the
  background thread or the page); before, 202 with a "being drawn" picture and the review
  queued (503 when the queue is full), never a review inside the chart's request.
- ``GET /api/games/{id}/review``: the review as JSON (the analysis's keys
  plus ``accuracy``, ``counts``, ``loss_per_decision`` … per player).

No request makes a review: the page and the JSON of a game version not reviewed yet queue it
(:meth:`~kniffel.board.reviews.ReviewService.ask`) and answer at once, the page a waiting page
that asks again by itself, the JSON 202 ``review_pending`` (issue 21).

Reviews are kept per game version by the app's
:class:`~kniffel.board.reviews.ReviewService` (``app.state.reviews``), so a page, its
chart and its JSON cost one analysis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.advice import AdviceService
from kniffel.board.reviews import Busy, ReviewService
from kniffel.board.service import GameView
from kniffel.rules import MAX_ROLLS
from kniffel.web import rendering
from kniffel.web.api import pending, tables
from kniffel.web.api.api import OPTIONAL_KEY, Key
from kniffel.web.pages.advice_pages import queued_page, waiting_page
from kniffel.web.pages.player_routes import player_href, players_of
from kniffel.web.present.pending_chart import pending_chart
from kniffel.web.present.review_chart import expected_chart_svg
from kniffel.web.present.review_words import ReviewWords

if TYPE_CHECKING:
    from kniffel.board.reviews import Review

__all__ = ["reviews", "router"]

api = APIRouter(tags=["advice"])
pages = APIRouter(include_in_schema=False)
router = APIRouter()

#: Seconds after which the review page asks again for a chart being drawn.
ASK_AGAIN = 2


def reviews(request: Request) -> ReviewService:
    """The app's reviews (:class:`kniffel.board.reviews.ReviewService`)."""
    found: ReviewService = request.app.state.reviews
    return found


# ------------------------------------------------------------------------ JSON


@api.get(
    "/games/{game_id}/review",
    openapi_extra=OPTIONAL_KEY,
    responses=pending.responses("reviews_busy"),
    response_model=None,
    summary="The game review: accuracy, loss and mistakes per player, the costliest decisions",
)
def review_json(game_id: str, request: Request, key: Key = None) -> dict[str, Any] | JSONResponse:
    """The analysis (``variant``, ``exact``, ``finished``, ``decisions``, ``players``) with
    per player ``accuracy`` (percent), ``loss``, ``loss_per_decision``, ``counts``
    (``patzer``, ``fehler``, ``ungenauigkeit``), ``not_rated`` and ``expected`` (the
    expected final total after each decision), each decision's ``severity`` and
    ``accuracy``, ``costliest`` (event numbers) and ``not_rated`` entries.

    The review is made off the request: the first request for a game version queues it and
    answers 202 ``review_pending`` (``params.progress``, ``Retry-After``); 503
    ``reviews_busy`` when the queue is full (docs/api.md, "Answers that fill in")."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    try:
        found = reviews(request).ask(view, tables.client_of(request))
    except Busy as busy:
        return pending.busy_answer("reviews_busy", "many reviews are", busy)
    if isinstance(found, float):
        what = "the review of this game version is"
        return pending.pending_answer("review_pending", what, found, pending.ASK_AGAIN)
    return found.as_dict()


# ----------------------------------------------------------------------- pages


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    words = ReviewWords(rendering.translator(request))
    context = {**context, "words": words, "lang": words.lang}
    response = rendering.templates.TemplateResponse(request, name, context, status_code=status)
    rendering.remember_language(request, response)
    return response


@pages.get("/g/{game_id}/analyse")
async def review_page(request: Request, game_id: str) -> Response:
    """The Spielbericht: each player's figures, the chart, the costliest decisions."""
    words = ReviewWords(rendering.translator(request))
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    if (waiting := waiting_page(request, view)) is not None:
        return waiting
    try:
        found = await run_in_threadpool(reviews(request).ask, view, tables.client_of(request))
    except Busy as busy:
        return queued_page(request, view, busy)
    if isinstance(found, float):
        return queued_page(request, view, found)
    context = _context(view, found, words)
    if view.game.is_finished:
        # The names the seats count as across games; a key holder may link them.
        counted = await run_in_threadpool(players_of(request).counted_names, view.id)
        for player in context["players"]:
            name = counted.get(player["seat"], player["name"])
            player["counted_as"] = name
            player["href"] = player_href(name)
        context["can_link"] = rendering.device_key(request, view) is not None
    return _render(request, "advice/review.html", context)


def _context(view: GameView, result: Review, words: ReviewWords) -> dict[str, Any]:
    variant = result.analysis.variant
    players = [
        {
            "name": p.name,
            "seat": i,
            "accuracy": words.accuracy(p.accuracy),
            "accuracy_value": p.accuracy,
            "loss": words.decimal(p.loss),
            "decisions": p.decisions,
            "per_decision": (
                "" if p.loss_per_decision is None else words.decimal(p.loss_per_decision)
            ),
            "counts": [(words.severity(n, plural=True), c, n) for n, c in p.counts.items()],
            "not_rated": p.not_rated,
        }
        for i, p in enumerate(result.players)
    ]
    costliest = [
        {
            "event": d.event,
            "seat": view.game.players.index(d.player),
            "head": words(
                "{player}, Zug {turn}, {when}, Würfel {dice}",
                player=d.player,
                turn=d.turn,
                when=words("am Tisch") if d.rolls is None else words.t.roll(d.rolls),
                dice=" ".join(map(str, d.dice.faces)),
            ),
            "made": words.choice(d.made, variant, d.rolls or MAX_ROLLS),
            "best": words.choice(d.best, variant, d.rolls or MAX_ROLLS),
            "loss": words.decimal(d.loss),
            "severity": _severity_word(words, d.loss),
        }
        for d in result.costliest()
    ]
    unrated = [
        words(
            "Zug {turn}: {player} trug nur Punkte ein ({cell}, {points}) – ohne Würfel keine "
            "Bewertung.",
            turn=u.turn,
            player=u.player,
            cell=_cell_words(words, view, u.cell),
            points=u.points,
        )
        for u in result.unrated
    ]
    # Rolls a device made while it could not reach the board (docs/decisions.md, "Virtual dice
    # offline"): said, since the board did not roll them.
    offline = [
        words(
            "{player}: {dice}, gewürfelt auf einem Gerät ohne Netz ({device}), nicht von der "
            "Tafel – Ereignis {event} im Spielverlauf.",
            player=event["player"],
            dice=" ".join(map(str, event["dice"])),
            device=event["offline"],
            event=number,
        )
        for number, event in enumerate(view.events, start=1)
        if event.get("type") == "roll" and "offline" in event
    ]
    return {
        "game_id": view.id,
        "version": view.version,
        "offline_rolls": offline,
        "variant_label": words.t(variant.label),
        "exact": result.analysis.exact,
        "heuristic": AdviceService.heuristic(variant),  # Jamb, Yams: against the bot's choice
        "finished": result.analysis.finished,
        "players": players,
        "costliest": costliest,
        "unrated": unrated,
        "has_decisions": bool(result.analysis.decisions),
    }


def _severity_word(words: ReviewWords, loss: float) -> str:
    name = ReviewService.severity(loss)
    return "" if name is None else words.severity(name)


def _cell_words(words: ReviewWords, view: GameView, cell: str) -> str:
    return words.t.cell(view.variant, view.game.cell(cell))


@pages.get("/g/{game_id}/analyse/verlauf.svg")
async def review_chart(request: Request, game_id: str) -> Response:
    """Each player's expected final total after every decision (SVG)."""
    words = ReviewWords(rendering.translator(request))
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    t = words.t
    if not tables.builds(request).ready(view.variant):
        # Drawn once the tables are ready; a chart never starts a build.
        return pending_chart(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)

    def draw(result: Review) -> str:
        series = [(p.name, [v for _, v in p.expected]) for p in result.players]
        return expected_chart_svg(series, t)

    try:
        svg = await run_in_threadpool(
            reviews(request).chart, view, words.lang, draw, tables.client_of(request)
        )
    except Busy as busy:
        text = t("Gerade werden viele Diagramme gezeichnet. Bitte später noch einmal ansehen.")
        return pending_chart(text, 503, busy.retry_after)
    if isinstance(svg, float):
        return pending_chart(t("Das Diagramm wird gezeichnet …"), 202, ASK_AGAIN)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


router.include_router(api, prefix="/api")
router.include_router(pages)
