"""The board served for real: uvicorn in a thread on a free 127.0.0.1 port (HTTP, WebSockets).

Waits are generous deadlines on events, never timing assertions.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from kniffel.settings import Settings
from kniffel.web.app import create_app
from kniffel.web.serving import uvicorn_options

__all__ = ["Server", "next_message"]


class Server:
    """The board served by uvicorn in a thread on a free 127.0.0.1 port."""

    def __init__(self, db_url: str, **settings: Any) -> None:
        chosen = Settings(db=db_url, host="127.0.0.1", port=0, **settings)
        self.app = create_app(chosen)
        # The options `kniffel serve` runs with (its limits at the edge).
        config = uvicorn.Config(self.app, log_level="warning", **uvicorn_options(chosen))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        self.ws_base = f"ws://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def watch(self, game_id: str) -> ClientConnection:
        return connect(f"{self.ws_base}/api/games/{game_id}/live", open_timeout=10)

    def new_game(self, **fields: Any) -> dict[str, Any]:
        body = {"variant": "rauf-runter", "players": ["Anna", "Ben"], **fields}
        response = self.http.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def post(self, game: dict[str, Any], event: dict[str, Any], **body: Any) -> httpx.Response:
        """POST one event with the game's key (``expected_version=`` and the like in ``body``)."""
        return self.http.post(
            f"/api/games/{game['id']}/events",
            json={"event": event, **body},
            headers={"X-Kniffel-Key": game["key"]},
        )

    def send(self, game: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        response = self.post(game, event)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def state(self, game: dict[str, Any]) -> dict[str, Any]:
        response = self.http.get(f"/api/games/{game['id']}")
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result


def next_message(ws: ClientConnection, timeout: float = 15.0) -> dict[str, Any]:
    """The next live message; a generous timeout makes a lost message fail, not hang."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message
