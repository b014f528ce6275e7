"""The board's queue of work no request does (kniffel.board.queued): bounded overall and per
client, once per key, a newer version replacing a waiting older one (docs/deploy.md, "Limits")."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from kniffel.board.queued import Busy, Progress, Queued

Key = tuple[str, int]


@pytest.fixture
def queued() -> Iterator[Queued[Key, str]]:
    found: Queued[Key, str] = Queued("test-queue", queue=3, per_client=2, kept=8)
    yield found
    found.close()


def _held(gate: threading.Event, started: threading.Event, value: str) -> Callable[[Progress], str]:
    """Work that reports half its progress and waits for ``gate``."""

    def work(progress: Progress) -> str:
        progress(0.5)
        started.set()
        assert gate.wait(timeout=600)
        return value

    return work


def test_work_is_queued_once_and_answers_its_progress_then_its_figures(
    queued: Queued[Key, str],
) -> None:
    gate, started = threading.Event(), threading.Event()
    assert queued.ask(("g", 1), "a", _held(gate, started, "figures")) == 0.0
    assert started.wait(timeout=600)
    assert queued.ask(("g", 1), "a", _held(gate, started, "other")) == 0.5  # not queued again
    assert queued.waiting() == 1
    gate.set()
    assert queued.join(timeout=600)
    assert queued.ask(("g", 1), "a", _held(gate, started, "other")) == "figures"
    assert queued.worked == 1


def test_one_client_and_all_together_are_bounded(queued: Queued[Key, str]) -> None:
    gate, started = threading.Event(), threading.Event()
    queued.ask(("g", 0), "a", _held(gate, started, "0"))
    assert started.wait(timeout=600)  # being worked on: the two below wait
    queued.ask(("g", 1), "a", _held(gate, started, "1"))
    queued.ask(("g", 2), "a", _held(gate, started, "2"))
    with pytest.raises(Busy) as client_full:
        queued.ask(("g", 3), "a", _held(gate, started, "3"))
    assert client_full.value.reason == "client" and client_full.value.retry_after > 0
    queued.ask(("h", 1), "b", _held(gate, started, "h"))
    with pytest.raises(Busy) as queue_full:
        queued.ask(("i", 1), "c", _held(gate, started, "i"))
    assert queue_full.value.reason == "queue"
    assert queued.waiting() == 4
    gate.set()
    assert queued.join(timeout=600)
    assert queued.find(("g", 3)) is None and queued.find(("i", 1)) is None  # nothing queued
    assert queued.worked == 4


def test_a_newer_version_replaces_the_waiting_older_one(queued: Queued[Key, str]) -> None:
    gate, started = threading.Event(), threading.Event()
    queued.ask(("busy", 1), "x", _held(gate, started, "busy"))
    assert started.wait(timeout=600)
    queued.ask(("g", 1), "a", _held(gate, started, "v1"), kind="g")
    queued.ask(("g", 2), "b", _held(gate, started, "v2"), kind="g")
    assert queued.waiting() == 2  # the one at work and version 2
    gate.set()
    assert queued.join(timeout=600)
    assert queued.find(("g", 1)) is None
    assert queued.find(("g", 2)) == "v2"


def test_work_that_fails_answers_its_error_and_the_queue_goes_on(
    queued: Queued[Key, str],
) -> None:
    def fails(_progress: Progress) -> str:
        raise ValueError("no such position")

    queued.ask(("bad", 1), "a", fails)
    assert queued.join(timeout=600)
    with pytest.raises(ValueError, match="no such position"):
        queued.ask(("bad", 1), "a", fails)
    assert queued.ask(("good", 1), "a", lambda _: "fine") == 0.0
    assert queued.join(timeout=600)
    assert queued.find(("good", 1)) == "fine"
