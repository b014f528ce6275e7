"""Live updates over a WebSocket: ``/api/games/{id}/live``.

Listening needs no key. On connect the socket sends ``{"type": "state",
"version": N}`` with the stored version, then the same message after every
stored change. A client refetches the game when the version is newer than
the one it shows, so a device that was offline catches up with the first
message after it reconnects. When a Revanche of the game is started, the socket
sends ``{"type": "revanche", "game": ID, "url": "/g/OLD/revanche"}``: the page
goes to that address, which takes it to the new game (and hands a device that
holds the old game's key the new one's; docs/board.md, "Revanche"); a socket
that connects to a finished game after its Revanche started gets the same
message after the first (the page follows it only if drawn before). When the solver
tables a game's Tipp waited for are built, the socket sends ``{"type": "tables"}``: a
Tipp panel that says they are being built asks again at once (docs/board.md, "Tipp"). Any
message the client sends is answered with the current version (a cheap "am I
up to date?"); a message larger than ``KNIFFEL_MAX_WS_MESSAGE`` (default 4 KiB)
closes the socket with 1009 (uvicorn refuses it first when it serves the board,
:mod:`kniffel.web.serving`).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.types import Message

from kniffel.board.errors import GameNotFound
from kniffel.board.hub import TABLES, Hub, LocalHub, Subscription
from kniffel.board.service import GameService

__all__ = ["NOT_FOUND_CLOSE_CODE", "TOO_BIG_CLOSE_CODE", "Hub", "LocalHub", "router"]

router = APIRouter()

#: Close code for a game that does not exist (4000-4999 are the application's).
NOT_FOUND_CLOSE_CODE = 4404
#: Close code for a message larger than the limit (RFC 6455: "message too big").
TOO_BIG_CLOSE_CODE = 1009


def _message(version: int) -> dict[str, object]:
    return {"type": "state", "version": version}


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str) -> None:
    service: GameService = websocket.app.state.service
    hub: Hub = websocket.app.state.hub
    # Subscribe before reading the version, so no change can fall in between.
    async with hub.subscribe(game_id) as subscription:
        try:
            version = await run_in_threadpool(service.version, game_id)
        except GameNotFound as exc:
            await websocket.accept()
            await websocket.close(code=NOT_FOUND_CLOSE_CODE, reason=str(exc)[:120])
            return
        await websocket.accept()
        subscription.mark_seen(version)
        sender = _Sender(websocket)
        await sender.send(version)
        revanche = await _revanche_made(service, game_id, version)
        if revanche is not None:
            await sender.send_revanche(game_id, revanche)
        limit: int = websocket.app.state.settings.max_ws_message
        with contextlib.suppress(WebSocketDisconnect):
            await _forward(websocket, service, subscription, limit, sender)


async def _revanche_made(service: GameService, game_id: str, version: int) -> str | None:
    """The Revanche of a finished game, for a socket that connects after it was started (a
    device whose connection dropped meanwhile; a page drawn after it shows its link and stays,
    docs/board.md). Asked only of a game the replay cache holds as finished: a game being
    played, the most connects, costs nothing more."""
    cached = service.replays.get(game_id, version)
    if cached is None or not cached.game.is_finished:
        return None
    return await run_in_threadpool(service.revanche_of, game_id)


def _size(message: Message) -> int:
    text = message.get("text")
    if text is not None:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(message.get("bytes") or b"")


class _Sender:
    """One socket's messages, one at a time; a version never goes backwards (the answer to the
    client's question, read from the store, may be older than the hub's news sent meanwhile)."""

    def __init__(self, websocket: WebSocket) -> None:
        self._websocket = websocket
        self._lock = asyncio.Lock()
        self._sent = -1

    async def send(self, version: int) -> None:
        async with self._lock:
            self._sent = max(self._sent, version)
            await self._websocket.send_json(_message(self._sent))

    async def send_tables(self) -> None:
        async with self._lock:
            await self._websocket.send_json({"type": "tables"})

    async def send_revanche(self, game_id: str, revanche: str) -> None:
        async with self._lock:
            await self._websocket.send_json(
                {"type": "revanche", "game": revanche, "url": f"/g/{game_id}/revanche"}
            )


async def _forward(
    websocket: WebSocket,
    service: GameService,
    subscription: Subscription,
    limit: int,
    sender: _Sender,
) -> None:
    """Send every newer version until the client goes away (or sends too much)."""
    teller = asyncio.ensure_future(_tell(subscription, sender))
    incoming = asyncio.ensure_future(websocket.receive())
    try:
        while True:
            done, _ = await asyncio.wait({incoming, teller}, return_when=asyncio.FIRST_COMPLETED)
            if teller in done:
                teller.result()  # the socket went away while a version was sent
                return
            if incoming.result()["type"] == "websocket.disconnect":
                return
            if _size(incoming.result()) > limit:
                await websocket.close(code=TOO_BIG_CLOSE_CODE, reason="message too big")
                return
            version = await run_in_threadpool(service.version, subscription.game_id)
            subscription.mark_seen(version)
            await sender.send(version)
            incoming = asyncio.ensure_future(websocket.receive())
    finally:
        incoming.cancel()
        teller.cancel()


async def _tell(subscription: Subscription, sender: _Sender) -> None:
    """Send each new version the moment the hub hands it over.

    This task waits on the subscription itself, so the hub's hand-over wakes it first: its
    message goes out before the change's own request goes on to draw its answer on the same
    loop (a whole board; on a busy machine the other phones waited that long, issue 19).
    Waiting through a task of its own and ``asyncio.wait`` took two more turns of the loop,
    and the drawing came first.
    """
    while True:
        news = await subscription.next_news()
        if news is TABLES:
            await sender.send_tables()
        elif isinstance(news, str):
            await sender.send_revanche(subscription.game_id, news)
        else:
            await sender.send(news)
