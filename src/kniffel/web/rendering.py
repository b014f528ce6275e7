"""How a page of the board is answered: templates, language, htmx and the device's key.

Shared by the start page (:mod:`kniffel.web.pages.start`) and the board
(:mod:`kniffel.web.pages.board_pages`).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from jinja2_fragments.fastapi import Jinja2Blocks
from starlette.datastructures import FormData

from kniffel.board.service import GameService, GameView
from kniffel.web.present import i18n
from kniffel.web.present.i18n import Translator, language_of, negotiate, page_tag

__all__ = [
    "KEY_COOKIE",
    "LANG_COOKIE",
    "device_key",
    "is_htmx",
    "not_found",
    "page_not_found",
    "remember_language",
    "render",
    "service",
    "set_key",
    "templates",
    "text_form",
    "translator",
]

TEMPLATES = Path(__file__).parent / "templates"
KEY_COOKIE = "kniffel_key"
LANG_COOKIE = "kniffel_lang"
#: A device keeps a game's key (and its language) for a year: long enough for any game.
COOKIE_MAX_AGE = 365 * 24 * 3600

templates = Jinja2Blocks(directory=TEMPLATES)
i18n.install(templates.env)


def service(request: Request) -> GameService:
    board: GameService = request.app.state.service
    return board


def translator(request: Request) -> Translator:
    """The page language: ``?lang=``, then the remembered choice, then ``Accept-Language``."""
    return Translator(
        negotiate(
            request.query_params.get("lang"),
            request.headers.get("accept-language"),
            request.cookies.get(LANG_COOKIE),
        )
    )


def render(
    request: Request,
    name: str,
    context: dict[str, Any],
    *,
    status: int = 200,
    block: str | None = None,
) -> Response:
    """``name`` rendered in the page language (only its ``block`` for an htmx fragment)."""
    t = translator(request)
    context = {**context, "lang": t.lang}
    if block is not None:
        response = templates.TemplateResponse(
            request, name, context, status_code=status, block_name=block
        )
    else:
        response = templates.TemplateResponse(request, name, context, status_code=status)
    remember_language(request, response)
    return response


def not_found(request: Request) -> Response:
    """The page for a game link that leads nowhere (404)."""
    message = translator(request)("Spiel nicht gefunden.")
    return render(request, "missing.html", {"message": message}, status=404)


def page_not_found(request: Request) -> Response:
    """The board's page for an address that leads nowhere (404)."""
    message = translator(request)("Seite nicht gefunden.")
    return render(request, "missing.html", {"message": message}, status=404)


def remember_language(request: Request, response: Response) -> None:
    """A ``?lang=`` the board speaks is remembered in the cookie, as its tag (``sr-Latn``)."""
    chosen = language_of(request.query_params.get("lang"))
    if chosen is not None:
        response.set_cookie(LANG_COOKIE, page_tag(chosen), max_age=COOKIE_MAX_AGE, samesite="lax")


async def text_form(request: Request) -> FormData:
    """The posted fields; a stray uploaded file is closed at once (these forms take text)."""
    form_data = await request.form()
    await form_data.close()
    return form_data


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def device_key(request: Request, view: GameView) -> str | None:
    """The game's key if this device holds it (from the link it was opened with)."""
    key = request.cookies.get(KEY_COOKIE)
    if key and secrets.compare_digest(key.encode(), view.key.encode()):
        return key
    return None


def set_key(request: Request, response: Response, view: GameView) -> None:
    """Keeps the key on this device, for this game's pages only.

    ``SameSite=Strict``: no request that another site starts, not even a link to the board,
    carries it (docs/decisions.md, "Same-origin form posts"). ``Secure`` when the page came
    over HTTPS, also through a proxy that says so (``X-Forwarded-Proto: https`` from an
    address in ``FORWARDED_ALLOW_IPS``, docs/deploy.md): the browser then never sends the key
    over plain HTTP.
    """
    response.set_cookie(
        KEY_COOKIE,
        view.key,
        max_age=COOKIE_MAX_AGE,
        path=f"/g/{view.id}",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
