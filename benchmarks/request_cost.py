"""Server CPU per request, one request kind at a time: where the load test's CPU goes.

Run with ``uv run python benchmarks/request_cost.py [--requests 3000] [--baseline-ref main]``.
It starts ``kniffel serve`` on a free 127.0.0.1 port with a throwaway SQLite file (no table
builds, no background work), makes a two-player Rauf-Runter game with physical dice and asks,
one request after the other on one keep-alive connection, each kind of the mix of
``benchmarks/locustfile.py`` on its own:

- ``state``: ``GET /api/games/ID`` of a kept version (the state's JSON encoded once per version);
- ``preview``: ``GET /api/games/ID/preview?dice=…`` of the game a third in (dice drawn anew);
- ``entry``: ``POST /api/games/ID/events``, entries of drawn dice into the first allowed cell, a
  new game when the sheet is full (its creation and first state not counted);
- ``page``: ``GET /g/ID`` of the game a third in (the board page, no key).

For each it prints the server's CPU per request (``/proc/PID/stat`` before and after) and, for
every thread of the server that used CPU meanwhile, its share: the event loop, and the writer
thread of the entries (Linux names a Python thread by its process's name). ``--baseline-ref
REF`` runs the same against the server of that git ref first (``benchmarks/baseline.py``) and
prints the ratio per kind, side by side in one run. ``--servers uvicorn,granian`` measures each
kind under each server in turn (the order reversed from one kind to the next) and prints the
ratio to the first: granian serves the same app (``benchmarks/serve_granian.py``, installed by
hand). Only loopback is used, and ``--requests`` is capped.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from baseline import checkout, cpu_seconds, describe
from load import HOST, SERVERS, load_average, start_server, stop, wait_until_up

MAX_REQUESTS = 20_000
KINDS = ("state", "preview", "entry", "page")
NEW_GAME = {"variant": "rauf-runter", "players": ["Anna", "Ben"], "dice_mode": "physical"}


class Table:
    """One device's keep-alive connection to the board, playing one game after another."""

    def __init__(self, port: int, seed: int = 1) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)
        self.random = random.Random(seed)
        self.game_id = ""
        self.key = ""
        self.state: dict[str, Any] = {}
        self.new_game()

    def ask(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        headers = {"X-Kniffel-Key": self.key} if self.key else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=data, headers=headers)
        answer = self.connection.getresponse()
        return answer.status, answer.read()

    def new_game(self) -> None:
        self.key = ""
        status, body = self.ask("POST", "/api/games", NEW_GAME)
        if status != 201:
            raise SystemExit(f"the board did not make a game ({status}): {body[:200]!r}")
        made = json.loads(body)
        self.game_id, self.key = made["id"], made["key"]
        self.state = json.loads(self.ask("GET", f"/api/games/{self.game_id}")[1])

    def dice(self) -> list[int]:
        return [self.random.randint(1, 6) for _ in range(5)]

    def enter(self) -> None:
        """One entry of drawn dice into the first allowed cell (a new game first when full)."""
        if self.state["finished"]:
            self.new_game()
        turn = self.state["turn"]
        event = {"type": "enter", "player": turn["player"], "cell": turn["allowed"][0]}
        body = {"event": {**event, "dice": self.dice()}, "expected_version": self.state["version"]}
        status, answer = self.ask("POST", f"/api/games/{self.game_id}/events", body)
        if status != 200:
            raise SystemExit(f"an entry was refused ({status}): {answer[:200]!r}")
        self.state = json.loads(answer)


def threads(pid: int) -> dict[str, tuple[str, float]]:
    """CPU seconds of each thread of ``pid`` so far, by thread id, with its name."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            name = (task / "comm").read_text().strip()
        except OSError:  # the thread ended meanwhile
            continue
        ticks = int(fields[11]) + int(fields[12])
        found[task.name] = (name, ticks / os.sysconf("SC_CLK_TCK"))
    return found


def cost(
    env: dict[str, str], kind: str, requests: int, workdir: Path, server_name: str = "uvicorn"
) -> tuple[float, list[str]]:
    """Microseconds of server CPU per request of ``kind``, and each busy thread's share."""
    url, server = start_server(env, workdir, f"{kind}.db", server_name)
    try:
        wait_until_up(f"{url}/api/games", server)
        table = Table(int(url.rsplit(":", 1)[1]))
        if kind in ("preview", "page"):
            for _ in range(26):  # a third of the sheet filled
                table.enter()
        game = table.game_id
        ask: Callable[[], object] = {
            "state": lambda: table.ask("GET", f"/api/games/{game}"),
            "preview": lambda: table.ask(
                "GET", f"/api/games/{game}/preview?dice={''.join(map(str, table.dice()))}"
            ),
            "entry": table.enter,
            "page": lambda: table.ask("GET", f"/g/{game}"),
        }[kind]
        for _ in range(min(200, requests)):  # warm: imports, caches, the first page's templates
            ask()
        before, threads_before = cpu_seconds(server.pid), threads(server.pid)
        for _ in range(requests):
            ask()
        used = cpu_seconds(server.pid) - before
        shares = []
        for tid, (name, seconds) in threads(server.pid).items():
            spent = seconds - threads_before.get(tid, (name, 0.0))[1]
            if spent > 0:
                role = "event loop" if tid == str(server.pid) else f"thread {name}"
                shares.append(f"{role} {1e6 * spent / requests:.0f}")
        table.connection.close()
    finally:
        stop(server)
    return 1e6 * used / requests, shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help=f"per kind (1..{MAX_REQUESTS})")
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated")
    parser.add_argument("--baseline-ref", help="a git ref whose server runs the same first")
    parser.add_argument(
        "--servers",
        default="uvicorn",
        help=f"this checkout served by each in turn, comma-separated ({', '.join(SERVERS)})",
    )
    args = parser.parse_args()
    servers = [s for s in args.servers.split(",") if s]
    if not servers or set(servers) - set(SERVERS):
        parser.error(f"--servers names {', '.join(SERVERS)}")
    requests = max(1, min(MAX_REQUESTS, args.requests))
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise SystemExit(f"unknown kinds {sorted(unknown)}; the kinds are {', '.join(KINDS)}")
    print(f"at the start: {load_average()}")
    print(f"{requests} requests per kind on one keep-alive connection; server CPU per request, µs")
    with tempfile.TemporaryDirectory(prefix="kniffel-cost-") as tmp:
        for number, kind in enumerate(kinds):
            figures = []
            if args.baseline_ref:
                with checkout(args.baseline_ref) as env:
                    base, shares = cost(env, kind, requests, Path(tmp) / "base")
                figures.append(base)
                print(
                    f"{kind:8} {describe(args.baseline_ref):>24} {base:8.0f}  ({', '.join(shares)})"
                )
            measured = {}
            for name in servers if number % 2 == 0 else servers[::-1]:
                measured[name] = cost(dict(os.environ), kind, requests, Path(tmp) / name, name)
            first = figures[0] if figures else measured[servers[0]][0]
            for name, (here, shares) in measured.items():
                ratio = f"  ×{here / first:.2f}" if figures or name != servers[0] else ""
                label = "this checkout" + ("" if servers == ["uvicorn"] else f", {name}")
                print(f"{kind:8} {label:>24} {here:8.0f}{ratio}  ({', '.join(shares)})")
    print(f"at the end: {load_average()}")


if __name__ == "__main__":
    main()
