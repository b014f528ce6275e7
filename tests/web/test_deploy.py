"""deploy/nginx.conf, checked by nginx itself and used for real traffic.

The config in the repository is copied with only its addresses, certificate and
log paths replaced (each replacement must match, so the file cannot drift away
from this test), checked with ``nginx -t`` and run in front of a real
``kniffel serve``: HTTPS requests, the redirect from HTTP, a WebSocket through
the proxy that hears a change, and an access log without the key. Skipped where
nginx or openssl is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .table import enter

ROOT = Path(__file__).parents[2]
CONFIG = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
OPENSSL = shutil.which("openssl")

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None, reason="nginx or openssl is not installed"
)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, f"deploy/nginx.conf no longer has {old!r}"
    return text.replace(old, new)


def _site(folder: Path, backend: int, http: int, https: int) -> str:
    text = CONFIG.read_text(encoding="utf-8")
    text = _replace(
        text,
        "    server 10.0.0.11:8000 max_fails=3 fail_timeout=10s;\n"
        "    server 10.0.0.12:8000 max_fails=3 fail_timeout=10s;\n",
        f"    server 127.0.0.1:{backend} max_fails=3 fail_timeout=10s;\n",
    )
    text = _replace(text, "listen 80;", f"listen 127.0.0.1:{http};")
    text = _replace(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;")
    text = _replace(
        text, "/etc/letsencrypt/live/tafel.example.org/fullchain.pem", str(folder / "cert.pem")
    )
    text = _replace(
        text, "/etc/letsencrypt/live/tafel.example.org/privkey.pem", str(folder / "key.pem")
    )
    return _replace(text, "/var/log/nginx/kniffel.access.log", str(folder / "access.log"))


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """nginx with deploy/nginx.conf before one kniffel serve; yields (https, http, log)."""
    with ExitStack() as stack:
        yield from _proxied(tmp_path, stack)


def _logs(folder: Path, tmp_path: Path) -> str:
    """What the server and nginx said, for a failed start."""
    parts = [folder / "error.log", tmp_path / "server.log"]
    return "\n".join(f"{path.name}: {path.read_text()[-2000:]}" for path in parts if path.exists())


def _proxied(tmp_path: Path, stack: ExitStack) -> Iterator[tuple[str, str, Path]]:
    assert NGINX is not None and OPENSSL is not None
    folder = tmp_path / "nginx"
    folder.mkdir()
    folder.chmod(0o777)  # nginx's workers may run as nobody
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(folder / "key.pem"),
         "-out", str(folder / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    backend, http, https = _free_port(), _free_port(), _free_port()
    (folder / "kniffel.conf").write_text(_site(folder, backend, http, https))
    temp = "".join(
        f"{kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy", "fastcgi")
    ) + "".join(f"{kind}_temp_path {folder / kind};\n" for kind in ("uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        "events { worker_connections 256; }\n"
        f"http {{\n{temp}include {folder / 'kniffel.conf'};\n}}\n"
    )
    base = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "e.log")]
    checked = subprocess.run([*base, "-t"], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    server_log = stack.enter_context((tmp_path / "server.log").open("w"))
    server = subprocess.Popen(
        [sys.executable, "-m", "kniffel", "serve", "--port", str(backend),
         "--db", f"sqlite:///{tmp_path / 'k.db'}"],
        env={**os.environ, "KNIFFEL_CACHE_DIR": str(tmp_path / "cache")},
        stdout=server_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    proxy = subprocess.Popen(
        [*base, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        # One bound on the whole wait, so that a server that never answers fails the test
        # with its own log instead of holding the run for 600 tries of 10 s each.
        deadline = time.monotonic() + 180
        ready = False
        with httpx.Client(verify=False, timeout=10) as client:
            while not ready and time.monotonic() < deadline:
                assert server.poll() is None and proxy.poll() is None, _logs(folder, tmp_path)
                try:
                    ready = client.get(f"https://127.0.0.1:{https}/healthz").status_code == 200
                except httpx.TransportError:
                    time.sleep(0.1)
        assert ready, _logs(folder, tmp_path)
        yield f"127.0.0.1:{https}", f"127.0.0.1:{http}", folder / "access.log"
    finally:
        proxy.send_signal(signal.SIGQUIT)
        server.terminate()
        for process in (proxy, server):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_nginx_carries_https_and_websockets_to_the_board(
    proxied: tuple[str, str, Path],
) -> None:
    https, http, log = proxied
    with httpx.Client(base_url=f"https://{https}", verify=False, timeout=30) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        plain = httpx.get(f"http://{http}/", follow_redirects=False, timeout=30)
        assert plain.status_code == 301
        assert plain.headers["location"].startswith("https://")
        game = client.post("/api/games", json={"variant": "kniffel", "players": ["Anna"]}).json()
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with connect(f"wss://{https}/api/games/{game['id']}/live", ssl=context) as live:
            assert json.loads(live.recv(timeout=30))["version"] == 0
            answer = client.post(
                f"/api/games/{game['id']}/events",
                json={"event": enter("Anna", "chance", "66655")},
                headers={"X-Kniffel-Key": game["key"]},
            )
            assert answer.status_code == 200, answer.text
            assert json.loads(live.recv(timeout=30))["version"] == 1
        assert client.get("/metrics").status_code == 404
        client.get(f"/g/{game['id']}", params={"key": game["key"]})
    for _ in range(100):  # nginx writes the line just after the answer
        logged = log.read_text()
        if f"/g/{game['id']}" in logged:
            break
        time.sleep(0.1)
    assert f"/g/{game['id']}" in logged
    assert game["key"] not in logged
