"""The request body limit (``--max-body`` / ``KNIFFEL_MAX_BODY``, default 1 MiB): one refusal on
every path (docs/architecture.md, "Limits").

An ASGI middleware, so it holds for the API, the pages and paths that do not exist alike:

- a request that announces a larger body (``Content-Length``) is answered 413 at once; its body is
  never read;
- a body without a length (``Transfer-Encoding: chunked``) is counted as it arrives, chunk by chunk,
  and the read that passes the limit fails with the same 413: nothing beyond the limit is ever held
  in memory, and nothing is stored.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kniffel.web.middleware.errors import error_response

__all__ = ["DEFAULT_MAX_BODY", "BodyLimit", "BodyTooLarge", "too_large_message"]

#: 1 MiB: a game record of 10,000 events is about 0.4 MB.
DEFAULT_MAX_BODY = 1024 * 1024


def too_large_message(limit: int) -> str:
    return f"the request body is larger than the limit of {limit:,} bytes; nothing was stored"


class BodyTooLarge(HTTPException):
    """Raised by the counting ``receive`` once the body passes the limit (answered 413)."""

    code = "body_too_large"

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(status_code=413, detail=too_large_message(limit))


def _announced(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length", "").strip()
    if not value.isascii() or not value.isdigit():
        return None
    # Far more digits than any body has (int() would refuse past 4,300 of them).
    return int(value) if len(value) <= 18 else 10**18


class BodyLimit:
    """ASGI middleware: refuses request bodies larger than ``limit`` bytes with 413."""

    def __init__(self, app: ASGIApp, limit: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = _announced(scope)
        if announced is not None and announced > self.limit:
            await self._refuse(scope, receive, send)
            return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            # The app let it through (the exception handlers usually answer it).
            if started:
                raise
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413,
            too_large_message(self.limit),
            code=BodyTooLarge.code,
            params={"max": self.limit},
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)
