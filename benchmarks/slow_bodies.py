"""Slow request bodies against the board: reads' and entries' latency while N clients stall.

Run with ``uv run python benchmarks/slow_bodies.py [--clients 50] [--seconds 15]``. It starts
``kniffel serve`` on a free 127.0.0.1 port with a throwaway SQLite file, opens ``--clients``
connections that each announce ``POST /api/games`` with ``Content-Length: 1000000`` and send one
byte (the attack of issue 33, item 2), and meanwhile one reader asks ``GET /api/players`` and one
device enters a score and takes it back (``POST /api/games/{id}/events``), one request after the
other, for ``--seconds``. It prints the p50/p99 of the reads and the entries during the attack,
how the stalled clients were answered (408 after ``KNIFFEL_BODY_TIMEOUT``, default 10 s), and the
same figures with no attack beside them. ``--body-timeout`` sets the server's deadline.

Bounded: at most 5,000 clients and 120 seconds, the address always 127.0.0.1; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load import free_port, stop, wait_until_up
from plainhttp import PlainClient, PlainHTTPError

HOST = "127.0.0.1"
MAX_CLIENTS = 5_000
MAX_SECONDS = 120
HEAD = (
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000000\r\n\r\n{"
)


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _stall(port: int, until: float, answers: dict[str, int]) -> None:
    """One slow client: the head and one byte of its body, then nothing until answered."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError:
        answers["refused"] = answers.get("refused", 0) + 1
        return
    try:
        writer.write(HEAD)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), max(0.1, until - time.monotonic()))
        status = line.split(b" ")[1].decode() if line.count(b" ") >= 2 else "closed"
        answers[status] = answers.get(status, 0) + 1
    except (TimeoutError, OSError):
        answers["still waiting"] = answers.get("still waiting", 0) + 1
    finally:
        writer.close()


async def _measure(base: str, until: float) -> tuple[list[float], list[float], int]:
    """Reads and entries one after the other until ``until``: their latencies in ms, and the
    requests that failed."""
    reads: list[float] = []
    entries: list[float] = []
    failed = 0
    async with PlainClient(timeout=30) as client:
        body = {"variant": "kniffel", "players": ["Anna", "Ben"]}
        game = (await client.post(f"{base}/api/games", json=body)).json()
        key = {"X-Kniffel-Key": game["key"]}
        events = [
            {"type": "enter", "player": "Anna", "cell": "main.chance", "dice": [6, 6, 5, 4, 3]},
            {"type": "undo"},
        ]
        turn = 0
        while time.monotonic() < until:
            for kind, times in (("read", reads), ("entry", entries)):
                start = time.perf_counter()
                try:
                    if kind == "read":
                        answer = await client.get(f"{base}/api/players")
                    else:
                        event = {"event": events[turn % 2]}
                        answer = await client.post(
                            f"{base}/api/games/{game['id']}/events", json=event, headers=key
                        )
                        turn += 1
                except PlainHTTPError:
                    failed += 1
                    continue
                if answer.status_code >= 400:
                    failed += 1
                times.append(1000 * (time.perf_counter() - start))
    return reads, entries, failed


async def _run(port: int, clients: int, seconds: float) -> None:
    base = f"http://{HOST}:{port}"
    quiet = await _measure(base, time.monotonic() + min(5.0, seconds))
    until = time.monotonic() + seconds
    answers: dict[str, int] = {}
    stalls = []
    for i in range(clients):  # opened in batches, so that the listen queue keeps up
        stalls.append(asyncio.create_task(_stall(port, until, answers)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    attacked = await _measure(base, until)
    await asyncio.gather(*stalls)
    print(f"{'':24} {'requests':>9} {'p50 ms':>9} {'p99 ms':>9} {'failed':>7}")
    for label, (reads, entries, failed) in (("quiet", quiet), (f"{clients} slow bodies", attacked)):
        for kind, times in (("reads", reads), ("entries", entries)):
            print(
                f"{label + ' ' + kind:24} {len(times):9d} {_percentile(times, 0.5):9.1f} "
                f"{_percentile(times, 0.99):9.1f} {failed:7d}"
            )
    shown = ", ".join(f"{status}: {n}" for status, n in sorted(answers.items()))
    print(f"slow clients answered: {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--body-timeout", type=float, default=10.0)
    args = parser.parse_args()
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * clients + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))  # the server inherits it
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="kniffel-slow-") as folder:
        env = {
            **os.environ,
            "KNIFFEL_DB": f"sqlite:///{Path(folder) / 'k.db'}",
            "KNIFFEL_CACHE_DIR": str(Path(folder) / "cache"),
            "KNIFFEL_PREBUILD_TABLES": "0",
            "KNIFFEL_BACKGROUND": "0",
            "KNIFFEL_BODY_TIMEOUT": str(args.body_timeout),
        }
        serve = [sys.executable, "-m", "kniffel", "serve", "--host", HOST, "--port", str(port)]
        server = subprocess.Popen(
            serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_until_up(f"http://{HOST}:{port}/healthz", server)
            asyncio.run(_run(port, clients, seconds))
        finally:
            stop(server)


if __name__ == "__main__":
    main()
