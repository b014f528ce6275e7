"""The board's errors and the one place that turns every error into a 4xx answer.

Rules errors (:class:`~kniffel.rules.KniffelError`, which includes
:class:`~kniffel.record.RecordError`) answer 400 with the engine's plain
message; the board's own errors carry their status. Every answer is JSON
``{"detail": "<plain message>"}``, for the API and the pages alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from kniffel.board.errors import BoardError, Conflict, Forbidden, GameNotFound
from kniffel.rules import KniffelError

__all__ = [
    "COMMON_ERRORS",
    "BoardError",
    "Conflict",
    "ErrorBody",
    "Forbidden",
    "GameNotFound",
    "error_response",
    "error_status",
    "install_error_handlers",
    "validation_message",
]


class ErrorBody(BaseModel):
    """Every error answer: one plain message."""

    detail: str


#: What every route of the API may answer, documented on all of them (``FastAPI(responses=...)``).
COMMON_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorBody, "description": "the request is malformed"},
}


def error_status(exc: Exception) -> int:
    """The HTTP status for an error the board expects (rules or board errors)."""
    if isinstance(exc, BoardError):
        return exc.status
    if isinstance(exc, KniffelError):
        return 400
    raise TypeError(f"not a board error: {exc!r}")


def _location(loc: Sequence[Any]) -> str:
    # ("body", "event", "roll", "dice", 0) reads better as "event.dice[0]".
    parts: list[str] = []
    for part in loc[1:] if loc and loc[0] in ("body", "query", "path", "header") else loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif parts:
            parts.append(f".{part}")
        else:
            parts.append(str(part))
    return "".join(parts) or str(loc[0] if loc else "request")


def validation_message(errors: Sequence[Any]) -> str:
    """FastAPI's validation errors as one plain line."""
    lines = []
    for error in errors[:5]:
        if error.get("type") == "json_invalid":
            return f"the body is not valid JSON ({error.get('ctx', {}).get('error', 'broken')})"
        where = _location(error.get("loc", ()))
        lines.append(f"{where}: {error.get('msg', 'is not valid')}")
    return "; ".join(lines) or "the request is not valid"


def _allowed_methods(request: Request) -> list[str]:
    # Starlette names only the first route of a path in ``Allow``; a path
    # served by several routes (GET and POST /api/games) supports them all.
    # The OpenAPI spec lists them, and it is what clients read anyway.
    methods: set[str] = set()
    for template, operations in request.app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, request.url.path):
            methods.update(method.upper() for method in operations)
    return sorted(methods)


def _json(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status, headers=headers)


def error_response(
    status: int, message: str, *, code: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An error answer made outside the exception handlers (by a middleware), in their shape.

    ``code`` names the refusal for programs (``body_too_large``, ``cross_origin``).
    """
    return _json(status, message, headers)


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a static file): it gets the board's page."""
    path = request.url.path
    if path.startswith(("/api/", "/static/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")


def install_error_handlers(app: FastAPI) -> None:
    """Map every expected error to ``{"detail": ...}`` with a 4xx status."""

    async def board_error(_request: Request, exc: Exception) -> JSONResponse:
        return _json(error_status(exc), str(exc))

    async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _json(422, validation_message(exc.errors()))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404 and _wants_page(request):
            from kniffel.web import rendering  # the pages sit above this module

            return rendering.page_not_found(request)
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and (allowed := _allowed_methods(request)):
            headers["Allow"] = ", ".join(allowed)
        return _json(exc.status_code, str(exc.detail), headers)

    app.add_exception_handler(KniffelError, board_error)
    app.add_exception_handler(BoardError, board_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
