"""The Tipp and the analysis in the board: their HTML views (the JSON is
:mod:`kniffel.web.api.advice`).

- ``GET /g/{id}/tipp``: the Tipp panel (an htmx fragment of the board).
- ``GET /g/{id}/analyse/alle``: the table of every decision (the game review,
  :mod:`kniffel.web.pages.review_routes`, is the first view at ``/g/{id}/analyse``).

Both only read the game: no key is needed once the game's solver tables are built; a page
never builds one, and the analysis is made off the request (a waiting page that loads again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.advice import AdviceService, WinsPending
from kniffel.board.queued import Busy
from kniffel.board.service import GameView
from kniffel.locales.refusals import refusal_text
from kniffel.rules import MAX_ROLLS, AnnounceAction, Dice, EnterAction, KniffelError
from kniffel.web import rendering
from kniffel.web.api import pending, tables
from kniffel.web.pages import forms
from kniffel.web.present import tipp_words
from kniffel.web.present.advice_words import AdviceWords

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.board.advice import Position, Reasons, WinChoice

from kniffel.web.api.advice import advice_service, analysis_asked, position_of, reasons_within

__all__ = ["queued_page", "router", "waiting_page"]

#: The choices the Tipp lists; the best first.
TIPP_CHOICES = 5
#: How long the panel waits for simulated reasons before it answers without them (seconds),
#: at its first request and when static/tafel/tipp.js asks again: within the second of
#: docs/benchmarks.md, "Tipp". A panel that waited for its tables asks with :data:`WAITED`
#: and does not wait for them again: its choices first, the reasons after (docs/solver.md).
REASONS_WAIT, REASONS_WAIT_AGAIN = 0.3, 0.6
#: The query parameter of a Tipp asked again after its tables were built.
WAITED = "gewartet"

router = APIRouter(include_in_schema=False)
pages = router


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
        if "building" in context and WAITED not in request.query_params:
            context["building"]["url"] += ("&" if request.url.query else "?") + f"{WAITED}=1"
        return _render(request, "advice/tipp.html", context, status=waiting[1])
    try:
        dice = forms.dice_field(request.query_params.get("dice"), words.t)
        rolls = forms.number_field(
            request.query_params.get("rolls"), words.t, "rolls", least=1, most=MAX_ROLLS
        )
        rolls = MAX_ROLLS if rolls is None else rolls
        position = await run_in_threadpool(position_of, request, view, dice, rolls)
    except forms.FormError as exc:
        context["message"] = str(exc)
        return _render(request, "advice/tipp.html", context, status=422)
    except KniffelError as exc:
        context["message"] = refusal_text(exc, words.t)
        return _render(request, "advice/tipp.html", context, status=422)
    # Simulated reasons are worked out in the background; the panel waits a moment for
    # them and otherwise says how far they are, and static/tafel/tipp.js asks again (?gruende=1).
    asked_again = request.query_params.get("gruende") == "1"
    waited = request.query_params.get(WAITED) == "1"
    wait = REASONS_WAIT_AGAIN if asked_again else 0.0 if waited else REASONS_WAIT
    found: Reasons | float | None = None  # Jamb and Yams: the bot's heuristic, no reasons
    if not advice_service(request).heuristic(view.variant):
        found = await run_in_threadpool(reasons_within, request, view, position, TIPP_CHOICES, wait)
    # "Auf Sieg" likewise: its first list of a late position takes seconds.
    found_wins = await run_in_threadpool(
        advice_service(request).wins_within, view, position, wait, tables.client_of(request)
    )
    wins_pending = isinstance(found_wins, WinsPending)
    wins = [] if isinstance(found_wins, WinsPending) else found_wins
    done = found if not isinstance(found, float) else None
    context["tipp"] = _tipp_view(view, position, words, done, wins)
    # A first answer is shown with its wider interval while the final figures are worked out.
    refining = done.refining if done is not None else None
    if isinstance(found, float) or refining is not None or wins_pending:
        query = (
            request.url.query
            if asked_again
            else request.url.query + ("&" if request.url.query else "") + "gruende=1"
        )
        context["tipp"]["reasons_url"] = f"{request.url.path}?{query}"
        context["tipp"]["reasons_waiting"] = (
            words(
                "Die Chancen von Bonus und Kniffel werden geschätzt … {percent}",
                percent=words.percent(found),
            )
            if isinstance(found, float)
            else words(
                "Die Chancen werden genauer berechnet … {percent}", percent=words.percent(refining)
            )
            if refining is not None
            else words("Die Gewinnchancen für „Auf Sieg“ werden berechnet …")
        )
    return _render(request, "advice/tipp.html", context)


def _building(words: AdviceWords, share: float, url: str, text: str) -> dict[str, Any]:
    """A build or review in progress: ``percent`` for the progress bar's value, ``shown`` as
    the language writes it (Babel), the address to ask again and the words."""
    return {"percent": round(100 * share), "shown": words.percent(share), "url": url, "text": text}


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
        url = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        shown = words.percent(building.progress)
        text = words("Der Tipp wird berechnet … {percent}", percent=shown)
        return {"building": _building(words, building.progress, url, text)}, 202
    except tables.NoSolver as missing:
        return {"message": refusal_text(missing, words.t), "busy": True}, 409
    except tables.TableNeedsKey:
        message = words(
            "Für diese Hausregeln ist die Tabelle des Tipps noch nicht berechnet. "
            "Berechnen lassen kann sie, wer den Schlüssel des Spiels hat."
        )
        return {"message": message}, 403
    except tables.BuildsBusy as busy:
        message = words.t.ngettext(
            "Gerade werden Tabellen für andere Hausregeln berechnet. "
            "Bitte in {n} Minute noch einmal versuchen.",
            "Gerade werden Tabellen für andere Hausregeln berechnet. "
            "Bitte in {n} Minuten noch einmal versuchen.",
            max(1, -(-busy.retry_after // 60)),
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
            "Die Analyse wird berechnet … {percent}", percent=context["building"]["shown"]
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
        url = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        text = words("Die Analyse wird berechnet … {percent}", percent=words.percent(found))
        # The whole page loads again (scripts on or off): the review's page brings its own
        # scripts and title, which an htmx swap of the main part would leave out.
        building = _building(words, found, url, text) | {"reload": pending.ASK_AGAIN}
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
    rough = found is not None and found.refining is not None  # a first answer
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
                tipp_words.choice_reasons(
                    variant, c, label, loss, found.now, found.after[i], words, rough
                )
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
        "now": "" if found is None else tipp_words.now_line(variant, found.now, words, rough),
        "method": "" if found is None else tipp_words.method_note(found, words),
        # What static/tafel/tipp.js compares: a panel at a new stage takes the shown one's place.
        "stage": "" if found is None else "first" if rough else "final",
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
    found = await run_in_threadpool(analysis_asked, request, view)
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
            "rolls": words("am Tisch") if d.rolls is None else words.t.roll(d.rolls),
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
