"""The Tafel: the board page, its fragment for htmx, the changes, the record and the chart.

Form posts answer htmx with the board fragment (the ``board`` block of
``board.html``, swapped into the page's ``#tafel``) and plain browsers with a
redirect; a refused change answers 4xx with the board and a plain message,
and changes nothing.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from kniffel.board.chances import ChancesService
from kniffel.board.errors import BoardError, Conflict, Forbidden, GameNotFound
from kniffel.board.evening import Evening
from kniffel.board.service import GameService, GameView
from kniffel.board.sheet_view import BoardView, board_view, offline_cell_words, turn_key
from kniffel.charts.totals import running_totals, totals_chart_svg
from kniffel.kept import Kept
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import Dice, Enter, KniffelError, Variant
from kniffel.web import rendering
from kniffel.web.pages import forms, moves
from kniffel.web.present.addresses import share_base
from kniffel.web.present.offline_words import offline_words
from kniffel.web.present.qr import qr_svg

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


# ------------------------------------------------------------------ the board


async def _load(request: Request, game_id: str) -> GameView:
    return await rendering.service(request).get_async(game_id)


#: Boards kept per app by (game id, version, language, the game's words, typed dice, points):
#: a board at a version never changes, so every device that loads the page after a change
#: gets the sheets worked out once (docs/benchmarks.md, "Load").
BOARDS_KEPT = 256


def _board(
    request: Request,
    view: GameView,
    t: Translator,
    dice: Dice | None,
    points: int | None,
    roll: int | None = None,
) -> BoardView:
    kept: Kept[tuple[object, ...], BoardView] = request.app.state.boards  # one per app (create_app)
    faces = None if dice is None else dice.faces
    key = (view.id, view.version, t.lang, t.game, faces, points, roll)
    return kept.get(
        key,
        lambda: board_view(
            view.game,
            t,
            dice_mode=view.dice_mode,
            dice=dice,
            points=points,
            bots=view.bots,
            roll=roll,
        ),
    )


#: Board fragments kept per app, as sent, by what they show (the board's key, the device's
#: right to change and the message): the entry's answer, the entering phone's live refresh and
#: every other phone's are one board, drawn once (issue 19; docs/benchmarks.md, "Phone to
#: phone").
FRAGMENTS_KEPT = 256


def _fragment(request: Request, view: GameView, context: dict[str, Any], status: int) -> Response:
    """The ``board`` block of ``board.html`` for htmx, drawn once per board."""
    kept: Kept[tuple[object, ...], bytes] = request.app.state.fragments  # one per app (create_app)
    board: BoardView = context["board"]
    t = rendering.translator(request).for_variant(view.variant)
    key: tuple[object, ...] = (view.id, view.version, t.lang, t.game, board.dice, board.points)
    key += (board.roll,)
    key += (context["can_change"], context["message"], status)
    # A Revanche and the evening's other games change the end screen, not the version.
    key += (context["evening"], context["revanche"])
    body = kept.get(
        key,
        lambda: bytes(
            rendering.render(request, "board.html", context, status=status, block="board").body
        ),
    )
    response = Response(body, status_code=status, media_type="text/html")
    rendering.remember_language(request, response)
    return response


def _board_context(
    request: Request,
    view: GameView,
    *,
    dice: Dice | None = None,
    points: int | None = None,
    message: str = "",
    page: bool = True,
    roll: int | None = None,
    evening: tuple[Evening | None, str | None] = (None, None),
) -> dict[str, Any]:
    """What ``board.html`` shows; ``page=False`` for the board fragment alone; ``evening``:
    the end screen's evening tally and Revanche (:func:`_evening`)."""
    t = rendering.translator(request).for_variant(view.variant)  # the preset's own words
    game = view.game
    board = _board(request, view, t, dice, points, roll)
    can_change = rendering.device_key(request, view) is not None
    settings = request.app.state.settings
    # Phones cannot follow a link to 127.0.0.1: the links take the address they can reach.
    share = share_base(str(request.base_url), settings.host, settings.public_url)
    watch_url = f"{share.url}/g/{view.id}"
    # The key travels in the fragment: browsers never send it, so it reaches no log line;
    # the page trades it for the cookie (POST /g/ID/key, static/tafel/main.js).
    play_url = f"{watch_url}#key={view.key}" if can_change else ""
    cell_words, offline_words = (
        _offline_json(game.variant, t) if page and can_change else ("", None)
    )
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
        "game_words": view.variant.name,
        "version": view.version,
        "board": board,
        "can_change": can_change,
        "message": message,
        "watch_url": watch_url,
        "play_url": play_url,
        "share_reach": share.reach.value,
        "listen_host": settings.host,
        "watch_qr": qr_svg(watch_url, t("QR-Code des Zuschauer-Links")) if page else "",
        "play_qr": qr_svg(play_url, t("QR-Code des Mitspiel-Links")) if play_url and page else "",
        "progress": progress,
        "evening": evening[0],
        "revanche": evening[1],
        # Jamb and Yams: the chart of the chances has a point per round (each position is
        # valued by bot games, a bounded number per chart: docs/board.md, "Gewinnchancen").
        "chances_by_round": ChancesService.series_apart(view.variant),
        # The cells' names for the sheet a device draws itself offline, and the words it says
        # refusals and the notes under the sheet in: the full page of a device that enters
        # (static/tafel/paint.js, tafel/notes.js).
        "cell_words": cell_words,
        "offline_words": offline_words,
    }


@lru_cache(maxsize=64)  # every full page of a device that enters: the same JSON each time
def _offline_json(variant: Variant, t: Translator) -> tuple[str, Markup]:
    """The words of a page that draws the sheet itself as the page carries them: the cells'
    words as JSON, and the other words as the template's ``tojson`` wrote them (the
    environment's JSON policy), encoded once per sheet and language."""
    env = rendering.templates.env
    words = htmlsafe_json_dumps(
        offline_words(variant, t),
        dumps=env.policies["json.dumps_function"],
        **env.policies["json.dumps_kwargs"],
    )
    return json.dumps(offline_cell_words(variant, t), ensure_ascii=False), words


async def _evening(request: Request, view: GameView) -> tuple[Evening | None, str | None]:
    """A finished game's evening tally and Revanche (read from the store: neither changes the
    game's version); nothing for a game being played."""
    if not view.finished:
        return None, None
    return await run_in_threadpool(rendering.service(request).evening, view.id)


def _typed(request: Request, t: Translator, view: GameView) -> tuple[Dice | None, int | None, str]:
    """The dice or points typed into the address (``?dice=66655``), or why they are refused.

    With ``turn`` (the turn they were typed in, as the page sends them), dice of
    another turn are dropped: a preview never shows one player's dice on the next
    player's sheet.
    """
    turn = request.query_params.get("turn")
    if turn is not None and turn != str(turn_key(view.game)):
        return None, None, ""
    try:
        dice = forms.dice_field(request.query_params.get("dice"), t)
        points = forms.points_field(request.query_params.get("points"), t)
        if dice is not None and points is not None:
            raise forms.FormError(t("Würfel oder Punkte, nicht beides."))
    except forms.FormError as exc:
        return None, None, str(exc)
    return dice, points, ""


def _typed_roll(request: Request) -> int | None:
    """Which roll made the typed dice (``?rolls=1``), as the page's roll buttons say; the
    board hears it where the rules ask (Jamb, the first-roll and announce columns)."""
    text = request.query_params.get("rolls", "")
    return int(text) if text in ("1", "2", "3") else None


@router.get("/g/{game_id}")
async def board_page(request: Request, game_id: str) -> Response:
    t = rendering.translator(request)
    view = await _load(request, game_id)
    key = request.query_params.get("key")
    # Links of older versions carry the key in the address (?key=): it goes into the cookie
    # and the address bar keeps the plain link (the access log hides it:
    # web/middleware/access_log.py).
    if key and secrets.compare_digest(key.encode("utf-8", "surrogatepass"), view.key.encode()):
        # The link's key goes into a cookie; the address bar keeps the plain link.
        response = RedirectResponse(f"/g/{view.id}", status_code=303)
        rendering.set_key(request, response, view)
        rendering.remember_language(request, response)
        return response
    dice, points, message = _typed(request, t, view)
    if key and not message:
        message = t("Dieses Gerät darf nur zusehen.")
    evening = await _evening(request, view)
    context = _board_context(
        request, view, dice=dice, points=points, message=message, evening=evening
    )
    return rendering.render(request, "board.html", context)


@router.post("/g/{game_id}/key")
async def take_key(request: Request, game_id: str) -> Response:
    """The play link's key (from its ``#key=`` fragment) becomes this device's cookie."""
    t = rendering.translator(request)
    view = await _load(request, game_id)
    form_data = await rendering.text_form(request)
    key = form_data.get("key")
    if not isinstance(key, str) or not secrets.compare_digest(
        key.encode("utf-8", "surrogatepass"), view.key.encode()
    ):
        message = t("Dieses Gerät darf nur zusehen.")
        return Response(message, status_code=403, media_type="text/plain")
    response = Response(status_code=204)
    rendering.set_key(request, response, view)
    return response


@router.get("/g/{game_id}/board")
async def board_fragment(request: Request, game_id: str) -> Response:
    """The board alone, for htmx: after a live update, or to preview typed dice."""
    t = rendering.translator(request)
    view = await _load(request, game_id)
    dice, points, message = _typed(request, t, view)
    roll = _typed_roll(request)
    evening = await _evening(request, view)
    context = _board_context(
        request,
        view,
        dice=dice,
        points=points,
        message=message,
        page=False,
        roll=roll,
        evening=evening,
    )
    return _fragment(request, view, context, 200)


Change = Callable[[GameService, GameView, str], Awaitable[GameView]]


async def _change(
    request: Request,
    game_id: str,
    build: Callable[[FormData, GameView], Change],
    *,
    typed: bool = False,
    undo: bool = False,
) -> Response:
    """Read the form, make the change through the service, answer with the board.

    ``typed``: the form carries the dice or points typed for the player to move
    (an entry); a refused entry shows them again. Other forms' points (a
    correction) are never shown as typed dice or points. ``undo``: an entry taken back
    shows its dice or points (and roll) again, as if typed, so that they are entered
    elsewhere without typing them twice (issue 32 item 4).
    """
    t = rendering.translator(request)
    view = await _load(request, game_id)
    form_data = await rendering.text_form(request)
    dice: Dice | None = None
    points: int | None = None
    roll: int | None = None
    status = 200
    message = ""
    try:
        if typed:
            dice = forms.dice_field(form_data, t)
            points = forms.points_field(form_data, t)
        key = rendering.device_key(request, view)
        if key is None:
            raise Forbidden("this device may only watch", code="watch_only")
        change = build(form_data, view)
        taken_back = view.game.last_event if undo else None
        view = await change(rendering.service(request), view, key)
        dice = points = None
        if isinstance(taken_back, Enter):
            dice, points, roll = taken_back.dice, taken_back.points, taken_back.roll
    except forms.FormError as exc:
        status, message = 400, str(exc)
    except Conflict as exc:
        status, message = 409, refusal_text(exc, t)
        view = await _load(request, game_id)
        if form_data.get("turn") != str(turn_key(view.game)):
            dice = points = None  # typed for a turn that is over
    except Forbidden as exc:
        status, message = 403, refusal_text(exc, t)
    except GameNotFound:
        return rendering.not_found(request)
    except (KniffelError, BoardError) as exc:
        status, message = 422, refusal_text(exc, t.for_variant(view.variant))
    if status == 200 and not rendering.is_htmx(request):
        return RedirectResponse(f"/g/{game_id}", status_code=303)
    fragment = rendering.is_htmx(request)
    evening = await _evening(request, view)
    context = _board_context(
        request,
        view,
        dice=dice,
        points=points,
        message=message,
        page=not fragment,
        evening=evening,
        roll=roll,
    )
    if fragment:
        return _fragment(request, view, context, status)
    return rendering.render(request, "board.html", context, status=status)


def _apply(event: dict[str, Any], version: int | None) -> Change:
    async def change(service: GameService, view: GameView, key: str) -> GameView:
        return await service.apply_async(view.id, key, event, expected_version=version)

    return change


def _undo_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    return {"type": "undo"}


def _posts_event(
    make_event: Callable[[FormData, GameView, Translator], dict[str, Any]],
    typed: bool,
) -> Callable[[Request, str], Awaitable[Response]]:
    """A form route that turns the form into one record event and applies it."""

    async def post(request: Request, game_id: str) -> Response:
        t = rendering.translator(request)

        def build(form_data: FormData, view: GameView) -> Change:
            return _apply(make_event(form_data, view, t), forms.version_field(form_data, t))

        return await _change(request, game_id, build, typed=typed, undo=make_event is _undo_event)

    return post


for _name, _make_event in (
    ("enter", moves.entry_event),
    ("announce", moves.announce_event),
    ("edit", moves.edit_event),
    ("clear", moves.clear_event),
    ("undo", _undo_event),
):
    router.add_api_route(
        f"/g/{{game_id}}/{_name}",
        _posts_event(_make_event, typed=_name == "enter"),
        methods=["POST"],
        name=_name,
    )


@router.post("/g/{game_id}/roll")
async def roll(request: Request, game_id: str) -> Response:
    t = rendering.translator(request)

    def build(form_data: FormData, view: GameView) -> Change:
        keep = forms.keep_field(form_data, t)
        version = forms.version_field(form_data, t)
        player = view.game.current_name or ""
        # Rolled on a device while it could not reach the board, sent when the network is back
        # (tafel/offline.js): its dice and its device, marked so in the record and the review.
        device = form_data.get("offline")
        dice = forms.dice_field(form_data, t) if isinstance(device, str) else None

        async def change(service: GameService, current: GameView, key: str) -> GameView:
            if isinstance(device, str):
                if dice is None:
                    raise forms.FormError(
                        t("Würfel als fünf Ziffern von 1 bis 6 eingeben, z. B. 66655.")
                    )
                return await service.roll_made_offline_async(
                    current.id, key, player, keep, dice, device, version
                )
            return await service.roll_async(current.id, key, player, keep, expected_version=version)

        return change

    return await _change(request, game_id, build)


# ------------------------------------------------------------------ Revanche


@router.post("/g/{game_id}/revanche")
async def start_revanche(request: Request, game_id: str) -> Response:
    """The end screen's Revanche: the next game (once, however many taps), this device's key
    handed on to it; refused (the board with the reason) without the key or before the end."""
    t = rendering.translator(request)
    view = await _load(request, game_id)
    status = 200
    try:
        key = rendering.device_key(request, view)
        if key is None:
            raise Forbidden("this device may only watch", code="watch_only")
        service = rendering.service(request)
        revanche = await run_in_threadpool(service.revanche, game_id, key)
    except Forbidden as exc:
        status, message = 403, refusal_text(exc, t)
    except (KniffelError, BoardError) as exc:
        status, message = 422, refusal_text(exc, t.for_variant(view.variant))
    if status != 200:
        fragment = rendering.is_htmx(request)
        evening = await _evening(request, view)
        context = _board_context(request, view, message=message, page=not fragment, evening=evening)
        if fragment:
            return _fragment(request, view, context, status)
        return rendering.render(request, "board.html", context, status=status)
    return _to_revanche(request, revanche)


@router.get("/g/{game_id}/revanche")
async def go_to_revanche(request: Request, game_id: str) -> Response:
    """Where a device watching a game goes when its Revanche starts (the live update sends it
    here): to the new game, with its key where this device holds the old game's; back to the
    game while it has no Revanche."""
    view = await _load(request, game_id)
    service = rendering.service(request)
    _, revanche_id = await run_in_threadpool(service.evening, game_id)
    if revanche_id is None:
        return RedirectResponse(f"/g/{view.id}", status_code=303)
    revanche = await service.get_async(revanche_id)
    if rendering.device_key(request, view) is None:
        return RedirectResponse(f"/g/{revanche.id}", status_code=303)
    return _to_revanche(request, revanche)


def _to_revanche(request: Request, revanche: GameView) -> Response:
    """To the Revanche with its key in this device's cookie (htmx: a full page load)."""
    address = f"/g/{revanche.id}"
    response: Response
    if rendering.is_htmx(request):
        response = Response(status_code=204, headers={"HX-Redirect": address})
    else:
        response = RedirectResponse(address, status_code=303)
    rendering.set_key(request, response, revanche)
    rendering.remember_language(request, response)
    return response


# ---------------------------------------------------------------- downloads


@router.get("/g/{game_id}/record")
async def record(request: Request, game_id: str) -> Response:
    document = await run_in_threadpool(rendering.service(request).export_record, game_id)
    return Response(
        json.dumps(document, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="kniffel-{game_id}.json"'},
    )


#: End charts kept per app by (game id, version, language, the game's words): drawing one
#: replays the game (a few CPU-milliseconds), so a chart is drawn once per version, not per
#: request (docs/benchmarks.md, "Cost per request").
CHARTS_KEPT = 64


@router.get("/g/{game_id}/chart.svg")
async def chart(request: Request, game_id: str) -> Response:
    """The running totals as SVG, drawn once per game version."""
    t = rendering.translator(request)
    view = await _load(request, game_id)
    kept: Kept[tuple[object, ...], str] = request.app.state.charts  # one per app (create_app)
    key = (view.id, view.version, t.lang, t.game)
    svg = await run_in_threadpool(kept.get, key, lambda: totals_chart_svg(view.game, t))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
