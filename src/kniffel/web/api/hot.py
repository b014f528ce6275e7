"""The requests every device at a table makes all the time, answered without FastAPI's routing.

``GET /api/games/{game_id}`` (the state) and ``GET /api/games/{game_id}/preview`` are most of a
table's requests (docs/benchmarks.md, "Load"). Through FastAPI each one passed every route
before its own twice (to find its router, then its route) and had its parameters solved, which
cost more server time than the answer. :class:`HotReads` sits inside every other middleware
(turns, limits, outage, security headers) and answers such a request itself when the game's
current version is kept (:meth:`GameService.peek`, one indexed read), with the bytes the route
answers (:func:`~kniffel.web.api.api.state_bytes`, :func:`~kniffel.web.api.api.preview_bytes`).
Anything else (an unknown game, a version not kept, bad dice, an outage, another method) goes
the long way, where the route answers it exactly as before: the routes stay the one home of
what these requests answer.

An entry (``POST /api/games/{game_id}/events`` with a JSON body) goes the same short way
(:meth:`HotReads._change`): its body is read and checked by the route's own model
(:class:`~kniffel.web.api.schemas.EventBody`), the key taken as the route takes it, and the
change made by the service the route calls; a refusal is answered by the app's own exception
handler for it, as the route's would be. A body the model refuses, another content type or an
error while reading goes to the route, with the body read so far handed on unchanged
(``tests/web/test_hot_reads.py`` compares both ways' bytes and headers).
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kniffel.board.service import GameService, GameView
from kniffel.web.api import api
from kniffel.web.api.schemas import EventBody

__all__ = ["HotReads"]

#: The routes' own paths: ``{game_id}`` matches one path segment, as FastAPI's ``str`` does.
_STATE = re.compile(r"/api/games/([^/]+)")
_PREVIEW = re.compile(r"/api/games/([^/]+)/preview")
_EVENTS = re.compile(r"/api/games/([^/]+)/events")
#: The one content type the short way reads (the route reads every JSON type).
_JSON = b"application/json"


class HotReads:
    """ASGI middleware: the state and the preview of a kept game version, answered at once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # The routes, for whoever reads ``scope["route"]`` (the metrics' route label).
        self._routes = {
            route.endpoint: route for route in api.router.routes if isinstance(route, APIRoute)
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            method = scope["method"]
            if method == "GET":
                response = self._answer(scope)
                if response is not None:
                    await response(scope, receive, send)
                    return
            elif method == "POST":
                found = _EVENTS.fullmatch(scope["path"])
                if found is not None:
                    await self._change(found.group(1), scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _change(self, game_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        """An entry (or any event) the short way; what it does not take goes to the route."""
        service: GameService | None = getattr(scope["app"].state, "service", None)
        messages: list[Message] = []
        failed: Exception | None = None
        body: EventBody | None = None
        try:
            while True:
                message = await receive()
                messages.append(message)
                if message["type"] != "http.request" or not message.get("more_body", False):
                    break
        except Exception as error:  # the route meets the same error at the same point
            failed = error
        if failed is None and service is not None and _json_typed(scope):
            body = _event_body(messages)
        if body is None or service is None:
            await self.app(scope, _replaying(messages, failed, receive), send)
            return
        request = Request(scope, receive)
        # As the route's security dependencies take it: the header first, else the query.
        key = request.headers.get("x-kniffel-key") or request.query_params.get("key") or None
        scope["route"] = self._routes[api.post_event]
        try:
            event = body.event.model_dump(exclude_none=True)
            view = await service.apply_async(game_id, key, event, body.expected_version)
            response = _json(api.state_bytes(scope["app"].state.states, view))
        except Exception as error:
            response = await _handled(request, error)
        await response(scope, receive, send)

    def _answer(self, scope: Scope) -> Response | None:
        path: str = scope["path"]
        found = _STATE.fullmatch(path)
        if found is not None:
            view = self._kept(scope, found.group(1))
            if view is None:
                return None
            scope["route"] = self._routes[api.get_game]
            return _json(api.state_bytes(scope["app"].state.states, view))
        found = _PREVIEW.fullmatch(path)
        if found is None:
            return None
        view = self._kept(scope, found.group(1))
        if view is None:
            return None
        # The last ``dice`` counts, as in the route's query parameter.
        query = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        dice = [value for name, value in query if name == "dice"]
        try:
            body = api.preview_bytes(view, dice[-1] if dice else None)
        except Exception:  # bad dice: the route answers them (400)
            return None
        scope["route"] = self._routes[api.preview]
        return _json(body)

    @staticmethod
    def _kept(scope: Scope, game_id: str) -> GameView | None:
        service: GameService | None = getattr(scope["app"].state, "service", None)
        if service is None or not service.quick_reads:
            return None
        try:
            return service.peek(game_id)
        except Exception:  # an unknown game or an outage: the route answers it
            return None


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _json_typed(scope: Scope) -> bool:
    """Whether the request says its body is ``application/json`` (and nothing else)."""
    types = [value for name, value in scope["headers"] if name == b"content-type"]
    return len(types) == 1 and types[0].strip().lower() == _JSON


def _event_body(messages: list[Message]) -> EventBody | None:
    """The body as the route's model reads it, or ``None`` where the route should answer it."""
    if messages[-1]["type"] != "http.request":
        return None
    raw = b"".join(message.get("body", b"") for message in messages)
    try:
        return EventBody.model_validate(json.loads(raw))
    except Exception:  # empty, not JSON, or refused by the model: the route says why
        return None


def _replaying(messages: list[Message], failed: Exception | None, receive: Receive) -> Receive:
    """``receive`` as it was before the short way read ``messages`` (and met ``failed``)."""
    waiting = list(messages)

    async def replay() -> Message:
        if waiting:
            return waiting.pop(0)
        if failed is not None:
            raise failed
        return await receive()

    return replay


async def _handled(request: Request, error: Exception) -> Response:
    """The answer of the app's exception handler for ``error`` (as the route's request would
    get it); ``error`` raised again where the app has none (the server's 500)."""
    handlers: dict[Any, Any] = request.app.exception_handlers
    for kind in type(error).__mro__:
        if kind is Exception:
            break
        handler = handlers.get(kind)
        if handler is not None:
            # The board's handlers are coroutines (web/middleware/errors.py, outage.py,
            # api/tables.py); a plain function's answer is taken as it comes.
            response = handler(request, error)
            if inspect.isawaitable(response):
                response = await response
            answer: Response = response
            return answer
    raise error
