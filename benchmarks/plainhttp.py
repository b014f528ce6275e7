"""A small HTTP/1.1 client for the benchmarks' drivers: keep-alive connections, no more.

httpx spent about 5 ms of CPU per request in ``benchmarks/live.py`` (docs/benchmarks.md, "Live
updates"), so at 200 tables the driver and the watchers needed more than the core they had and
the figures measured the clients. This client writes the request line and headers itself and
reads an answer with a ``Content-Length`` (or chunked) body. Loopback only; no TLS, no
redirects, no cookies.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Answer", "PlainClient", "PlainHTTPError"]


class PlainHTTPError(Exception):
    """The connection failed or the answer could not be read."""


class Answer:
    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code = status_code
        self.content = content

    def json(self) -> Any:
        return json.loads(self.content)


_Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class PlainClient:
    """Keep-alive connections per host, reused one request at a time."""

    def __init__(self, timeout: float = 60) -> None:
        self.timeout = timeout
        self._idle: dict[tuple[str, int], list[_Connection]] = {}

    async def __aenter__(self) -> PlainClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        for connections in self._idle.values():
            for _, writer in connections:
                writer.close()
        self._idle.clear()

    async def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("GET", url, None, headers)

    async def post(
        self, url: str, *, json: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        return await self.request("POST", url, _dumps(json), headers)

    async def request(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str] | None
    ) -> Answer:
        try:
            return await asyncio.wait_for(self._request(method, url, body, headers), self.timeout)
        except (OSError, EOFError, ValueError, asyncio.IncompleteReadError, TimeoutError) as exc:
            raise PlainHTTPError(f"{method} {url}: {exc!r}") from exc

    async def _request(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str] | None
    ) -> Answer:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        idle = self._idle.setdefault((host, port), [])
        while idle:
            # The server closes a connection that idled past its keep-alive time (uvicorn:
            # 5 s): such a one answers nothing, and the request goes out on a fresh one.
            reader, writer = idle.pop()
            answer = await self._send(reader, writer, idle, method, host, port, path, body, headers)
            if answer is not None:
                return answer
        reader, writer = await asyncio.open_connection(host, port)
        answer = await self._send(reader, writer, idle, method, host, port, path, body, headers)
        if answer is None:
            raise PlainHTTPError(f"{method} {url}: the server closed the connection")
        return answer

    async def _send(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        idle: list[_Connection],
        method: str,
        host: str,
        port: int,
        path: str,
        body: bytes | None,
        headers: dict[str, str] | None,
    ) -> Answer | None:
        try:
            lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}"]
            lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
            if body is not None:
                lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b""))
            status_line = await reader.readline()
            if not status_line:
                writer.close()
                return None
            status = int(status_line.split()[1])
            length, chunked, close = 0, False, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "transfer-encoding":
                    chunked = "chunked" in value.lower()
                elif name == "connection":
                    close = "close" in value.lower()
            content = await (_chunks(reader) if chunked else reader.readexactly(length))
        except BaseException:
            writer.close()
            raise
        if close:
            writer.close()
        else:
            idle.append((reader, writer))
        return Answer(status, content)


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    parts = []
    while size := int((await reader.readline()).split(b";")[0], 16):
        parts.append(await reader.readexactly(size))
        await reader.readline()
    await reader.readline()
    return b"".join(parts)


def _dumps(value: Any) -> bytes | None:
    return None if value is None else json.dumps(value, separators=(",", ":")).encode()
