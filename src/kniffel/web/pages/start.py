"""The board's start page: the new-game form, the games to resume, the history and the import.

The board itself is :mod:`kniffel.web.pages.board_pages`; both go through
:class:`~kniffel.board.service.GameService`, the same object the JSON API uses.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.errors import BoardError
from kniffel.board.service import GameService
from kniffel.board.views import GameSummary
from kniffel.locales import Translator
from kniffel.locales.refusals import REFUSALS, refusal_text
from kniffel.rules import MAX_PLAYERS, MAX_ROLLS, PRESETS, KniffelError
from kniffel.web import rendering
from kniffel.web.pages import board_pages, device, forms, player_routes

__all__ = ["front", "router"]

LIST_LENGTH = 20

#: The start page alone: the app passes it before the API, so the first answer after a start
#: prepares no API route, while the API's requests no longer pass every page's route on their way
#: (docs/benchmarks.md, "Load").
front = APIRouter(include_in_schema=False)
#: The new-game and import forms and the board's pages.
router = APIRouter(include_in_schema=False)


# ----------------------------------------------------------------- the start


@front.get("/")
async def home(request: Request) -> Response:
    return await _home(request, forms.NewGame())


async def _home(
    request: Request,
    form: forms.NewGame,
    *,
    message: str = "",
    import_message: str = "",
    status: int = 200,
) -> Response:
    t = rendering.translator(request)
    service = rendering.service(request)
    unfinished, finished = await run_in_threadpool(_game_lists, service, t)
    board = await run_in_threadpool(player_routes.leaderboard_context, request)
    rules = forms.house_rule_fields(t)
    context = {
        "form": _form_context(form),
        "presets": forms.presets(t),
        "max_name": forms.MAX_NAME,
        "max_bonus": forms.MAX_KNIFFEL_BONUS,
        "max_players": MAX_PLAYERS,
        "max_rolls": MAX_ROLLS,
        "house_rules": rules,
        "house_rules_script": [rule.script() for rule in rules],
        "device_presets": " ".join(device.DEVICE_PRESETS),
        "unfinished": unfinished,
        "finished": finished,
        "message": message,
        "import_message": import_message,
        "board": board,
    }
    response = rendering.render(request, "home.html", context, status=status)
    # The lists change with every game: going back to this page must show them anew.
    response.headers["Cache-Control"] = "no-store"
    return response


def _form_context(form: forms.NewGame) -> dict[str, Any]:
    return {
        "variant": form.variant,
        "players": form.slots,
        "seats": form.seat_choices,
        "shown_players": form.shown_players,
        "dice_mode": form.dice_mode,
        "rules": form.rules,
        "custom": form.custom,
    }


def _game_lists(
    service: GameService, t: Translator
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    lists: list[list[dict[str, Any]]] = []
    for finished in (False, True):
        entries = []
        # The summary columns hold all a list shows: no game is replayed here.
        for summary in service.list_games(finished=finished, limit=LIST_LENGTH):
            preset = PRESETS.get(summary.variant)
            winners = summary.winners
            if not summary.readable:
                # A newer release's game (docs/deploy.md §7): listed, in words, without a link.
                entries.append(_unreadable(summary, t))
                continue
            entries.append(
                {
                    "id": summary.id,
                    "players": summary.players,
                    "variant": t(preset.label) if preset else summary.variant,
                    "when": t.when(summary.updated_at),
                    "turns": _round(summary, t),
                    "winners": (
                        t.ngettext(
                            "Gewinner: {names}",
                            "Gewinner: {names}",
                            len(winners),
                            names=", ".join(winners),
                        )
                        if winners
                        else ""
                    ),
                }
            )
        lists.append(entries)
    return lists[0], lists[1]


def _unreadable(summary: GameSummary, t: Translator) -> dict[str, Any]:
    words = t(REFUSALS["game_unreadable"])
    return {"id": summary.id, "players": summary.players, "unreadable": words, "when": ""}


def _round(summary: GameSummary, t: Translator) -> str:
    """The round being played: every player has a turn per round, so the cells filled by all
    players together, shared out among them, give the rounds played (docs/board.md)."""
    played = summary.turns // max(1, len(summary.players))
    return t("Runde {n} von {rounds}", n=min(played + 1, summary.rounds), rounds=summary.rounds)


@router.post("/games")
async def create_game(request: Request, form: Annotated[forms.NewGameForm, Form()]) -> Response:
    t = rendering.translator(request)
    try:
        body = forms.new_game_body(form, t)
    except forms.FormError as exc:
        return await _home(request, form.shown(), message=str(exc), status=422)
    service = rendering.service(request)
    options = body.options.model_dump(exclude_none=True) if body.options else {}
    try:
        view = await run_in_threadpool(
            service.create, body.variant, options, body.players, body.dice_mode, dict(body.bots)
        )
    except (KniffelError, BoardError) as exc:
        message = forms.new_game_refusal(exc, t)
        return await _home(request, form.shown(), message=message, status=422)
    response = RedirectResponse(f"/g/{view.id}", status_code=303)
    rendering.set_key(request, response, view)
    return response


@router.post("/import")
async def import_game(request: Request) -> Response:
    t = rendering.translator(request)
    content: bytes | str | None = None
    # The context closes the uploaded file's spool.
    async with request.form() as form_data:
        upload = form_data.get("record")
        if isinstance(upload, str):
            content = upload
        elif upload is not None:
            content = await upload.read()
    if not content:
        return await _home(
            request, forms.NewGame(), import_message=t("Bitte eine Datei wählen."), status=400
        )
    service = rendering.service(request)
    try:
        view = await run_in_threadpool(service.import_record, content)
    except (KniffelError, BoardError) as exc:
        # A record error names its event: "Ereignis 1: Runter, Dreier ist nicht dran; …".
        reason = refusal_text(exc, t)
        message = t("Import abgelehnt, nichts gespeichert: {reason}", reason=reason)
        return await _home(request, forms.NewGame(), import_message=message, status=400)
    response = RedirectResponse(f"/g/{view.id}", status_code=303)
    rendering.set_key(request, response, view)
    return response


router.include_router(board_pages.router)
router.include_router(device.router)
