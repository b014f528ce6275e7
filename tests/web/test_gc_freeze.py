"""After start the board moves what start-up made out of the collector's sight (``gc.freeze``):
the collector's full passes had walked it all and held every request (docs/decisions.md, "The
collector after start"). Observed through ``gc.freeze`` itself, so that this test process keeps
collecting as before. The freeze comes without a full collection first: that walked every object
at start, about 0.1 s of the first answer's CPU, and found no garbage (docs/benchmarks.md,
"Start")."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.settings import Settings
from kniffel.web.app import YOUNG_THRESHOLD, create_app


def _starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: bool
) -> tuple[list[bool], list[tuple[int, ...]]]:
    """Start and stop the board; for each ``gc.freeze()``: whether the store was open by then;
    and the thresholds the collector was given. No full collection is asked for meanwhile."""
    calls: list[bool] = []
    thresholds: list[tuple[int, ...]] = []
    collections: list[tuple[int, ...]] = []
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}", **settings))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(hasattr(app.state, "service")))
    monkeypatch.setattr(gc, "set_threshold", lambda *given: thresholds.append(given))
    monkeypatch.setattr(gc, "collect", lambda *given: collections.append(given) or 0)
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
    assert collections == []
    return calls, thresholds


def test_the_board_freezes_once_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, middle, oldest = gc.get_threshold()
    # The youngest generation is collected less often from then on; the older ones as before.
    assert _starts(tmp_path, monkeypatch, gc_freeze=True) == (
        [True],
        [(YOUNG_THRESHOLD, middle, oldest)],
    )


def test_the_test_process_keeps_pythons_collector() -> None:
    """No app started by the tests (nor while they are collected) froze this process or
    changed its thresholds: each start would have kept what earlier tests left alive."""
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold()[0] < YOUNG_THRESHOLD


def test_freezing_can_be_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _starts(tmp_path, monkeypatch, gc_freeze=False) == ([], [])


def test_freezing_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KNIFFEL_GC_FREEZE")  # set off for the test session (tests/conftest.py)
    assert Settings().gc_freeze is True
    monkeypatch.setenv("KNIFFEL_GC_FREEZE", "false")
    assert Settings().gc_freeze is False
