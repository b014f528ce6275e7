"""The two reads every device at a table makes all the time, answered without FastAPI's routing.

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
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from kniffel.board.service import GameService, GameView
from kniffel.web.api import api

__all__ = ["HotReads"]

#: The routes' own paths: ``{game_id}`` matches one path segment, as FastAPI's ``str`` does.
_STATE = re.compile(r"/api/games/([^/]+)")
_PREVIEW = re.compile(r"/api/games/([^/]+)/preview")


class HotReads:
    """ASGI middleware: the state and the preview of a kept game version, answered at once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # The routes, for whoever reads ``scope["route"]`` (the metrics' route label).
        self._routes = {
            route.endpoint: route for route in api.router.routes if isinstance(route, APIRoute)
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            response = self._answer(scope)
            if response is not None:
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

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
