"""The request body limit: 413 with the usual error JSON on every path, chunked bodies counted as
they arrive (issue 9, finding 1: a 300 MB record was accepted)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi.testclient import TestClient

from kniffel.settings import Settings
from kniffel.web.app import create_app

MIB = 1024 * 1024
CHUNK = 64 * 1024


class Stream:
    """A body of ``total`` bytes made on demand (never held whole), counting what was read."""

    def __init__(self, total: int, head: bytes = b"") -> None:
        self.total = total
        self.head = head
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self.head:
            self.sent += len(self.head)
            yield self.head
        chunk = b"x" * CHUNK
        while self.sent < self.total:
            # A server without a limit would read on: stop the test here, not at 300 MB.
            assert self.sent <= 4 * MIB, "the body was read far beyond the limit"
            self.sent += CHUNK
            yield chunk


async def _post_stream(
    db_url: str,
    path: str,
    body: Stream,
    limit: int | None = None,
    content_type: str = "application/json",
) -> httpx.Response:
    settings = Settings(db=db_url) if limit is None else Settings(db=db_url, max_body=limit)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        # httpx's ASGI transport hands the body to the app chunk by chunk, as a server does.
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post(path, content=body, headers={"Content-Type": content_type})


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/records", "application/json"),
        ("/api/games", "application/json"),
        ("/games", "application/x-www-form-urlencoded"),
        ("/import", "multipart/form-data; boundary=x"),
        ("/nowhere", "application/json"),
    ],
)
def test_a_300_mb_chunked_body_is_refused_after_the_first_mebibyte(
    db_url: str, path: str, content_type: str
) -> None:
    head = b""
    if content_type.startswith("multipart"):
        head = b'--x\r\nContent-Disposition: form-data; name="record"; filename="r.json"\r\n\r\n'
    body = Stream(300 * 1000 * 1000, head)
    answer = asyncio.run(_post_stream(db_url, path, body, content_type=content_type))
    if path == "/nowhere" and answer.status_code == 404:
        # Nothing reads the body of a path that does not exist: it is not taken in either.
        assert body.sent <= MIB + CHUNK
        return
    assert answer.status_code == 413
    assert "1,048,576 bytes" in answer.json()["detail"]
    assert body.sent <= MIB + CHUNK  # read no further than the limit


def test_an_announced_large_body_is_refused_before_it_is_read(client: TestClient) -> None:
    answer = client.post(
        "/api/records",
        content=b"{}",
        headers={"Content-Type": "application/json", "Content-Length": str(300 * 1000 * 1000)},
    )
    assert answer.status_code == 413
    line = "the request body is larger than the limit of 1,048,576 bytes; nothing was stored"
    assert answer.json() == {
        "code": "body_too_large",
        "params": {"max": 1048576},
        "message": line,
        "detail": line,
    }
    assert client.get("/api/games").json() == []


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    answer = client.post(
        "/api/records",
        content=b" " * (MIB - 2) + b"{}",
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 422  # read, parsed, refused for what it says


def test_the_limit_is_a_setting(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KNIFFEL_MAX_BODY", "2000")
    assert Settings(db=db_url).max_body == 2000
    body = Stream(10 * CHUNK)
    answer = asyncio.run(_post_stream(db_url, "/api/records", body, limit=2000))
    assert answer.status_code == 413 and "2,000 bytes" in answer.json()["detail"]
    assert body.sent == CHUNK
    with TestClient(create_app(Settings(db=db_url, max_body=2000))) as client:
        record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna"]}
        record["events"] = []
        assert client.post("/api/records", json=record).status_code == 201
        assert client.post("/api/records", json={**record, "x": "y" * 3000}).status_code == 413
