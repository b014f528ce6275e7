"""The board's start page: the new-game form, the games to resume, the history and the import.

The board itself is :mod:`kniffel.web.board_pages`; both go through
:class:`~kniffel.board.service.GameService`, the same object the JSON API uses.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from kniffel.board import bot_seats
from kniffel.board.errors import BoardError
from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import PRESETS, KniffelError
from kniffel.web import board_pages, forms, player_routes, rendering

__all__ = ["router"]

LIST_LENGTH = 20

router = APIRouter(include_in_schema=False)


# ----------------------------------------------------------------- the start


@router.get("/")
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
    context = {
        "form": _form_context(form),
        "presets": forms.presets(t),
        "jokers": [(value, t(name), t(note)) for value, name, note in forms.JOKERS],
        "max_name": forms.MAX_NAME,
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
        "shown_players": form.shown_players,
        "dice_mode": form.dice_mode,
        "chance": form.chance,
        "pasch": form.pasch,
        "zero_only_upper": form.zero_only_upper,
        "joker": form.joker,
        "kniffel_bonus": form.kniffel_bonus,
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
            turns = summary.turns
            winners = summary.winners
            entries.append(
                {
                    "id": summary.id,
                    "players": summary.players,
                    "variant": t(preset.label) if preset else summary.variant,
                    "when": t.when(summary.updated_at),
                    "turns": t("{n} Züge", n=turns),
                    "winners": t("Gewinner: {names}", names=", ".join(winners)) if winners else "",
                }
            )
        lists.append(entries)
    return lists[0], lists[1]


@router.post("/games")
async def create_game(request: Request) -> Response:
    t = rendering.translator(request)
    form_data = await rendering.text_form(request)
    try:
        form = forms.new_game_form(form_data, t)
    except forms.FormError as exc:
        return await _home(request, _echo(form_data), message=str(exc), status=422)
    service = rendering.service(request)
    bots = bot_seats.seats_of_form(form_data)
    dice_mode = "virtual" if bots else form.dice_mode  # the board rolls for its bots
    try:
        view = await run_in_threadpool(
            service.create, form.variant, form.options(), list(form.players), dice_mode, bots
        )
    except (KniffelError, BoardError) as exc:
        return await _home(request, form, message=refusal_text(exc, t), status=422)
    response = RedirectResponse(f"/g/{view.id}", status_code=303)
    rendering.set_key(request, response, view)
    return response


def _echo(form_data: FormData) -> forms.NewGame:
    """The fields as typed, to show the form again next to its error."""
    names = [v.strip() for v in form_data.getlist("player") if isinstance(v, str) and v.strip()]
    text = {k: v for k, v in form_data.items() if isinstance(v, str)}
    return forms.NewGame(
        variant=text.get("variant", "rauf-runter"),
        players=tuple(names[:8]),
        dice_mode=text.get("dice_mode", "physical"),
        chance=bool(text.get("chance")),
        pasch=text.get("pasch", "all_dice"),
        zero_only_upper=bool(text.get("zero_only_upper")),
        joker=text.get("joker", "free"),
        kniffel_bonus=text.get("kniffel_bonus", "0"),
        custom=True,
    )


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
