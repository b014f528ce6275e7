"""The board's edges served for real (issue 21): socket messages within a limit, headers in
time, the key cookie ``Secure`` behind TLS, the Origin's scheme.

uvicorn runs with the options of ``kniffel serve`` (:func:`kniffel.web.serving.uvicorn_options`).
Waits are generous deadlines on events, never timing assertions.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from kniffel.settings import Settings
from kniffel.web.app import create_app

from .served import Server, next_message

#: RFC 6455: "message too big".
TOO_BIG_CLOSE_CODE = 1009


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path: Path = tmp_path_factory.mktemp("edges") / "kniffel.db"
    # A short header deadline, so that the test of it waits seconds, not the default's ten.
    with Server(f"sqlite:///{path}", header_timeout=1.0) as running:
        yield running


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes the connection within a generous minute (no answer)."""
    sock.settimeout(60)
    try:
        while chunk := sock.recv(4096):
            if chunk:
                return False  # an answer: the request was taken as whole
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_live_socket_message_larger_than_the_limit_closes_the_socket(server: Server) -> None:
    game = server.new_game()
    with server.watch(game["id"]) as phone:
        assert next_message(phone) == {"type": "state", "version": 0}
        phone.send("?")  # the client's "am I up to date?" is answered
        assert next_message(phone) == {"type": "state", "version": 0}
        phone.send("x" * (1024 * 1024))  # uvicorn's default took 16 MiB
        with pytest.raises(ConnectionClosed) as closed:
            next_message(phone, timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == TOO_BIG_CLOSE_CODE
    # The board goes on serving.
    assert server.http.get("/healthz").status_code == 200


def test_the_app_closes_a_socket_that_sends_too_much_whoever_serves_it(db_url: str) -> None:
    with TestClient(create_app(Settings(db=db_url, max_ws_message=100))) as client:
        game = client.post("/api/games", json={"variant": "kniffel", "players": ["A"]}).json()
        with client.websocket_connect(f"/api/games/{game['id']}/live") as socket_:
            assert socket_.receive_json() == {"type": "state", "version": 0}
            socket_.send_text("y" * 100)
            assert socket_.receive_json() == {"type": "state", "version": 0}
            socket_.send_bytes(b"z" * 101)
            with pytest.raises(WebSocketDisconnect) as closed:
                socket_.receive_json()
    assert closed.value.code == TOO_BIG_CLOSE_CODE


def test_a_half_sent_request_is_closed_after_the_header_deadline(server: Server) -> None:
    address = ("127.0.0.1", int(server.ws_base.rsplit(":", 1)[1]))
    with socket.create_connection(address, timeout=10) as half:
        half.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert _closed_by_server(half)
    with socket.create_connection(address, timeout=10) as silent:
        assert _closed_by_server(silent)  # a connection that never sends a byte
    # A kept-alive connection: its first request is answered, a half second one is closed.
    with socket.create_connection(address, timeout=10) as kept:
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        kept.settimeout(30)
        first = b""
        while b'{"status":"ok"}' not in first:
            chunk = kept.recv(4096)
            assert chunk, "the first request was not answered"
            first += chunk
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _closed_by_server(kept)
    # Whole requests are served as before.
    assert server.http.get("/healthz").status_code == 200


def test_the_key_cookie_is_secure_behind_a_proxy_that_speaks_tls(server: Server) -> None:
    # uvicorn trusts X-Forwarded-Proto from FORWARDED_ALLOW_IPS (default 127.0.0.1, this test).
    created = server.http.post(
        "/games",
        data={"player": ["Anna", "Ben"]},
        headers={"X-Forwarded-Proto": "https"},
        follow_redirects=False,
    )
    assert created.status_code == 303, created.text
    cookie = created.headers["set-cookie"].lower()
    assert "kniffel_key=" in cookie and "; secure" in cookie
    plain = server.http.post("/games", data={"player": ["Anna"]}, follow_redirects=False)
    assert plain.status_code == 303 and "secure" not in plain.headers["set-cookie"].lower()


def test_a_form_post_from_the_board_host_under_another_scheme_is_refused(
    client: TestClient,
) -> None:
    def post(origin: str) -> int:
        return client.post(
            "/games", data={"player": ["Anna"]}, headers={"Origin": origin}, follow_redirects=False
        ).status_code

    assert post("http://testserver") == 303
    assert post("https://testserver") == 403  # the board here speaks http
    assert post("http://testserver:443") == 403


def test_behind_a_public_https_address_its_origin_is_the_boards_own(tmp_path: Path) -> None:
    settings = Settings(db=f"sqlite:///{tmp_path / 'k.db'}", public_url="https://tafel.example")
    with TestClient(create_app(settings)) as client:

        def post(origin: str) -> int:
            return client.post(
                "/games", data={"player": ["A"]}, headers={"Origin": origin}, follow_redirects=False
            ).status_code

        assert post("https://tafel.example") == 303
        assert post("http://tafel.example") == 403
        assert post("https://other.example") == 403


def _slow_body(address: tuple[str, int]) -> socket.socket:
    """A POST that announces a 1 MB body and sends one byte of it (issue 33, item 2)."""
    sock = socket.create_connection(address, timeout=10)
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000000\r\n\r\n{"
    )
    return sock


def test_a_body_that_does_not_arrive_in_time_is_cut_with_408(tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'k.db'}", body_timeout=1.0) as running:
        address = ("127.0.0.1", int(running.ws_base.rsplit(":", 1)[1]))
        with _slow_body(address) as slow:
            slow.settimeout(60)
            answer = b""
            while chunk := slow.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert b'"code":"request_timeout"' in answer
        # The cut answer is the board's like any other: its security headers too.
        head = answer.split(b"\r\n\r\n", 1)[0].lower()
        assert b"\r\nx-content-type-options: nosniff" in head
        assert b"\r\ncontent-security-policy: " in head
        assert running.http.get("/api/games").json() == []  # nothing stored


def test_a_slow_body_holds_no_turn_of_the_gate(tmp_path: Path) -> None:
    # One turn, never given back early: a stalled body that held it would hold every read.
    with Server(f"sqlite:///{tmp_path / 'k.db'}", max_active=1, body_timeout=60) as running:
        running.app.state.turns.long_after = 3600
        address = ("127.0.0.1", int(running.ws_base.rsplit(":", 1)[1]))
        stalled = [_slow_body(address) for _ in range(3)]
        try:
            # The bodies' bytes are on their way (or in): none of them took a turn.
            for _ in range(3):
                assert running.http.get("/api/players").status_code == 200
            game = running.new_game()  # a whole change goes through beside them
            assert running.state(game)["version"] == 0
        finally:
            for sock in stalled:
                sock.close()


def test_the_header_deadline_stands_in_front_of_uvicorn_and_subclasses_none_of_it() -> None:
    # Issue 34: no subclass of a server's internals; the deadline is an asyncio protocol that
    # hands each call on to the protocol uvicorn's "auto" setting names.
    from kniffel.web.serving import HeaderDeadline

    assert not [c for c in HeaderDeadline.__mro__ if c.__module__.startswith("uvicorn")]


def test_after_a_request_with_a_body_a_half_sent_next_one_is_closed(server: Server) -> None:
    address = ("127.0.0.1", int(server.ws_base.rsplit(":", 1)[1]))
    body = b'{"variant": "kniffel", "players": ["Ann"]}'
    with socket.create_connection(address, timeout=10) as kept:
        kept.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        kept.settimeout(30)
        first = b""
        while b'"key"' not in first:
            chunk = kept.recv(4096)
            assert chunk, "the first request was not answered"
            first += chunk
        assert first.startswith(b"HTTP/1.1 201 ")
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _closed_by_server(kept)
