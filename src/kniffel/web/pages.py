"""The board's HTML pages: the start page, the new-game and import forms, and the Tafel.

Every change goes through :class:`~kniffel.web.service.GameService`, the same
object the JSON API uses. Form posts answer htmx with the board fragment (the
``board`` block of ``board.html``) and plain browsers with a redirect; a
refused change answers 4xx with the board and a plain message.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from jinja2_fragments.fastapi import Jinja2Blocks
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from kniffel.record import RecordError
from kniffel.rules import PRESETS, Dice, KniffelError
from kniffel.web import forms, moves
from kniffel.web.chart import running_totals, totals_chart_svg
from kniffel.web.errors import BoardError, Conflict, Forbidden, GameNotFound
from kniffel.web.i18n import Translator, negotiate
from kniffel.web.qr import qr_svg
from kniffel.web.service import GameService, GameView
from kniffel.web.sheet_view import board_view

__all__ = ["KEY_COOKIE", "LANG_COOKIE", "router", "templates"]

TEMPLATES = Path(__file__).parent / "templates"
KEY_COOKIE = "kniffel_key"
LANG_COOKIE = "kniffel_lang"
#: A device keeps a game's key for a year: long enough to finish any game.
KEY_MAX_AGE = 365 * 24 * 3600
LIST_LENGTH = 20

router = APIRouter(include_in_schema=False)
templates = Jinja2Blocks(directory=TEMPLATES)


# ------------------------------------------------------------------- helpers


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _translator(request: Request) -> Translator:
    return Translator(
        negotiate(
            request.query_params.get("lang"),
            request.headers.get("accept-language"),
            request.cookies.get(LANG_COOKIE),
        )
    )


def _render(
    request: Request,
    name: str,
    context: dict[str, Any],
    *,
    status: int = 200,
    block: str | None = None,
) -> Response:
    t = _translator(request)
    context = {**context, "_": t, "lang": t.lang}
    if block is not None:
        response = templates.TemplateResponse(
            request, name, context, status_code=status, block_name=block
        )
    else:
        response = templates.TemplateResponse(request, name, context, status_code=status)
    _remember_language(request, response)
    return response


def _remember_language(request: Request, response: Response) -> None:
    chosen = request.query_params.get("lang")
    if chosen in ("de", "en"):
        response.set_cookie(LANG_COOKIE, chosen, max_age=KEY_MAX_AGE, samesite="lax")


async def _text_form(request: Request) -> FormData:
    """The posted fields; a stray uploaded file is closed at once (these forms take text)."""
    form_data = await request.form()
    await form_data.close()
    return form_data


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _device_key(request: Request, view: GameView) -> str | None:
    """The game's key if this device holds it (from the link it was opened with)."""
    key = request.cookies.get(KEY_COOKIE)
    if key and secrets.compare_digest(key.encode(), view.key.encode()):
        return key
    return None


def _set_key(response: Response, view: GameView) -> None:
    response.set_cookie(
        KEY_COOKIE,
        view.key,
        max_age=KEY_MAX_AGE,
        path=f"/g/{view.id}",
        httponly=True,
        samesite="lax",
    )


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
    t = _translator(request)
    service = _service(request)
    unfinished, finished = await run_in_threadpool(_game_lists, service, t)
    context = {
        "form": _form_context(form),
        "presets": forms.presets(t),
        "jokers": [(value, t(name), t(note)) for value, name, note in forms.JOKERS],
        "max_name": forms.MAX_NAME,
        "unfinished": unfinished,
        "finished": finished,
        "message": message,
        "import_message": import_message,
    }
    return _render(request, "home.html", context, status=status)


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
        for summary in service.list_games(finished=finished)[:LIST_LENGTH]:
            game = service.get(summary.id).game
            preset = PRESETS.get(summary.variant)
            turns = sum(game.filled_count(p) for p in range(len(game.players)))
            winners = game.winners()
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
    t = _translator(request)
    form_data = await _text_form(request)
    try:
        form = forms.new_game_form(form_data, t)
    except forms.FormError as exc:
        return await _home(request, _echo(form_data), message=str(exc), status=422)
    service = _service(request)
    try:
        view = await run_in_threadpool(
            service.create, form.variant, form.options(), list(form.players), form.dice_mode
        )
    except (KniffelError, BoardError) as exc:
        return await _home(request, form, message=str(exc), status=422)
    response = RedirectResponse(f"/g/{view.id}", status_code=303)
    _set_key(response, view)
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
    t = _translator(request)
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
    service = _service(request)
    try:
        view = await run_in_threadpool(service.import_record, content)
    except RecordError as exc:
        reason = (
            exc.reason
            if exc.event is None
            else t("Ereignis {n}: {reason}", n=exc.event, reason=exc.reason)
        )
        message = t("Import abgelehnt, nichts gespeichert: {reason}", reason=reason)
        return await _home(request, forms.NewGame(), import_message=message, status=400)
    except (KniffelError, BoardError) as exc:
        message = t("Import abgelehnt, nichts gespeichert: {reason}", reason=str(exc))
        return await _home(request, forms.NewGame(), import_message=message, status=400)
    response = RedirectResponse(f"/g/{view.id}", status_code=303)
    _set_key(response, view)
    return response


# ------------------------------------------------------------------ the board


async def _load(request: Request, game_id: str) -> GameView:
    return await run_in_threadpool(_service(request).get, game_id)


def _not_found(request: Request) -> Response:
    t = _translator(request)
    return _render(request, "missing.html", {"message": t("Spiel nicht gefunden.")}, status=404)


def _board_context(
    request: Request,
    view: GameView,
    *,
    dice: Dice | None = None,
    points: int | None = None,
    message: str = "",
    page: bool = True,
) -> dict[str, Any]:
    """What ``board.html`` shows; ``page=False`` for the board fragment alone."""
    t = _translator(request)
    game = view.game
    board = board_view(game, t, dice_mode=view.dice_mode, dice=dice, points=points, bots=view.bots)
    can_change = _device_key(request, view) is not None
    base = str(request.base_url).rstrip("/")
    watch_url = f"{base}/g/{view.id}"
    play_url = f"{watch_url}?key={view.key}" if can_change else ""
    lines = running_totals(game) if board.finished else []
    turns = max((len(line) for line in lines), default=1) - 1
    progress = {
        "names": game.players,
        "turns": [
            [t.number(line[i]) if i < len(line) else "" for line in lines]
            for i in range(1, turns + 1)
        ],
    }
    return {
        "game_id": view.id,
        "version": view.version,
        "board": board,
        "can_change": can_change,
        "message": message,
        "watch_url": watch_url,
        "play_url": play_url,
        "watch_qr": qr_svg(watch_url, t("QR-Code des Zuschauer-Links")) if page else "",
        "play_qr": qr_svg(play_url, t("QR-Code des Mitspiel-Links")) if play_url and page else "",
        "progress": progress,
    }


@router.get("/g/{game_id}")
async def board_page(request: Request, game_id: str) -> Response:
    t = _translator(request)
    try:
        view = await _load(request, game_id)
    except GameNotFound:
        return _not_found(request)
    key = request.query_params.get("key")
    if key and secrets.compare_digest(key.encode(), view.key.encode()):
        # The link's key goes into a cookie; the address bar keeps the plain link.
        response = RedirectResponse(f"/g/{view.id}", status_code=303)
        _set_key(response, view)
        _remember_language(request, response)
        return response
    message = t("Dieses Gerät darf nur zusehen.") if key else ""
    try:
        dice = forms.dice_field(request.query_params.get("dice"), t)
        points = forms.points_field(request.query_params.get("points"), t)
    except forms.FormError as exc:
        dice, points, message = None, None, str(exc)
    context = _board_context(request, view, dice=dice, points=points, message=message)
    return _render(request, "board.html", context)


@router.get("/g/{game_id}/board")
async def board_fragment(request: Request, game_id: str) -> Response:
    """The board alone, for htmx: after a live update, or to preview typed dice."""
    t = _translator(request)
    try:
        view = await _load(request, game_id)
    except GameNotFound:
        return _not_found(request)
    message = ""
    try:
        dice = forms.dice_field(request.query_params.get("dice"), t)
        points = forms.points_field(request.query_params.get("points"), t)
        if dice is not None and points is not None:
            raise forms.FormError(t("Würfel oder Punkte, nicht beides."))
    except forms.FormError as exc:
        dice, points, message = None, None, str(exc)
    context = _board_context(request, view, dice=dice, points=points, message=message, page=False)
    return _render(request, "board.html", context, block="board")


Change = Callable[[GameService, GameView, str], GameView]


async def _change(
    request: Request, game_id: str, build: Callable[[FormData, GameView], Change]
) -> Response:
    """Read the form, make the change through the service, answer with the board."""
    t = _translator(request)
    try:
        view = await _load(request, game_id)
    except GameNotFound:
        return _not_found(request)
    form_data = await _text_form(request)
    dice: Dice | None = None
    points: int | None = None
    status = 200
    message = ""
    try:
        dice = forms.dice_field(form_data, t)
        points = forms.points_field(form_data, t)
        key = _device_key(request, view)
        if key is None:
            raise Forbidden(t("Dieses Gerät darf nur zusehen."))
        change = build(form_data, view)
        view = await run_in_threadpool(change, _service(request), view, key)
        dice = points = None
    except forms.FormError as exc:
        status, message = 400, str(exc)
    except Conflict:
        status, message = 409, t("Das Spiel wurde inzwischen geändert; bitte noch einmal.")
        view = await _load(request, game_id)
    except Forbidden:
        status, message = 403, t("Dieses Gerät darf nur zusehen.")
    except GameNotFound:
        return _not_found(request)
    except moves.Refused as exc:
        status, message = 422, str(exc)
    except (KniffelError, BoardError) as exc:
        status, message = 422, t("Nicht erlaubt: {reason}", reason=str(exc))
    if status == 200 and not _is_htmx(request):
        return RedirectResponse(f"/g/{game_id}", status_code=303)
    fragment = _is_htmx(request)
    context = _board_context(
        request, view, dice=dice, points=points, message=message, page=not fragment
    )
    block = "board" if fragment else None
    return _render(request, "board.html", context, status=status, block=block)


def _apply(event: dict[str, Any], version: int | None) -> Change:
    def change(service: GameService, view: GameView, key: str) -> GameView:
        return service.apply(view.id, key, event, expected_version=version)

    return change


@router.post("/g/{game_id}/enter")
async def enter(request: Request, game_id: str) -> Response:
    t = _translator(request)

    def build(form_data: FormData, view: GameView) -> Change:
        return _apply(moves.entry_event(form_data, view, t), forms.version_field(form_data))

    return await _change(request, game_id, build)


@router.post("/g/{game_id}/roll")
async def roll(request: Request, game_id: str) -> Response:
    t = _translator(request)

    def build(form_data: FormData, view: GameView) -> Change:
        keep = forms.keep_field(form_data, t)
        version = forms.version_field(form_data)
        player = view.game.current_name or ""

        def change(service: GameService, current: GameView, key: str) -> GameView:
            return service.roll(current.id, key, player, keep, expected_version=version)

        return change

    return await _change(request, game_id, build)


@router.post("/g/{game_id}/edit")
async def edit(request: Request, game_id: str) -> Response:
    t = _translator(request)

    def build(form_data: FormData, view: GameView) -> Change:
        return _apply(moves.edit_event(form_data, view, t), forms.version_field(form_data))

    return await _change(request, game_id, build)


@router.post("/g/{game_id}/clear")
async def clear(request: Request, game_id: str) -> Response:
    t = _translator(request)

    def build(form_data: FormData, view: GameView) -> Change:
        return _apply(moves.clear_event(form_data, view, t), forms.version_field(form_data))

    return await _change(request, game_id, build)


@router.post("/g/{game_id}/undo")
async def undo(request: Request, game_id: str) -> Response:
    def build(form_data: FormData, view: GameView) -> Change:
        return _apply({"type": "undo"}, forms.version_field(form_data))

    return await _change(request, game_id, build)


# ---------------------------------------------------------------- downloads


@router.get("/g/{game_id}/record")
async def record(request: Request, game_id: str) -> Response:
    try:
        document = await run_in_threadpool(_service(request).export_record, game_id)
    except GameNotFound:
        return _not_found(request)
    return Response(
        json.dumps(document, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="kniffel-{game_id}.json"'},
    )


@router.get("/g/{game_id}/chart.svg")
async def chart(request: Request, game_id: str) -> Response:
    t = _translator(request)
    try:
        view = await _load(request, game_id)
    except GameNotFound:
        return _not_found(request)
    svg = await run_in_threadpool(totals_chart_svg, view.game, t)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
