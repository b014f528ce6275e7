"""Running the board in production: /healthz, /metrics, --workers, a graceful SIGTERM."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import kniffel.cli.serve as serve_module
from kniffel.cli import cli
from kniffel.settings import Settings
from kniffel.store import GameStore
from kniffel.web.app import create_app

from .table import enter, new_game, send


def test_healthz_answers_200_while_the_database_answers(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}


def test_healthz_answers_503_when_the_database_cannot_be_reached(
    client: TestClient, tmp_path: Path
) -> None:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    gone = tmp_path / "no-such-folder" / "k.db"
    store.engine = create_engine(f"sqlite:///file:{gone}?mode=ro&uri=true")
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json() == {"detail": "the database cannot be reached"}


def test_metrics_are_off_unless_asked_for(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 404


def test_metrics_count_requests_by_route_template_and_status(db_url: str) -> None:
    with TestClient(create_app(Settings(db=db_url, metrics=True))) as client:
        game = new_game(client)
        client.get(f"/api/games/{game['id']}")
        client.get(f"/api/games/{game['id']}")
        client.get("/api/games/nosuchgame")
        text = client.get("/metrics").text
    assert (
        'kniffel_http_requests_total{method="GET",route="/api/games/{game_id}",status="200"} 2.0'
        in text
    )
    assert (
        'kniffel_http_requests_total{method="GET",route="/api/games/{game_id}",status="404"} 1.0'
        in text
    )
    assert 'route="/api/games",status="201"' in text
    assert game["id"] not in text
    assert "kniffel_replay_cache_hits_total" in text
    assert "kniffel_live_sockets 0.0" in text
    # The scrape itself never waits for a turn, and nothing else runs now.
    assert "kniffel_requests_running 0.0" in text
    assert "kniffel_requests_waiting 0.0" in text


def test_metrics_label_by_route_template_whatever_the_paths_asked_for(db_url: str) -> None:
    """Unknown players, files and paths never become labels: /metrics stays the same size."""
    asked = [f"nobody{i:04d}" for i in range(60)]
    with TestClient(create_app(Settings(db=db_url, metrics=True))) as client:
        client.get("/spieler/anna")
        client.get("/nowhere")
        before = client.get("/metrics").text
        for i, word in enumerate(asked):
            client.get(f"/spieler/{word}")
            client.get(f"/spieler/{word}%20/punkte.svg")
            client.get(f"/spieler/{word}/")
            client.get(f"/spieler/x/{word}")
            client.get(f"/api/players/{word}%2F{i}")
            client.get(f"/static/{word}/{i}.css")
            client.get(f"/{word}/nowhere")
            client.get(f"/api/players/{word}")
        text = client.get("/metrics").text
    assert not [word for word in asked if word in text]
    series = {line.split(" ")[0] for line in text.splitlines() if line.startswith("kniffel_http")}
    seen_before = {
        line.split(" ")[0] for line in before.splitlines() if line.startswith("kniffel_http")
    }
    # A handful of templates (and their histogram buckets), never one series per path.
    assert len(series) < len(seen_before) + 150
    assert 'route="/spieler/{name}",status="404"' in text
    assert 'route="(unmatched)",status="404"' in text


def test_metrics_show_the_turns_of_this_app(db_url: str) -> None:
    app = create_app(Settings(db=db_url, metrics=True, max_active=2))
    with TestClient(app) as client:
        turns = app.state.turns
        turns.active = 2  # as if two requests held the two turns
        text = client.get("/metrics").text
        turns.active = 0
    assert "kniffel_requests_running 2.0" in text


class _Served:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, app: Any, **kwargs: Any) -> None:
        self.calls.append({"app": app, **kwargs})


def test_serve_refuses_several_workers_on_sqlite_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served = _Served()
    monkeypatch.setattr(uvicorn, "run", served)
    result = CliRunner().invoke(
        cli, ["serve", "--db", f"sqlite:///{tmp_path}/k.db", "--workers", "2"]
    )
    assert result.exit_code == 2
    assert "--workers 2 needs PostgreSQL" in result.output
    assert "Traceback" not in result.output
    assert served.calls == []


def test_serve_runs_several_workers_on_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served = _Served()
    monkeypatch.setattr(uvicorn, "run", served)
    # Nobody listens at the URL: this test is about the workers' settings, not the database
    # (tests/test_cli_hardening.py checks that an unopenable database is refused).
    monkeypatch.setattr(serve_module, "_check_opens", lambda url: None)
    # Set through monkeypatch, so the values the command leaves are undone afterwards.
    defaults = {
        "KNIFFEL_DB": "sqlite:///unused.db",
        "KNIFFEL_HOST": "127.0.0.1",
        "KNIFFEL_PORT": "8000",
        "KNIFFEL_MAX_BODY": "1048576",
        "KNIFFEL_WORKERS": "1",
        "KNIFFEL_METRICS": "0",
    }
    for name, value in defaults.items():
        monkeypatch.setenv(name, value)
    url = "postgresql+psycopg://app:secret@127.0.0.1:5999/app"
    result = CliRunner().invoke(cli, ["serve", "--db", url, "--workers", "3", "--metrics"])
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert call["app"] == "kniffel.web.app:create_app"
    assert (call["factory"], call["workers"]) == (True, 3)
    # Each worker builds its app from the environment the command leaves.
    assert os.environ["KNIFFEL_DB"] == url
    assert os.environ["KNIFFEL_METRICS"] == "1"
    assert Settings().workers == 3
    assert "secret" not in result.output


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_up(http: httpx.Client, server: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        assert server.poll() is None, "the server stopped at once"
        try:
            if http.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the server did not come up")


def test_sigterm_finishes_writes_in_flight_and_closes_live_sockets_with_1012(
    tmp_path: Path,
) -> None:
    port = _free_port()
    db_url = f"sqlite:///{tmp_path / 'k.db'}"
    env = {**os.environ, "KNIFFEL_CACHE_DIR": str(tmp_path / "cache")}
    server = subprocess.Popen(
        [sys.executable, "-m", "kniffel", "serve", "--db", db_url, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            _wait_until_up(http, server)
            game = http.post(
                "/api/games", json={"variant": "kniffel", "players": ["Anna", "Ben"]}
            ).json()
            with connect(f"ws://127.0.0.1:{port}/api/games/{game['id']}/live") as socket_:
                assert '"version":0' in socket_.recv(timeout=30).replace(" ", "")
                acknowledged: list[int] = []
                started = threading.Event()

                def writer() -> None:
                    # Anna and Ben take turns; each entry needs the one before it stored.
                    cells = ["ones", "twos", "threes", "fours", "fives", "sixes"]
                    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as mine:
                        for number, cell in enumerate(cells * 2):
                            player = "Anna" if number % 2 == 0 else "Ben"
                            face = str(cells.index(cell) + 1)
                            started.set()
                            try:
                                answer = send(mine, game, enter(player, cell, face * 5))
                            except httpx.TransportError:
                                return  # the server no longer takes new requests
                            assert answer.status_code < 500, answer.text
                            if answer.status_code != 200:
                                return
                            acknowledged.append(answer.json()["version"])

                thread = threading.Thread(target=writer)
                thread.start()
                started.wait(timeout=30)
                server.send_signal(signal.SIGTERM)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        socket_.recv(timeout=30)
                thread.join(timeout=60)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1012
        # uvicorn shuts down, then raises the signal again for the default handler.
        assert server.wait(timeout=60) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    store = GameStore.open(db_url)
    try:
        stored = store.load(game["id"])
        assert stored is not None
        # Every acknowledged entry is stored, in order, and nothing else.
        assert acknowledged == list(range(1, len(acknowledged) + 1))
        assert stored.version >= len(acknowledged)
        assert stored.version - len(acknowledged) <= 1  # at most one stored as the answer was cut
    finally:
        store.close()


def test_several_workers_on_postgresql_share_changes_and_stop_cleanly(
    tmp_path: Path, pg_url: str
) -> None:
    # The module's database on the session's server (tests/web/conftest.py).
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "kniffel", "serve", "--db", pg_url, "--port", str(port),
         "--workers", "2"],
        env={**os.environ, "KNIFFEL_CACHE_DIR": str(tmp_path / "cache")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            _wait_until_up(http, server)
            game = http.post("/api/games", json={"variant": "kniffel", "players": ["Anna"]}).json()
            url = f"ws://127.0.0.1:{port}/api/games/{game['id']}/live"
            with connect(url) as first, connect(url) as second:
                for watcher in (first, second):
                    assert '"version":0' in watcher.recv(timeout=30).replace(" ", "")
                # New connections for each entry: they may reach either worker.
                for number, cell in enumerate(("ones", "twos", "threes"), start=1):
                    with httpx.Client(base_url=http.base_url, timeout=30) as fresh:
                        answer = send(fresh, game, enter("Anna", cell, "11111"))
                    assert answer.status_code == 200, answer.text
                    for watcher in (first, second):
                        heard = watcher.recv(timeout=30).replace(" ", "")
                        assert f'"version":{number}' in heard
                server.send_signal(signal.SIGTERM)
                for watcher in (first, second):
                    with pytest.raises(ConnectionClosed) as closed:
                        while True:
                            watcher.recv(timeout=60)
                    assert closed.value.rcvd is not None
                    assert closed.value.rcvd.code == 1012
        assert server.wait(timeout=60) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_database_outage_answers_503_with_retry_after_and_logs_one_line(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(db=db_url))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = new_game(client)
        store: GameStore = app.state.store
        # The database file's folder is gone: every new connection fails.
        gone = tmp_path / "no-such-folder" / "k.db"
        store.engine = create_engine(f"sqlite:///file:{gone}?mode=ro&uri=true")
        caplog.clear()
        answers = [
            client.get("/api/games/abcdefghijkl"),
            client.get("/api/games/bcdefghijklm"),
            client.get("/api/games/cdefghijklmn/record"),
        ]
        for answer in answers:
            assert answer.status_code == 503, answer.text
            assert answer.headers["retry-after"] == "5"
            assert answer.json()["code"] == "database_unavailable"
        assert game["id"]
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "database unreachable" in lines[0].getMessage() and lines[0].exc_info is None


def test_a_database_that_cannot_be_written_refuses_each_change_with_503_and_one_line(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # The file turned read-only under a running board (issue 33, item 7): reads go on, each
    # change is refused with 503 and nothing stored, and the log says so once; the server lives.
    app = create_app(Settings(db=db_url))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = new_game(client)
        store: GameStore = app.state.store
        path = db_url.removeprefix("sqlite:///")
        store.engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
        caplog.clear()
        body = {"variant": "kniffel", "players": ["Ann", "Ben"]}
        changes = [client.post("/api/games", json=body) for _ in range(2)]
        changes.append(send(client, game, enter("Anna", "down.ones", "11123")))
        for answer in changes:
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "database_unavailable"
        assert client.get(f"/api/games/{game['id']}").status_code == 200
        assert client.get("/healthz").status_code in (200, 503)
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "cannot be written" in lines[0].getMessage() and lines[0].exc_info is None


def test_serve_on_a_database_opened_read_only_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "k.db"
    GameStore.open(f"sqlite:///{path}").close()
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"--db {url}: the database cannot be written")
    # SQLite's URI form names the file after "file:"; no folder "file:" is made where it ran.
    assert not (tmp_path / "file:").exists()


_BLAS_THREADS = """
import ctypes, sys
import uvicorn

def report(*args, **kwargs):
    import numpy
    maps = [line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower()]
    library = ctypes.CDLL(maps[0])
    count = getattr(library, "scipy_openblas_get_num_threads64_", None)
    print("blas", count() if count else "unknown")

uvicorn.run = report
from kniffel.cli import cli
cli(["serve", "--db", sys.argv[1], "--port", "1"])
"""


def test_the_serving_process_runs_numpy_s_blas_on_one_thread(tmp_path: Path) -> None:
    # A pool of BLAS threads at nice 0 worked off the background's reviews for minutes after
    # the requests stopped (issue 33, item 5): in the serving process the pool is one thread,
    # so the work runs in the thread that asked, at its priority.
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    found = subprocess.run(
        [sys.executable, "-c", _BLAS_THREADS, f"sqlite:///{tmp_path / 'k.db'}"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    assert "blas 1" in found.stdout.splitlines(), found.stdout


def _immutable(path: Path, on: bool) -> bool:
    """``chattr +i`` / ``-i`` on ``path``; False where this machine cannot (not root, another
    file system)."""
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def test_a_wal_index_made_immutable_under_the_board_is_an_outage_not_a_crash(
    tmp_path: Path,
) -> None:
    """The SQLite file's WAL index (``-shm``) made immutable under a running board: the next
    request killed the process with SIGBUS and no log line (issue 33, item 7). Now each request
    answers 503 while it lasts, the log says so once, and the board goes on afterwards."""
    probe = tmp_path / "probe"
    probe.touch()
    if not _immutable(probe, True):
        pytest.skip("chattr +i is not possible here (root on ext4 and the like)")
    _immutable(probe, False)
    port = _free_port()
    db = tmp_path / "k.db"
    env = {**os.environ, "KNIFFEL_CACHE_DIR": str(tmp_path / "cache")}
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "kniffel", "serve", "--db", f"sqlite:///{db}", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    index = Path(f"{db}-shm")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            _wait_until_up(http, server)
            game = http.post("/api/games", json={"variant": "kniffel", "players": ["Anna"]})
            game = game.json()
            assert _immutable(index, True)
            try:
                answers = [send(http, game, enter("Anna", "main.ones", "11123")) for _ in range(3)]
                answers.append(http.get(f"/api/games/{game['id']}"))
                assert [a.status_code for a in answers] == [503] * 4
                assert {a.json()["code"] for a in answers} == {"database_unavailable"}
                assert server.poll() is None  # alive
            finally:
                _immutable(index, False)
            stored = send(http, game, enter("Anna", "main.ones", "11123"))
            assert stored.status_code == 200 and stored.json()["version"] == 1
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    written = (tmp_path / "server.log").read_text()
    assert written.count("database cannot be written") == 1, written
    assert "Traceback" not in written
