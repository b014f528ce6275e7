"""CPU per request after a keyless attack: what one visitor's data makes every read cost.

Run with ``uv run python benchmarks/cost.py [--baseline PATH] [--players 1000] [--rules 20]
[--requests 10] [--seconds 20] [--chart]``. For this checkout (and, with ``--baseline``, for another
checkout with its own ``.venv``, e.g. ``git worktree add /tmp/main-c5 c5fda87`` and ``uv sync``
there) it starts ``kniffel serve`` on loopback with a throwaway SQLite file and cache
directory (the presets' tables linked in from the user cache when they are there; no
background work, no prebuild), then, without any key but those of the games it creates:

- imports ``--players / 8`` finished eight-player games (new names each),
- creates ``--rules`` games with house rules of their own (a Kniffel bonus each) and asks for
  each one's advice with its key: the table builds anybody can queue (counted: queued 202,
  refused 503),

and then measures each route: one request not counted (the first of a route imports modules
and fills templates), then ``--requests`` requests one after the other (fewer when a route
has taken ``--seconds``), the server process's CPU time (user + system, from
``/proc/PID/stat``) divided by the requests. "distinct" routes ask for a different game
each time (nothing kept helps). The figures are CPU milliseconds per request; the server's
table-build children are not counted (they run at a lower priority, one at a time).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import platformdirs

from kniffel.board.players.sample import random_record

HERE = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of process ``pid`` (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    client: httpx.Client

    @property
    def pid(self) -> int:
        return self.process.pid


def start(tree: Path, folder: Path) -> Server:
    """``kniffel serve`` of ``tree`` on a free loopback port, its own database and cache."""
    cache = folder / "cache"
    cache.mkdir(parents=True)
    user_cache = Path(platformdirs.user_cache_dir("kniffel"))
    for table in (*user_cache.glob("column-*.npz"), *user_cache.glob("arrows-*.npz")):
        if "bonus0-joker_free" in table.name or table.name.startswith("arrows-"):
            (cache / table.name).symlink_to(table)
    port = free_port()
    env = {
        **os.environ,
        "KNIFFEL_CACHE_DIR": str(cache),
        "KNIFFEL_BACKGROUND": "false",
        "KNIFFEL_PREBUILD_TABLES": "false",
    }
    process = subprocess.Popen(
        [
            str(tree / ".venv" / "bin" / "kniffel"),
            "serve",
            "--db",
            f"sqlite:///{folder / 'kniffel.db'}",
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600)
    for _ in range(600):
        try:
            if client.get("/healthz").status_code < 500:
                break
        except httpx.TransportError:
            time.sleep(0.2)
    else:
        process.kill()
        raise SystemExit(f"the server of {tree} did not start")
    return Server(process, client)


def attack(client: httpx.Client, players: int, rules: int) -> dict[str, Any]:
    """The keyless attack: imports of eight-player games, then house-rule table builds (with
    ``rules`` 0 none, and no house-rule game to measure: asking it would start a build)."""
    draw = random.Random(21)
    games = []
    for g in range(players // 8):
        names = [f"Gast {g:03d}-{s}" for s in range(8)]
        answer = client.post("/api/records", json=random_record("kniffel", names, draw))
        answer.raise_for_status()
        games.append(answer.json()["id"])
    asked: dict[int, int] = {}
    ruled = None
    for r in range(rules):
        body = {"variant": "kniffel", "players": ["Anna"], "options": {"kniffel_bonus": 300 + r}}
        ruled = client.post("/api/games", json=body).json()
        status = client.get(
            f"/api/games/{ruled['id']}/advice", headers={"X-Kniffel-Key": ruled["key"]}
        ).status_code
        asked[status] = asked.get(status, 0) + 1
    plain = client.post("/api/games", json={"variant": "kniffel", "players": ["Anna", "Ben"]})
    return {"games": games, "asked": asked, "plain": plain.json(), "ruled": ruled}


def measure(
    server: Server, request: Callable[[int], httpx.Response], requests: int, seconds: float
) -> tuple[float, int, int]:
    """CPU milliseconds per request, the requests made and the last status (after one request
    not counted: the first of a route imports its modules and fills its templates)."""
    request(0)
    before = cpu_seconds(server.pid)
    began = time.monotonic()
    done = 0
    status = 0
    while done < requests and (done == 0 or time.monotonic() - began < seconds):
        status = request(done + 1).status_code
        done += 1
    return (cpu_seconds(server.pid) - before) * 1000 / done, done, status


Request = Callable[[int], httpx.Response]


def routes(client: httpx.Client, made: dict[str, Any]) -> dict[str, Request]:
    """Each route measured, by name: a request given its number (0 for the one not counted)."""
    get = client.get
    games: list[str] = made["games"]
    one = games[0]
    plain, ruled = made["plain"], made["ruled"]
    rows = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind"]
    rows += ["full_house", "small_straight", "large_straight", "kniffel", "chance"]
    turns = iter([(player, row) for row in rows for player in ("Anna", "Ben")])

    def entry(_: int) -> httpx.Response:
        player, cell = next(turns)
        return client.post(
            f"/api/games/{plain['id']}/events",
            json={"event": {"type": "enter", "player": player, "cell": cell, "points": 0}},
            headers={"X-Kniffel-Key": plain["key"]},
        )

    measured: dict[str, Request] = {
        "GET /export/spieler.csv": lambda _: get("/export/spieler.csv"),
        "GET /export/spiele.csv": lambda _: get("/export/spiele.csv"),
        "GET /spieler": lambda _: get("/spieler"),
        "GET /spieler/NAME": lambda i: get(f"/spieler/gast {i:03d}-0"),
        "GET /spieler/NAME/verteilung.svg (distinct players)": lambda i: get(
            f"/spieler/gast {i:03d}-1/verteilung.svg"
        ),
        "GET /spieler/NAME/punkte.svg (distinct players)": lambda i: get(
            f"/spieler/gast {i:03d}-2/punkte.svg"
        ),
        "GET /": lambda _: get("/"),
        "GET /api/games": lambda _: get("/api/games"),
        "GET /g/ID": lambda _: get(f"/g/{one}"),
        "GET /api/games/ID": lambda _: get(f"/api/games/{one}"),
        "GET /g/ID/chart.svg (one game)": lambda _: get(f"/g/{one}/chart.svg"),
        "GET /g/ID/chart.svg (distinct games)": lambda i: get(
            f"/g/{games[-1 - i % len(games)]}/chart.svg"
        ),
        "GET /g/ID/chancen.svg (one game)": lambda _: get(f"/g/{one}/chancen.svg"),
        "GET /g/ID/chancen.svg (distinct games)": lambda i: get(
            f"/g/{games[(len(games) // 2 + i) % len(games)]}/chancen.svg"
        ),
        "GET /api/games/ID/advice (plain, no key)": lambda _: get(
            f"/api/games/{plain['id']}/advice"
        ),
        "POST /api/games/ID/events (entry)": entry,
    }
    if ruled is not None:
        measured["GET /api/games/ID/advice (house rules, key)"] = lambda _: get(
            f"/api/games/{ruled['id']}/advice", headers={"X-Kniffel-Key": ruled["key"]}
        )
    return measured


def chart_cost(server: Server) -> str:
    """The end chart of a new two-player Rauf-Runter game (imported, nobody asked for it
    before, nothing else queued): how long its request took and with what status, and the
    CPU until the chart is there (asked again every half second, as the end screen does; the
    work of a chart drawn off the request counts here)."""
    record = random_record("rauf-runter", ["Anna", "Ben"], random.Random(22))
    answer = server.client.post("/api/records", json=record)
    answer.raise_for_status()
    game = answer.json()["id"]
    before = cpu_seconds(server.pid)
    began = time.monotonic()
    first = server.client.get(f"/g/{game}/chancen.svg")
    answered = time.monotonic() - began
    status = first.status_code
    while status in (202, 503) and time.monotonic() - began < 900:
        time.sleep(0.5)
        status = server.client.get(f"/g/{game}/chancen.svg").status_code
    drawn = time.monotonic() - began
    spent = cpu_seconds(server.pid) - before
    return (
        f"first chancen.svg request answered {first.status_code} in {answered * 1000:,.0f} ms; "
        f"chart there ({status}) after {drawn:,.1f} s, {spent:,.1f} CPU-s in the server"
    )


def run(tree: Path, args: argparse.Namespace) -> tuple[dict[str, tuple[float, int, int]], str]:
    folder = Path(tempfile.mkdtemp(prefix="kniffel-cost-"))
    server = start(tree, folder)
    try:
        before = cpu_seconds(server.pid)
        made = attack(server.client, args.players, args.rules)
        spent = cpu_seconds(server.pid) - before
        asked = ", ".join(f"{n}× {status}" for status, n in sorted(made["asked"].items()))
        note = (
            f"{len(made['games'])} imports ({spent:.1f} CPU-s in the server with the "
            f"{args.rules} house-rule requests); house-rule advice answered {asked}"
        )
        if args.chart:  # first: nothing else is queued
            note += "; " + chart_cost(server)
        figures = {
            name: measure(server, request, args.requests, args.seconds)
            for name, request in routes(server.client, made).items()
        }
    finally:
        server.process.terminate()
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    return figures, note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (with its .venv)")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rules", type=int, default=20)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--chart",
        action="store_true",
        help="also time the end chart of a new two-player Rauf-Runter game, until it is drawn",
    )
    args = parser.parse_args()
    if not 8 <= args.players <= 4000 or not 0 <= args.rules <= 50:
        parser.error("--players 8 to 4000, --rules 0 to 50")
    trees = {"this": HERE}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    results = {}
    for label, tree in trees.items():
        print(f"{label}: {tree}", file=sys.stderr, flush=True)
        results[label] = run(tree, args)
        print(f"{label}: {results[label][1]}", flush=True)
    names = list(next(iter(results.values()))[0])
    header = "| route | " + " | ".join(f"{label} CPU-ms (n)" for label in results) + " |"
    print(header)
    print("| --- |" + " ---: |" * len(results))
    for name in names:
        cells = []
        for figures, _ in results.values():
            ms, n, status = figures[name]
            cells.append(f"{ms:,.1f} ({n}, {status})")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
