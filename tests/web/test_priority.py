"""Issue 21: the work no request does runs below the requests (``nice`` 10 per thread), so a
busy background never slows the entries down: the Tipp's simulated reasons, "Auf Sieg" and
the queues' workers. Each is watched from inside its own thread (the real work still runs)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.advice import AdviceService
from kniffel.board.queued import Progress, Queued
from kniffel.priority import DEFAULT_NICE, ENV
from kniffel.solver.advice import reasons, turn_ends

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="Linux threads only")

#: Seconds the work may take on a busy machine.
WAIT = 600


@pytest.fixture(autouse=True)
def board_nice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's own setting (the rest of the run takes 0: tests/conftest.py)."""
    monkeypatch.setenv(ENV, str(DEFAULT_NICE))


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _until(seen: list[int]) -> None:
    deadline = time.monotonic() + WAIT
    while not seen and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_queues_worker_runs_at_nice_10() -> None:
    queued: Queued[str, int] = Queued("test-nice", queue=2, per_client=2, kept=2)

    def work(_progress: Progress) -> int:
        return _nice()

    try:
        assert queued.ask("a", "me", work) == 0.0
        assert queued.join(timeout=WAIT)
        assert queued.ask("a", "me", work) == 10
    finally:
        queued.close()


def _new(client: TestClient, variant: str) -> Any:
    game = client.post("/api/games", json={"variant": variant, "players": ["Anna", "Ben"]})
    assert game.status_code == 201, game.text
    return game.json()


def test_the_tipps_reasons_are_worked_out_at_nice_10(
    client: TestClient, preset_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    compute: Callable[..., Any] = reasons._compute

    def watched(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "tipp-reasons":
            seen.append(_nice())
        return compute(*args, **kwargs)

    monkeypatch.setattr(reasons, "_compute", watched)
    # Where the work runs is asked, not its figures: a small bound of work (6,000), in fresh caches
    # that nothing after this test reads.
    assert reasons._BACKGROUND.wait_idle(WAIT)
    monkeypatch.setattr(turn_ends, "WORK", 6_000)
    monkeypatch.setattr(reasons, "_CACHE", reasons._Cache())
    monkeypatch.setattr(turn_ends, "STREAMS", turn_ends._Streams())
    game = _new(client, "rauf-runter")  # three columns: its reasons are simulated
    assert client.get(f"/api/games/{game['id']}/advice").status_code == 200
    _until(seen)
    assert seen and set(seen) == {10}
    assert reasons._BACKGROUND.wait_idle(WAIT)


def test_auf_sieg_is_worked_out_at_nice_10(
    client: TestClient, preset_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    wins = AdviceService.wins

    def watched(view: Any, position: Any) -> Any:
        seen.append(_nice())
        return wins(view, position)

    monkeypatch.setattr(AdviceService, "wins", staticmethod(watched))
    game = _new(client, "kniffel")
    assert client.get(f"/g/{game['id']}/tipp").status_code == 200
    _until(seen)
    assert seen and set(seen) == {10}


def test_how_far_below_the_requests_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """``KNIFFEL_BACKGROUND_NICE`` sets it for every worker (docs/cli.md)."""
    monkeypatch.setenv(ENV, "7")
    queued: Queued[str, int] = Queued("test-nice-7", queue=2, per_client=2, kept=2)
    try:
        assert queued.ask("a", "me", lambda _progress: _nice()) == 0.0
        assert queued.join(timeout=WAIT)
        assert queued.ask("a", "me", lambda _progress: _nice()) == 7
    finally:
        queued.close()
