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
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from kniffel.settings import DEFAULT_HEADER_TIMEOUT, Settings

__all__ = ["FromEnvironment", "HeaderDeadline", "deadline_protocol", "uvicorn_options"]


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for a request's headers."""

    #: Seconds from a request's first byte (or the connection's opening) to its last header.
    seconds: float = DEFAULT_HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(self.seconds, self._headers_too_late)

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_too_late(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def data_received(self, data: bytes) -> None:
        # Between requests (none yet, or the last one answered) these bytes start a new one.
        if self.cycle is None or self.cycle.response_complete:
            self._arm_header_deadline()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm_header_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)


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
