"""A request body must arrive at a minimum rate, and is in before the request takes a turn
(docs/deploy.md, "Limits at the edge"; issue 33, item 2).

Without this, a client that announced a body (``Content-Length: 1000000``) and sent one byte
held its request open for as long as it liked, and each such request took a turn of the
changes-first gate (:mod:`kniffel.web.middleware.changes_first`) while it waited: 500 of them
made a read take 6.6 s. This ASGI middleware sits in front of the gate and reads the body
first, with a deadline: ``KNIFFEL_BODY_TIMEOUT`` seconds (default 10) from the request's start,
moved on by one second for every ``KNIFFEL_BODY_MIN_RATE`` bytes (default 1,024) that arrived.
A body that misses it is answered 408 ``request_timeout`` and the connection closed; nothing
was stored and no turn was held. A body that arrives in time is handed to the app as it came
(the body limit, :mod:`kniffel.web.middleware.body_limit`, still counts it; a body announced
beyond that limit is not read here, the limit answers 413 without reading it).

Built on ASGI alone (``receive`` and ``send``), nothing of the server's internals.
"""

from __future__ import annotations

import asyncio

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kniffel.web.middleware.errors import error_response

__all__ = ["CODE", "DEFAULT_BODY_MIN_RATE", "DEFAULT_BODY_TIMEOUT", "BodyDeadline"]

#: Seconds a body may take before it must show its rate.
DEFAULT_BODY_TIMEOUT = 10.0
#: Bytes a second that move the deadline on: a 1 MiB record on a slow phone link still arrives.
DEFAULT_BODY_MIN_RATE = 1024
CODE = "request_timeout"
_MESSAGE = "the request body did not arrive in time; nothing was stored"


def _expects_body(scope: Scope) -> tuple[bool, int | None]:
    """Whether the request has a body to read, and its announced length."""
    headers = Headers(scope=scope)
    length = headers.get("content-length", "").strip()
    if length.isascii() and length.isdigit():
        announced = int(length) if len(length) <= 18 else 10**18
        return announced > 0, announced
    return "chunked" in headers.get("transfer-encoding", "").lower(), None


class BodyDeadline:
    """ASGI middleware: reads a request's body with a deadline before the app (and its gate)
    sees the request; 408 when the body comes too slowly."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        seconds: float = DEFAULT_BODY_TIMEOUT,
        min_rate: int = DEFAULT_BODY_MIN_RATE,
    ) -> None:
        self.app = app
        self.limit = limit  # a body announced larger is the body limit's to refuse, unread
        self.seconds = seconds
        self.min_rate = min_rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        has_body, announced = _expects_body(scope)
        if not has_body or (announced is not None and announced > self.limit):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        start = loop.time()
        arrived: list[Message] = []
        received = 0
        while True:
            deadline = start + self.seconds + received / self.min_rate
            try:
                # A timer, not ``wait_for``'s task per message: every change's body comes
                # through here (docs/benchmarks.md, "Load").
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                response = error_response(408, _MESSAGE, code=CODE, headers={"Connection": "close"})
                await response(scope, receive, send)
                return
            arrived.append(message)
            if message["type"] != "http.request":
                break  # the client went away: the app meets it as before
            received += len(message.get("body", b""))
            if not message.get("more_body", False) or received > self.limit:
                break  # all in (or past the limit, which the body limit answers)

        async def replay() -> Message:
            if arrived:
                return arrived.pop(0)
            return await receive()

        await self.app(scope, replay, send)
