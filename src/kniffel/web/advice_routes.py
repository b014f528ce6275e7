"""The Tipp and the analysis in the board: JSON under ``/api`` and their HTML views.

- ``GET /api/games/{id}/advice``: the best choices of the player to move, each
  with the expected final total (:func:`kniffel.solver.advice.position.evaluate`),
  what it costs against the best, and the chances of the upper bonus and of a
  Kniffel now and after it (:mod:`kniffel.solver.advice.reasons`).
- ``GET /api/games/{id}/analysis``: each decision of the game beside the best
  one, and the expected loss per player (:func:`kniffel.solver.advice.analysis.analyse`).
- ``GET /g/{id}/tipp``: the Tipp panel (an htmx fragment of the board).
- ``GET /g/{id}/analyse/alle``: the table of every decision (the game review,
  :mod:`kniffel.web.pages.review_routes`, is the first view at ``/g/{id}/analyse``).

Both only read the game: no key is needed, as for watching it, once the game's
solver tables are built; a request never builds one (:mod:`kniffel.web.api.tables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from kniffel.board.advice import AdviceService, WinsPending
from kniffel.board.queued import Busy
from kniffel.board.reviews import ReviewService
from kniffel.board.service import GameView
from kniffel.locales.refusals import refusal_text
from kniffel.rules import MAX_ROLLS, AnnounceAction, Dice, EnterAction, KniffelError
from kniffel.web import rendering
from kniffel.web.api import pending, tables
from kniffel.web.api.api import OPTIONAL_KEY, Key, Rolls, TableDice, Top
from kniffel.web.pages import forms
from kniffel.web.present import tipp_words
from kniffel.web.present.advice_words import AdviceWords

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.board.advice import Analysis, Position, Reasons, WinChoice

__all__ = ["router"]

#: The choices the Tipp lists; the best first.
TIPP_CHOICES = 5
#: How long the panel waits for simulated reasons before it answers without them (seconds),
#: at its first request and when static/tipp.js asks again: within the second of
#: docs/benchmarks.md, "Tipp".
REASONS_WAIT, REASONS_WAIT_AGAIN = 0.3, 0.6
#: How long the JSON API waits for them before it answers ``chances_pending`` (seconds).
API_REASONS_WAIT = 0.5

api = APIRouter(tags=["advice"])
pages = APIRouter(include_in_schema=False)
router = APIRouter()

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "nothing to advise (the game is over), or bad dice"},
    **tables.GAME_RESPONSES,
}


class RollChoice(BaseModel):
    """Roll, keeping ``keep`` (none: roll all dice); the expected final total after it."""

    action: Literal["roll"]
    keep: list[int]
    label: str
    expected: float


class EnterChoice(BaseModel):
    """Enter the dice into ``cell`` for ``points``; the expected final total after it."""

    action: Literal["enter"]
    cell: str
    points: int
    label: str
    expected: float


class AnnounceChoice(BaseModel):
    """Announce ``cell`` of the announce column right after the first roll (Jamb's Najava,
    Yams' annoncée); the bot's heuristic worth after it."""

    action: Literal["announce"]
    cell: str
    label: str
    expected: float


ChoiceOut = Annotated[RollChoice | EnterChoice | AnnounceChoice, Field(discriminator="action")]


class ChancesOut(BaseModel):
    """Playing on like the best bot: per column (by id) the chance of the upper bonus
    (63 or more in its upper rows by the end), and the chance that a Kniffel cell that is
    open now gets its 50 (``null`` when none is open)."""

    bonus: dict[str, float]
    kniffel: float | None


class _Reasoned(BaseModel):
    cost: float = Field(description="expected points this choice costs against the best")
    chances: ChancesOut | None = Field(description="the chances after this choice")


class AdviceRollChoice(RollChoice, _Reasoned):
    """A keep (or the roll before the turn's first), with its cost and the chances after it."""


class AdviceEnterChoice(EnterChoice, _Reasoned):
    """An entry, with its cost and the chances after it."""


class AdviceAnnounceChoice(AnnounceChoice, _Reasoned):
    """An announcement, with its cost (no chances: Jamb and Yams have no reasons)."""


AdviceChoiceOut = Annotated[
    AdviceRollChoice | AdviceEnterChoice | AdviceAnnounceChoice, Field(discriminator="action")
]


class AdviceOut(BaseModel):
    player: str
    rolls: int
    dice: list[int] | None
    exact: bool
    source: Literal["exact", "estimate", "heuristic"] = Field(
        description="what the values are: exact (one-column Kniffel sheets, the solver's "
        "optimum), estimate (several columns: the turn exact, the rest the best bot's "
        "calibrated estimate) or heuristic (Jamb and Yams with sèche or annoncée: the best "
        "family bot's own worth, not an optimum; no chances, see docs/solver.md)"
    )
    expected: float
    choices: list[AdviceChoiceOut]
    chances: ChancesOut | None = Field(
        description="the chances now, playing on like the best bot (null while pending)"
    )
    chances_method: Literal["exact", "simulation"] = Field(
        description="exact: carried through the solver's recursion (one-column presets, once "
        "their chance table is built); simulation: this turn exactly, then shares of seeded "
        "games of the best bot from each end state of the turn (docs/solver.md)"
    )
    samples: int = Field(description="simulated games read over the turn's end states (0: exact)")
    chances_pending: bool = Field(
        description="true: the simulated chances are still being worked out in the background; "
        "`chances` (now and per choice) are null, ask again (docs/api.md)"
    )
    chances_progress: float = Field(description="how far their computation is, 0 to 1")


class DecisionOut(BaseModel):
    event: int
    turn: int
    player: str
    dice: list[int]
    rolls: int | None
    choice: ChoiceOut
    best: ChoiceOut
    loss: float


class PlayerLossOut(BaseModel):
    loss: float
    decisions: int


class AnalysisOut(BaseModel):
    variant: str
    exact: bool
    source: Literal["exact", "estimate", "heuristic"] = Field(
        description="what the values are, as in the advice (heuristic: Jamb and Yams, each "
        "decision against the best family bot's choice)"
    )
    finished: bool
    decisions: list[DecisionOut]
    players: dict[str, PlayerLossOut]


# --------------------------------------------------------------------- reading


def advice_service(request: Request) -> AdviceService:
    found: AdviceService = request.app.state.advice
    return found


def _position(request: Request, view: GameView, dice: Dice | None, rolls: int) -> Position:
    """The Tipp's position: dice typed at the table count only before any roll is recorded."""
    return advice_service(request).position(view, dice, rolls)


def _reasons_within(
    request: Request, view: GameView, position: Position, top: int, seconds: float
) -> Reasons | float:
    """The chances now and after each of the first ``top`` choices (exact where the
    variant's chance table is built, else simulated in the background), waiting at most
    ``seconds`` for simulated ones; else how far their computation is (0 to 1)."""
    advising = advice_service(request)
    exact = advising.exact_ready(tables.builds(request), view.variant)
    return advising.reasons_within(view, position, top, exact, seconds)


def _analysis_asked(request: Request, view: GameView) -> Analysis | float | Busy:
    """The analysis of a stored game at its version if it is kept; else how far the review
    queue is with it (queued), or :class:`Busy` when that queue is full."""
    reviewing: ReviewService = request.app.state.reviews
    try:
        return reviewing.analysis_of(view, tables.client_of(request))
    except Busy as busy:
        return busy


# ------------------------------------------------------------------------ JSON


@api.get(
    "/games/{game_id}/advice",
    openapi_extra=OPTIONAL_KEY,
    response_model=AdviceOut,
    responses=_ERRORS,
    summary="Tipp: the best choices of the player to move, with expected final totals, "
    "their cost against the best and the chances of the upper bonus and of a Kniffel",
)
def advice(
    game_id: str,
    request: Request,
    dice: TableDice = None,
    rolls: Rolls = 3,
    top: Top = 5,
    key: Key = None,
) -> dict[str, Any]:
    advising = advice_service(request)
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    position = _position(request, view, None if dice is None else Dice.parse(dice), rolls)
    one_column = len(view.variant.columns) == 1
    heuristic = advising.heuristic(view.variant)
    # Simulated reasons are worked out in the background: the answer waits a moment for
    # them and otherwise says they are pending (ask again), never a long request. The
    # heuristic Tipp of Jamb and Yams has none (nothing pending either).
    found = None if heuristic else _reasons_within(request, view, position, top, API_REASONS_WAIT)
    done = None if isinstance(found, float) else found
    progress = round(found, 2) if isinstance(found, float) else 1.0
    after = done.after if done is not None else [None] * len(position.choices[:top])
    best = position.expected
    return {
        "player": position.player,
        "rolls": position.rolls,
        "dice": None if position.dice is None else list(position.dice.faces),
        "exact": advising.is_exact(view.variant),
        "source": _source(advising, view),
        "expected": best,
        "choices": [
            {
                **advising.choice_dict(c, one_column),
                "cost": best - c.expected,
                "chances": None if a is None else a.as_dict(),
            }
            for c, a in zip(position.choices[:top], after, strict=True)
        ],
        "chances": None if done is None else done.now.as_dict(),
        "chances_method": "simulation" if done is None else done.method,
        "samples": 0 if done is None else done.samples,
        "chances_pending": isinstance(found, float),
        "chances_progress": progress,
    }


def _source(advising: AdviceService, view: GameView) -> str:
    if advising.heuristic(view.variant):
        return "heuristic"
    return "exact" if advising.is_exact(view.variant) else "estimate"


@api.get(
    "/games/{game_id}/analysis",
    openapi_extra=OPTIONAL_KEY,
    response_model=AnalysisOut,
    responses={**pending.responses("reviews_busy"), 400: _ERRORS[400]},
    summary="Each decision of the game beside the best one, and the expected loss per player",
)
def analysis(
    game_id: str,
    request: Request,
    top: Annotated[
        int | None, Query(ge=1, description="list only the N costliest decisions")
    ] = None,
    key: Key = None,
) -> dict[str, Any] | JSONResponse:
    """The analysis is made with the game's review, off the request: the first request for
    a game version queues it and answers 202 ``analysis_pending`` (``params.progress``,
    ``Retry-After``); 503 ``reviews_busy`` when the queue is full (docs/api.md, "Answers
    that fill in")."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    found = _analysis_asked(request, view)
    if isinstance(found, Busy):
        return pending.busy_answer("reviews_busy", "many reviews are", found)
    if isinstance(found, float):
        what = "the analysis of this game version is"
        return pending.pending_answer("analysis_pending", what, found, pending.ASK_AGAIN)
    return found.as_dict(top)


# ----------------------------------------------------------------------- pages


def _words(request: Request) -> AdviceWords:
    return AdviceWords(rendering.translator(request))


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    """``name`` in the page language (the templates' ``_`` is the catalogues' gettext)."""
    words = _words(request)
    context = {**context, "words": words, "lang": words.lang}
    response = rendering.templates.TemplateResponse(request, name, context, status_code=status)
    rendering.remember_language(request, response)
    return response


@pages.get("/g/{game_id}/tipp")
async def tipp(request: Request, game_id: str) -> Response:
    """The Tipp panel for the player to move (typed physical dice via ``?dice=``)."""
    words = _words(request)
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    words = AdviceWords(words.t.for_variant(view.variant))  # "Yahtzee" in the yahtzee preset
    context: dict[str, Any] = {
        "game_id": view.id,
        "message": "",
        "tipp": None,
        "game_words": view.variant.name,
    }
    waiting = _waiting_for_tables(request, view, words)
    if waiting is not None:
        context.update(waiting[0])
        return _render(request, "advice/tipp.html", context, status=waiting[1])
    try:
        dice = forms.dice_field(request.query_params.get("dice"), words.t)
        rolls = forms.number_field(
            request.query_params.get("rolls"), words.t, "rolls", least=1, most=MAX_ROLLS
        )
        rolls = MAX_ROLLS if rolls is None else rolls
        position = await run_in_threadpool(_position, request, view, dice, rolls)
    except forms.FormError as exc:
        context["message"] = str(exc)
        return _render(request, "advice/tipp.html", context, status=422)
    except KniffelError as exc:
        context["message"] = refusal_text(exc, words.t)
        return _render(request, "advice/tipp.html", context, status=422)
    # Simulated reasons are worked out in the background; the panel waits a moment for
    # them and otherwise says how far they are, and static/tipp.js asks again (?gruende=1).
    asked_again = request.query_params.get("gruende") == "1"
    wait = REASONS_WAIT_AGAIN if asked_again else REASONS_WAIT
    found: Reasons | float | None = None  # Jamb and Yams: the bot's heuristic, no reasons
    if not advice_service(request).heuristic(view.variant):
        found = await run_in_threadpool(
            _reasons_within, request, view, position, TIPP_CHOICES, wait
        )
    # "Auf Sieg" likewise: its first list of a late position takes seconds.
    found_wins = await run_in_threadpool(
        advice_service(request).wins_within, view, position, wait, tables.client_of(request)
    )
    wins_pending = isinstance(found_wins, WinsPending)
    wins = [] if isinstance(found_wins, WinsPending) else found_wins
    done = found if not isinstance(found, float) else None
    context["tipp"] = _tipp_view(view, position, words, done, wins)
    if isinstance(found, float) or wins_pending:
        query = (
            request.url.query
            if asked_again
            else request.url.query + ("&" if request.url.query else "") + "gruende=1"
        )
        context["tipp"]["reasons_url"] = f"{request.url.path}?{query}"
        context["tipp"]["reasons_waiting"] = (
            words(
                "Die Chancen von Bonus und Kniffel werden geschätzt … {percent} %",
                percent=round(100 * found),
            )
            if isinstance(found, float)
            else words("Die Gewinnchancen für „Auf Sieg“ werden berechnet …")
        )
    return _render(request, "advice/tipp.html", context)


def _waiting_for_tables(
    request: Request, view: GameView, words: AdviceWords
) -> tuple[dict[str, Any], int] | None:
    """What a page shows while the game's tables are not ready (and its status), or ``None``.

    A device that holds the game's key starts the build; the page then asks
    again every two seconds (``building.url``) until the tables are there.
    """
    try:
        tables.ensure(request, view, rendering.device_key(request, view))
    except tables.TableBuilding as building:
        percent = round(100 * building.progress)
        url = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        text = words("Der Tipp wird berechnet … {percent} %", percent=percent)
        return {"building": {"percent": percent, "url": url, "text": text}}, 202
    except tables.NoSolver as missing:
        return {"message": refusal_text(missing, words.t), "busy": True}, 409
    except tables.TableNeedsKey:
        message = words(
            "Für diese Hausregeln ist die Tabelle des Tipps noch nicht berechnet. "
            "Berechnen lassen kann sie, wer den Schlüssel des Spiels hat."
        )
        return {"message": message}, 403
    except tables.BuildsBusy as busy:
        message = words(
            "Gerade werden Tabellen für andere Hausregeln berechnet. "
            "Bitte in {minutes} Minuten noch einmal versuchen.",
            minutes=max(1, -(-busy.retry_after // 60)),
        )
        return {"message": message, "busy": True}, 503
    return None


def waiting_page(request: Request, view: GameView) -> Response | None:
    """The analysis pages' answer while the game's tables are not ready, or ``None``."""
    words = _words(request)
    waiting = _waiting_for_tables(request, view, words)
    if waiting is None:
        return None
    context, status = waiting
    if "building" in context:
        context["building"]["text"] = words(
            "Die Analyse wird berechnet … {percent} %", percent=context["building"]["percent"]
        )
    elif "busy" not in context:
        context["message"] = words(
            "Für diese Hausregeln ist die Tabelle der Analyse noch nicht berechnet. "
            "Berechnen lassen kann sie, wer den Schlüssel des Spiels hat."
        )
    return _render(request, "advice/waiting.html", {"game_id": view.id, **context}, status)


def queued_page(request: Request, view: GameView, found: float | Busy) -> Response:
    """The analysis pages' answer while the game's review is being made (202, ``found`` how
    far: the page loads again by itself) or its queue is full (503, nothing queued)."""
    words = _words(request)
    if isinstance(found, Busy):
        message = words(
            "Gerade werden viele Analysen berechnet. "
            "Bitte in {seconds} Sekunden noch einmal versuchen.",
            seconds=found.retry_after,
        )
        context: dict[str, Any] = {"game_id": view.id, "message": message, "busy": True}
        status, retry_after = 503, found.retry_after
    else:
        percent = round(100 * found)
        url = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        text = words("Die Analyse wird berechnet … {percent} %", percent=percent)
        # The whole page loads again (scripts on or off): the review's page brings its own
        # scripts and title, which an htmx swap of the main part would leave out.
        building = {"percent": percent, "url": url, "text": text, "reload": pending.ASK_AGAIN}
        context = {"game_id": view.id, "building": building}
        status, retry_after = 202, pending.ASK_AGAIN
    response = _render(request, "advice/waiting.html", context, status)
    response.headers["Retry-After"] = str(retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


def _tipp_view(
    view: GameView,
    position: Position,
    words: AdviceWords,
    found: Reasons | None,
    wins: list[WinChoice] | None,
) -> dict[str, Any]:
    game = view.game
    variant = view.variant
    seat = game.players.index(position.player)
    best = position.choices[0]
    choices = []
    for i, c in enumerate(position.choices[:TIPP_CHOICES]):
        label = words.choice(c, variant, position.rolls)
        loss = words.decimal(best.expected - c.expected) if i else ""
        choice: dict[str, Any] = {
            "label": label,
            "expected": words.decimal(c.expected),
            "loss": loss,
            "best": i == 0,
        }
        if found is not None:
            choice.update(
                tipp_words.choice_reasons(variant, c, label, loss, found.now, found.after[i], words)
            )
        choices.append(choice)
    highlight_cell = ""
    highlight_dice: list[int] = []
    if isinstance(best.action, EnterAction | AnnounceAction):
        highlight_cell = f"c{seat}-{best.action.cell}"
    elif position.dice is not None and view.dice_mode == "virtual":
        highlight_dice = _dice_positions(position.dice, best.action.keep)
    if position.dice is None:
        situation = words("Vor dem ersten Wurf.")
    else:
        situation = words(
            "Zu den Würfeln {dice} ({rolls}. Wurf).", dice=str(position.dice), rolls=position.rolls
        )
    return {
        "player": position.player,
        "situation": situation,
        "expected": words.decimal(position.expected),
        "exact": AdviceService.is_exact(view.variant),
        "heuristic": AdviceService.heuristic(view.variant),  # Jamb, Yams: the bot's, no optimum
        "choices": choices,
        "highlight_cell": highlight_cell,
        "highlight_dice": highlight_dice,
        "now": "" if found is None else tipp_words.now_line(variant, found.now, words),
        "method": "" if found is None else tipp_words.method_note(found, words),
        "reasons_url": "",
        "reasons_waiting": "",
        "wins": None
        if wins is None
        else tipp_words.win_rows(variant, position, wins, words, TIPP_CHOICES),
    }


def _dice_positions(dice: Dice, keep: tuple[int, ...]) -> list[int]:
    """Which of the tray's dice (1-based, in the order shown) to keep."""
    left = list(keep)
    chosen = []
    for i, face in enumerate(dice.faces, start=1):
        if face in left:
            left.remove(face)
            chosen.append(i)
    return chosen


@pages.get("/g/{game_id}/analyse/alle")
async def analyse_page(request: Request, game_id: str) -> Response:
    """Every decision of the game beside the best one, and the loss per player."""
    words = _words(request)
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    if (waiting := waiting_page(request, view)) is not None:
        return waiting
    try:
        top = forms.number_field(request.query_params.get("top"), words.t, "top", least=1)
    except forms.FormError as exc:
        # A bad count is refused in words, the page otherwise as asked without one.
        message, top = str(exc), None
    else:
        message = ""
    found = await run_in_threadpool(_analysis_asked, request, view)
    if isinstance(found, float | Busy):
        return queued_page(request, view, found)
    result = found
    shown = result.costliest(top)
    decisions = [
        {
            "event": d.event,
            "turn": d.turn,
            "player": d.player,
            "dice": str(d.dice),
            "rolls": words("am Tisch") if d.rolls is None else words("{n}. Wurf", n=d.rolls),
            "made": words.choice(d.made, result.variant, d.rolls or MAX_ROLLS),
            "made_expected": words.decimal(d.made.expected),
            "best": words.choice(d.best, result.variant, d.rolls or MAX_ROLLS),
            "best_expected": words.decimal(d.best.expected),
            "loss": words.decimal(d.loss),
            "costly": d.loss >= 0.05,
        }
        for d in shown
    ]
    players = [
        {"name": name, "loss": words.decimal(total.loss), "decisions": total.decisions}
        for name, total in result.players.items()
    ]
    context = {
        "game_id": view.id,
        "variant_label": words.t(view.variant.label),
        "exact": result.exact,
        "heuristic": AdviceService.heuristic(result.variant),
        "finished": result.finished,
        "players": players,
        "decisions": decisions,
        "top": len(shown) if top else None,
        "message": message,
    }
    return _render(request, "advice/analyse.html", context, status=422 if message else 200)


router.include_router(api, prefix="/api")
router.include_router(pages)
