"""Changes first: under load requests take turns, and a change gets a free turn before any read
(issue 9: entries p99 under 150 ms at 100 players; docs/decisions.md, "Changes first").

The middleware runs here around a small ASGI app whose requests each wait until the test lets them
finish, so the order in which they start is seen exactly; no test measures time.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.settings import Settings
from kniffel.web.app import create_app
from kniffel.web.middleware.changes_first import DEFAULT_MAX_ACTIVE, ChangesFirst, Turns

WAIT = 10.0  # generous: the waits below end at once unless the middleware is wrong


class Held:
    """An ASGI app whose request to ``path`` runs until ``finish(path)``; it notes the starts."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self._finish: dict[str, asyncio.Event] = {}
        self._seen = asyncio.Condition()

    def finish(self, path: str) -> None:
        self._finish.setdefault(path, asyncio.Event()).set()

    async def until_started(self, path: str) -> None:
        async with self._seen:
            await asyncio.wait_for(self._seen.wait_for(lambda: path in self.started), WAIT)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope["path"]
        async with self._seen:
            self.started.append(path)
            self._seen.notify_all()
        await self._finish.setdefault(path, asyncio.Event()).wait()


def request(gate: ChangesFirst, method: str, path: str) -> asyncio.Task[None]:
    scope = {"type": "http", "method": method, "path": path, "headers": []}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        return None

    return asyncio.get_running_loop().create_task(gate(scope, receive, send))


async def one_turn_taken(app: Held, path: str) -> tuple[ChangesFirst, asyncio.Task[None]]:
    """A gate of one turn, taken by a read of ``path`` that runs until the test finishes it."""
    gate = ChangesFirst(app, Turns(max_active=1))
    running = request(gate, "GET", path)
    await app.until_started(path)
    return gate, running


async def settle() -> None:
    for _ in range(10):  # let every task that can run take its steps
        await asyncio.sleep(0)


def run(test: Callable[[Held], Awaitable[None]]) -> None:
    async def main() -> None:
        await test(Held())

    asyncio.run(main())


def test_requests_under_the_bound_start_at_once() -> None:
    async def test(app: Held) -> None:
        gate = ChangesFirst(app, Turns(max_active=3))
        tasks = [request(gate, "GET", f"/r{n}") for n in range(3)]
        for n in range(3):
            await app.until_started(f"/r{n}")
        assert gate.turns.active == 3 and gate.turns.waiting == 0
        for n in range(3):
            app.finish(f"/r{n}")
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT)
        assert gate.turns.active == 0

    run(test)


def test_a_change_gets_the_free_turn_before_reads_that_came_earlier() -> None:
    async def test(app: Held) -> None:
        gate, first = await one_turn_taken(app, "/api/games/a")
        read = request(gate, "GET", "/api/games/b")
        await settle()
        change = request(gate, "POST", "/api/games/b/events")
        await settle()
        assert app.started == ["/api/games/a"] and gate.turns.waiting == 2
        app.finish("/api/games/a")
        await app.until_started("/api/games/b/events")
        assert app.started == ["/api/games/a", "/api/games/b/events"]
        app.finish("/api/games/b/events")
        await app.until_started("/api/games/b")
        app.finish("/api/games/b")
        await asyncio.wait_for(asyncio.gather(first, read, change), WAIT)
        assert gate.turns.active == 0 and gate.turns.waiting == 0

    run(test)


def test_reads_and_changes_each_keep_their_order() -> None:
    async def test(app: Held) -> None:
        gate, first = await one_turn_taken(app, "/r0")
        tasks = [first]
        for path, method in [("/r1", "GET"), ("/c1", "POST"), ("/r2", "GET"), ("/c2", "DELETE")]:
            tasks.append(request(gate, method, path))
            await settle()
        for path in ["/r0", "/c1", "/c2", "/r1", "/r2"]:
            await app.until_started(path)
            app.finish(path)
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT)
        assert app.started == ["/r0", "/c1", "/c2", "/r1", "/r2"]

    run(test)


def test_a_long_request_gives_its_turn_back() -> None:
    async def test(app: Held) -> None:
        gate = ChangesFirst(app, Turns(max_active=1, long_after=0.01))
        slow = request(gate, "GET", "/analyse")
        await app.until_started("/analyse")
        quick = request(gate, "GET", "/api/games/a")
        # Not finished, yet after its turn's time the slow one lets the next in.
        await app.until_started("/api/games/a")
        assert gate.turns.active == 1  # the quick one's turn; the slow one runs uncounted
        app.finish("/api/games/a")
        await asyncio.wait_for(quick, WAIT)
        assert gate.turns.active == 0
        app.finish("/analyse")
        await asyncio.wait_for(slow, WAIT)
        assert gate.turns.active == 0  # its turn was given back once, not twice

    run(test)


def test_a_request_that_goes_away_while_waiting_leaves_no_trace() -> None:
    async def test(app: Held) -> None:
        gate, first = await one_turn_taken(app, "/a")
        gone = request(gate, "POST", "/gone")
        await settle()
        assert gate.turns.waiting == 1
        gone.cancel()
        await settle()
        assert gate.turns.waiting == 0 and gone.cancelled()
        later = request(gate, "GET", "/b")
        await settle()
        app.finish("/a")
        await app.until_started("/b")
        app.finish("/b")
        await asyncio.wait_for(asyncio.gather(first, later), WAIT)
        assert "/gone" not in app.started and gate.turns.active == 0

    run(test)


@pytest.mark.parametrize(
    ("kind", "method", "path"),
    [
        ("http", "GET", "/healthz"),
        ("http", "GET", "/metrics"),
        ("http", "GET", "/static/htmx.min.js"),
        ("websocket", "GET", "/api/games/a/live"),
    ],
)
def test_health_metrics_static_files_and_live_sockets_never_wait(
    kind: str, method: str, path: str
) -> None:
    async def test(app: Held) -> None:
        gate, busy = await one_turn_taken(app, "/busy")
        scope = {"type": kind, "method": method, "path": path, "headers": []}
        passing = asyncio.get_running_loop().create_task(gate(scope, None, None))  # type: ignore[arg-type]
        await app.until_started(path)
        app.finish(path)
        app.finish("/busy")
        await asyncio.wait_for(asyncio.gather(busy, passing), WAIT)
        assert gate.turns.active == 0

    run(test)


def test_no_bound_lets_everything_in() -> None:
    async def test(app: Held) -> None:
        gate = ChangesFirst(app, Turns(max_active=0))
        tasks = [request(gate, "GET", f"/r{n}") for n in range(20)]
        for n in range(20):
            await app.until_started(f"/r{n}")
        for n in range(20):
            app.finish(f"/r{n}")
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT)

    run(test)


def test_the_bound_is_a_setting(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(db=db_url).max_active == DEFAULT_MAX_ACTIVE
    monkeypatch.setenv("KNIFFEL_MAX_ACTIVE", "7")
    settings = Settings(db=db_url)
    assert settings.max_active == 7
    app = create_app(settings)
    (gate,) = [m for m in app.user_middleware if m.cls is ChangesFirst]
    assert gate.kwargs == {"turns": app.state.turns} and app.state.turns.max_active == 7
    with pytest.raises(ValueError, match="max_active"):
        Turns(max_active=-1)
    with TestClient(app) as client:  # the board answers through it
        assert client.get("/api/games").status_code == 200


@pytest.mark.parametrize("seed", range(5))
def test_many_requests_never_run_more_than_the_bound_and_all_end(seed: int) -> None:
    chance = random.Random(seed)

    async def test(app: Held) -> None:
        gate = ChangesFirst(app, Turns(max_active=3, long_after=60))
        tasks: dict[str, asyncio.Task[None]] = {}
        for n in range(40):
            path = f"/{n}"
            tasks[path] = request(gate, chance.choice(["GET", "POST", "GET"]), path)
            await settle()
            running = [p for p in app.started if p in tasks and not tasks[p].done()]
            assert len(running) <= 3 and gate.turns.active <= 3
            if chance.random() < 0.2:  # a device goes away, waiting or running
                tasks[chance.choice(list(tasks))].cancel()
            if running and chance.random() < 0.6:
                app.finish(chance.choice(running))
            await settle()
        for path in tasks:
            app.finish(path)
        await asyncio.wait_for(asyncio.gather(*tasks.values(), return_exceptions=True), WAIT)
        assert gate.turns.active == 0 and gate.turns.waiting == 0

    run(test)
