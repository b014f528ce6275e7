"""A game that waits for its house rules' tables hears on its live socket when they are built
(``{"type": "tables"}``), so that its Tipp panel asks again at once (issue 35; docs/board.md,
"Tipp"): whether the Tipp said they are being built or the game's creation queued them. The
watchers of other games hear nothing.

The builds here are stand-ins: each waits until the test lets it finish, then counts as built.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from kniffel.board.tables import TableReadiness
from kniffel.settings import Settings
from kniffel.solver.builds import Table, TableBuilds
from kniffel.web.app import create_app

from .table import advice, new_game

#: How long the test waits for what happens in the builds' worker thread (seconds).
WAIT = 30.0


class Gate:
    """Stand-in builds that finish when the test opens the gate (nothing is computed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = threading.Event()
        gate = self

        def build(builds: TableBuilds, table: Table) -> bool:
            with builds._lock:
                builds.built.append(table)
            gate.open.wait(WAIT)
            with builds._lock:
                builds._ready.add(table)
            return False

        def is_ready(builds: TableBuilds, table: Table) -> bool:
            with builds._lock:
                return table in builds._ready

        monkeypatch.setattr(TableBuilds, "_build", build)
        monkeypatch.setattr(TableBuilds, "is_ready", is_ready)


def _client(tmp_path: Path, *, at_creation: bool) -> TestClient:
    settings = Settings(
        db=f"sqlite:///{tmp_path / 'k.db'}",
        tables_at_creation=at_creation,
        prebuild_tables=False,
        background=False,
    )
    return TestClient(create_app(settings))


@pytest.fixture
def gate(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Gate:
    return Gate(monkeypatch)


def _waiting(client: TestClient) -> dict[str, object]:
    readiness: TableReadiness = client.app.state.readiness  # type: ignore[attr-defined]
    return dict(readiness._waiting.items())


def _told(client: TestClient, game_id: str) -> None:
    """Waits until the builds' worker has told ``game_id``'s watchers (it forgets the game)."""
    deadline = time.monotonic() + WAIT
    while game_id in _waiting(client):
        assert time.monotonic() < deadline, "the game was never told its tables are built"
        time.sleep(0.01)


def _heard_before_an_answer(socket: WebSocketTestSession) -> object:
    """What the socket says next, with a question asked now: a news that never comes fails
    the test (the answer comes first) instead of waiting for ever."""
    socket.send_text("?")
    news = socket.receive_json()
    if news["type"] != "state":
        assert socket.receive_json()["type"] == "state"  # the answer, after the news
    return news


@pytest.mark.parametrize("at_creation", [False, True], ids=["tipp-asked", "at-creation"])
def test_a_game_waiting_for_its_tables_hears_when_they_are_built(
    gate: Gate, tmp_path: Path, at_creation: bool
) -> None:
    with _client(tmp_path, at_creation=at_creation) as client:
        game = new_game(client, variant="kniffel", options={"kniffel_bonus": 73})
        other = new_game(client, variant="kniffel")  # the presets' rules: waits for nothing
        live = "/api/games/{}/live"
        with (
            client.websocket_connect(live.format(game["id"])) as socket,
            client.websocket_connect(live.format(other["id"])) as watcher,
        ):
            assert socket.receive_json() == {"type": "state", "version": 0}
            assert watcher.receive_json() == {"type": "state", "version": 0}
            if not at_creation:
                assert game["id"] not in _waiting(client)
                assert advice(client, game).status_code == 202  # being built
            assert game["id"] in _waiting(client)
            gate.open.set()
            _told(client, game["id"])
            assert _heard_before_an_answer(socket) == {"type": "tables"}
            assert _heard_before_an_answer(watcher) == {"type": "state", "version": 0}
        readiness: TableReadiness = client.app.state.readiness  # type: ignore[attr-defined]
        assert readiness.ready(client.app.state.service.get(game["id"]).variant)  # type: ignore[attr-defined]
