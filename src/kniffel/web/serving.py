"""How uvicorn serves the board: one set of options for ``kniffel serve`` and the tests that
serve it for real (docs/deploy.md, "Limits at the edge").

- **Socket messages** (``ws_max_size``): the live channel's client sends a few bytes ("am I up to
  date?"); a larger message closes the socket with 1009 before it is held in memory
  (``KNIFFEL_MAX_WS_MESSAGE``, default 4 KiB; uvicorn's own default took 16 MiB per message).
- **Headers in time** (:class:`HeaderDeadline`): a request's line and headers must arrive within
  ``KNIFFEL_HEADER_TIMEOUT`` seconds (default 10) of its first byte or of the connection's
  opening, else the connection is closed. uvicorn has no such deadline (its keep-alive timeout
  starts only after an answer), so a half-sent request held its connection open for as long as
  the client liked.
- **Bodies in time**: :mod:`kniffel.web.middleware.body_deadline`, an ASGI middleware.

:class:`HeaderDeadline` is an ``asyncio.Protocol`` in front of uvicorn's own HTTP protocol (the
one its ``http="auto"`` setting names), built on what asyncio defines alone: it hands every call
on and watches the bytes for the end of each request's head, so it needs nothing of the
server's internals (no subclass of them, issue 34).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string

from kniffel.settings import DEFAULT_HEADER_TIMEOUT, Settings

__all__ = ["FromEnvironment", "HeaderDeadline", "deadline_protocol", "uvicorn_options"]

#: The end of a request's head (RFC 9112: CRLF CRLF).
_HEAD_END = b"\r\n\r\n"
#: A head longer than this is the server's to refuse; the deadline stops looking.
_HEAD_MAX = 64 * 1024


class HeaderDeadline(asyncio.Protocol):
    """uvicorn's HTTP protocol behind a deadline for each request's head.

    It follows the requests on the connection from their bytes: a head ends at CRLF CRLF, and
    a body of ``Content-Length`` bytes follows it; the first byte after that starts the next
    request and its deadline. A chunked body's end is not looked for: its deadline is the
    body's (``kniffel.web.middleware.body_deadline``), and the connection's later requests
    are then left to uvicorn's own limits.
    """

    #: Seconds from a request's first byte (or the connection's opening) to its last header.
    seconds: float = DEFAULT_HEADER_TIMEOUT
    #: uvicorn's HTTP protocol (httptools where installed, else h11).
    inner: type[asyncio.Protocol] = import_from_string(HTTP_PROTOCOLS["auto"])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._protocol: Any = self.inner(*args, **kwargs)
        self._transport: asyncio.BaseTransport | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._head = bytearray()  # the head read so far
        self._body = 0  # bytes of the current body still to come
        self._following = True  # False after a chunked body: the requests are no longer followed

    # What asyncio calls, handed on.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        self._protocol.connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._following:
            self._follow(data)
        self._protocol.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self._protocol.eof_received()
        return result

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._protocol.connection_lost(exc)

    def pause_writing(self) -> None:
        self._protocol.pause_writing()

    def resume_writing(self) -> None:
        self._protocol.resume_writing()

    # The deadline.

    def _follow(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self._following:
            if self._body:  # the current request's body
                taken = min(self._body, len(view))
                self._body -= taken
                view = view[taken:]
                continue
            if not self._head:
                self._arm()  # a new request's first byte (none armed yet after a body)
            before = len(self._head)
            self._head += view
            end = self._head.find(_HEAD_END, max(0, before - 3))
            if end < 0:
                if len(self._head) > _HEAD_MAX:
                    self._stop_following()
                return
            self._disarm()
            head = bytes(self._head[: end + len(_HEAD_END)])
            view = view[len(head) - before :]
            self._head.clear()
            self._start_body(head)

    def _start_body(self, head: bytes) -> None:
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length" and value.strip().isdigit():
                self._body = int(value.strip())
            elif name == b"transfer-encoding" or name == b"upgrade":
                self._stop_following()  # a chunked body, or another protocol from here on

    def _stop_following(self) -> None:
        self._following = False
        self._disarm()
        self._head.clear()

    def _arm(self) -> None:
        if self._deadline is None:
            loop = asyncio.get_running_loop()
            self._deadline = loop.call_later(self.seconds, self._too_late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_late(self) -> None:
        self._deadline = None
        if self._transport is not None and not self._transport.is_closing():
            self._transport.close()


def _environment_seconds() -> float:
    try:
        return float(os.environ.get("KNIFFEL_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT))
    except ValueError:
        return DEFAULT_HEADER_TIMEOUT


class FromEnvironment(HeaderDeadline):
    """The deadline of ``KNIFFEL_HEADER_TIMEOUT``: the protocol of every worker process of
    ``--workers N``, which uvicorn names by its import path."""

    seconds = _environment_seconds()


def deadline_protocol(seconds: float) -> type[HeaderDeadline]:
    """The protocol with a deadline of ``seconds``."""
    if seconds == FromEnvironment.seconds:
        return FromEnvironment
    return type("HeaderDeadline", (HeaderDeadline,), {"seconds": seconds})


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The options of ``uvicorn.run``/``uvicorn.Config`` that keep the board's limits."""
    return {
        "host": settings.host,
        "port": settings.port,
        # The sans-I/O WebSocket protocol: uvicorn's older one warns with websockets >= 14.
        "ws": "websockets-sansio",
        # The live messages are a few bytes of JSON ({"type": "state", "version": N}):
        # compressing them cost both ends CPU for nothing (docs/benchmarks.md, "Live updates").
        "ws_per_message_deflate": False,
        "ws_max_size": settings.max_ws_message,
        "http": deadline_protocol(settings.header_timeout),
    }
