"""The board's errors and the one place that turns every error into a 4xx answer.

Rules errors (:class:`~kniffel.rules.KniffelError`, which includes
:class:`~kniffel.record.RecordError`) answer 400; the board's own errors carry
their status. Every 4xx answer is JSON :class:`ErrorBody`:
``{"code": ..., "params": {...}, "message": "<plain English line>", "detail": <the same>}``
(``detail`` as before; docs/api.md, "Errors"). The pages say the same refusal
in the reader's language from ``code`` and ``params``
(:func:`~kniffel.locales.refusals.refusal_text`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
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
    "document_errors",
    "error_response",
    "error_status",
    "install_error_handlers",
    "validation_message",
]


class ErrorBody(BaseModel):
    """Every error answer: a stable ``code``, its ``params`` and one plain message."""

    code: str = Field(description="what was refused, stable (e.g. not_due, not_your_turn)")
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="the refusal's details (e.g. column, row and due_row for not_due)",
    )
    message: str = Field(description="the refusal as one plain English line")
    detail: str = Field(description="the same line as message (kept for older clients)")


#: What every route of the API may answer, documented on all of them (``FastAPI(responses=...)``).
#: The 4xx answers here and in the routes name no ``model``: :func:`document_errors` gives every
#: 4xx of the spec :class:`ErrorBody`'s schema, and a model costs FastAPI a pydantic field per
#: route and status at start, about 0.2 s of CPU (docs/benchmarks.md, "Start").
COMMON_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"description": "the request is malformed"},
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


#: The code of an HTTP error that no board or rules error explains.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


def error_response(
    status: int,
    message: str,
    *,
    code: str,
    params: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An error answer in the one shape of every 4xx: the exception handlers and the
    middlewares (which answer before any route) all make theirs here.

    ``code`` names the refusal for programs (``body_too_large``, ``cross_origin``).
    """
    body = ErrorBody(code=code, params=params or {}, message=message, detail=message)
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def _is_page(request: Request) -> bool:
    """An address of the board's pages (not the API, not a static file)."""
    path = request.url.path
    return not (path.startswith(("/api/", "/static/")) or path == "/api")


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a static file): it gets the board's page."""
    return _is_page(request) and "text/html" in request.headers.get("accept", "")


def install_error_handlers(app: FastAPI) -> None:
    """Map every expected error to :class:`ErrorBody` with a 4xx status."""

    async def board_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, KniffelError | BoardError)
        if (
            isinstance(exc, GameNotFound)
            and _is_page(request)
            and not request.url.path.endswith(".json")  # the pages' own JSON stays JSON
        ):
            # A game link that leads nowhere: the board's page, for every page route in one
            # place (each route loads its game and lets this answer an unknown id).
            from kniffel.web import rendering  # the pages sit above this module

            return rendering.not_found(request)
        return error_response(error_status(exc), str(exc), code=exc.code, params=exc.params)

    async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        message = validation_message(exc.errors())
        return error_response(422, message, code="invalid_request", params={"reason": message})

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404 and _wants_page(request):
            from kniffel.web import rendering  # the pages sit above this module

            return rendering.page_not_found(request)
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and (allowed := _allowed_methods(request)):
            headers["Allow"] = ", ".join(allowed)
        own = getattr(exc, "code", None)  # an HTTP error of the board's own (body_too_large)
        code = own if isinstance(own, str) else _HTTP_CODES.get(exc.status_code, "http_error")
        params: dict[str, Any] = {"status": exc.status_code} if code == "http_error" else {}
        if isinstance(limit := getattr(exc, "limit", None), int):
            params["max"] = limit
        return error_response(
            exc.status_code, str(exc.detail), code=code, params=params, headers=headers
        )

    app.add_exception_handler(KniffelError, board_error)
    app.add_exception_handler(BoardError, board_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)


def document_errors(app: FastAPI) -> None:
    """The OpenAPI spec names :class:`ErrorBody` as the body of every 4xx answer of every
    route (a malformed request's 422 included, instead of FastAPI's own model)."""
    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        spec = plain_openapi()
        schemas = spec.setdefault("components", {}).setdefault("schemas", {})
        schemas.setdefault(
            "ErrorBody", ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
        )
        body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        for operations in spec.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, response in responses.items():
                    if status.startswith("4"):
                        response["content"] = body
                responses.setdefault(
                    "4XX", {"description": "refused: code, params and message", "content": body}
                )
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
