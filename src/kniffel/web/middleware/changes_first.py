"""Changes first: when the server is busy, requests take turns, and a change goes before every read
(docs/decisions.md, "Changes first").

A player who enters a score at the table waits for the answer; a page that refetches the board
after a change, or a phone that looks at the standings, can wait a little longer. An asyncio server
runs every request it has taken interleaved with all the others, so under load each request waits
for a share of the event loop behind all of them, and an entry waits behind every read that came
before it. This middleware gives the requests turns instead:

- at most ``max_active`` requests run at once; a further one waits for its turn;
- a turn that comes free goes to the first waiting change (every method but ``GET`` and ``HEAD``),
  and only when no change waits to the first waiting read: each line keeps the order of arrival;
- a request that has run for ``long_after`` seconds (0.05: the answers of the board take a few
  milliseconds, an analysis or a chart can take seconds, mostly in worker threads) gives its turn
  back and runs on uncounted, so a slow request never holds the others up for long;
- live sockets, the health check, the metrics and static files never wait (a health check queued
  behind the reads would take a busy server for a dead one).

While fewer than ``max_active`` requests run, nothing waits and nothing changes. A waiting request
costs no CPU, so the server's time goes to the requests that run, and changes run first. The bound
is ``KNIFFEL_MAX_ACTIVE`` (default 4; 0 turns the turns off).
"""

from __future__ import annotations

import asyncio
from collections import deque

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["DEFAULT_LONG_AFTER", "DEFAULT_MAX_ACTIVE", "ChangesFirst", "Turns"]

#: Four at once keep one core busy with the board's answers (docs/benchmarks.md, "Load").
DEFAULT_MAX_ACTIVE = 4
#: Seconds after which a running request gives its turn back.
DEFAULT_LONG_AFTER = 0.05

_READS = frozenset({"GET", "HEAD"})
_NEVER_WAIT = ("/healthz", "/metrics", "/static/")


class _Turn:
    """One admitted request's turn: given back once, when it ends or when it has run long."""

    __slots__ = ("_timer", "_turns", "held")

    def __init__(self, turns: Turns) -> None:
        self._turns = turns
        self.held = True
        self._timer = asyncio.get_running_loop().call_later(turns.long_after, self.give_back)

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self._timer.cancel()
            self._turns.pass_on()


class Turns:
    """Who runs and who waits: at most ``max_active`` turns, a waiting change before any read.

    One per app (``app.state.turns``), so that ``/metrics`` can show it.
    """

    def __init__(
        self, max_active: int = DEFAULT_MAX_ACTIVE, long_after: float = DEFAULT_LONG_AFTER
    ) -> None:
        if max_active < 0:
            raise ValueError("max_active cannot be negative")
        self.max_active = max_active
        self.long_after = long_after
        #: Requests holding a turn now.
        self.active = 0
        self._changes: deque[asyncio.Future[None]] = deque()
        self._reads: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        """Requests waiting for their turn now."""
        return len(self._changes) + len(self._reads)

    async def take(self, change: bool) -> _Turn:
        """A turn, at once while one is free, else when one comes free for this request."""
        if self.active < self.max_active:
            self.active += 1
            return _Turn(self)
        line = self._changes if change else self._reads
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line.append(ready)
        try:
            await ready  # the turn is handed over with it: ``active`` counts it already
        except asyncio.CancelledError:
            if ready.done() and not ready.cancelled():
                self.pass_on()  # handed a turn while going away: the next one gets it
            else:
                line.remove(ready)
            raise
        return _Turn(self)

    def pass_on(self) -> None:
        """A turn came free: to the first waiting change, else to the first waiting read."""
        for line in (self._changes, self._reads):
            while line:
                ready = line.popleft()
                if not ready.done():
                    ready.set_result(None)
                    return
        self.active -= 1


class ChangesFirst:
    """ASGI middleware: requests take :class:`Turns`; some never wait (the module text)."""

    def __init__(self, app: ASGIApp, turns: Turns | None = None) -> None:
        self.app = app
        self.turns = turns if turns is not None else Turns()

    def _waits(self, scope: Scope) -> bool:
        if self.turns.max_active == 0 or scope["type"] != "http":
            return False
        path: str = scope["path"]
        return scope["method"] not in _READS or not path.startswith(_NEVER_WAIT)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._waits(scope):
            await self.app(scope, receive, send)
            return
        turn = await self.turns.take(change=scope["method"] not in _READS)
        try:
            await self.app(scope, receive, send)
        finally:
            turn.give_back()
