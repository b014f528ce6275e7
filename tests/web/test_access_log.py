"""No key reaches a log line (issue 9, finding 7: ``GET /g/ID?key=…`` was in the access log)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from kniffel.web.middleware.access_log import HIDDEN


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _call(url: str, data: bytes | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if data else {}
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_kniffel_serve_writes_no_key_into_its_access_log(tmp_path: Path) -> None:
    port = _free_port()
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("KNIFFEL_DB", None)
    command = [sys.executable, "-m", "kniffel", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'k.db'}"]
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 180
            while True:
                try:
                    if _call(base + "/api/games")[0] == 200:
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    pass
                assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
            body = json.dumps({"players": ["Anna"]}).encode()
            status, created = _call(base + "/api/games", body)
            assert status == 201
            game = json.loads(created)
            key = game["key"]
            # An old play link, and an API client that sends the key as a parameter.
            assert _call(f"{base}/g/{game['id']}?key={key}")[0] == 200
            event = json.dumps(
                {
                    "event": {
                        "type": "enter",
                        "player": "Anna",
                        "cell": "chance",
                        "dice": [1, 2, 3, 4, 5],
                    }
                }
            ).encode()
            _call(f"{base}/api/games/{game['id']}/events?lang=de&key={key}", event)
            # The same parameter with its name percent-encoded is the same key to the app.
            assert _call(f"{base}/api/games/{game['id']}/record?%6Bey={key}")[0] == 200
            assert _call(f"{base}/g/{game['id']}?k%65y={key}")[0] == 200
            # Wait for the last request's log line (it is written after the answer) rather
            # than for a fixed time that a busy machine may overrun.
            last_line = f"/g/{game['id']}?k%65y={HIDDEN}"
            deadline = time.monotonic() + 60
            while last_line not in log_path.read_text() and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            server.terminate()
            server.wait(timeout=30)
    output = log_path.read_text()
    assert f"/g/{game['id']}?key={HIDDEN}" in output, output  # the access log runs
    assert f"/api/games/{game['id']}/events?lang=de&key={HIDDEN}" in output, output
    assert f"/g/{game['id']}?k%65y={HIDDEN}" in output, output
    assert key not in output
