"""What the board's app alone costs per request of the load mix: the floor under any server.

Run with ``uv run python benchmarks/app_floor.py [--turns 3000] [--rounds 2] [--baseline-ref
REF]``. It plays the turns of ``benchmarks/locustfile.py`` (a two-player Rauf-Runter game with
physical dice: the state, the preview of thrown dice, the entry, now and then an undo or the
board page, a new game when the sheet is full) by calling the ASGI app of ``create_app`` directly,
in one process with a throwaway SQLite file and cache: no sockets, no HTTP server, no access log.
It prints, per kind of request, the event loop thread's CPU microseconds per request, then for the
whole mix the loop's and the store's writer thread's CPU per request (``/proc/self/task``) and
the requests per CPU-second that the app alone would allow.

``benchmarks/load.py`` measures the same mix served by ``kniffel serve``; the difference between
its CPU per request and this floor is what the HTTP server, asyncio's sockets and the kernel's
loopback cost (docs/benchmarks.md, "The app's own floor"). ``--baseline-ref`` runs the same
turns (the same dice: ``--seed``) on another git ref, alternating round by round with this
checkout (``benchmarks/baseline.py``), and prints the ratio. Figures are CPU time, but a busy
machine still moves them (caches, frequency): the load average is printed with them.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from baseline import checkout, describe
from load import load_average
from request_cost import threads

HERE = Path(__file__).resolve()
LOCUSTFILE = HERE.with_name("locustfile.py")
MAX_TURNS = 20_000
MAX_ROUNDS = 6
#: The request kinds in the order printed.
KINDS = ("state", "preview", "enter", "undo", "page", "create")
WRITER = "kniffel-writer"
JSON_TYPE = [(b"content-type", b"application/json")]


def locust_chances() -> tuple[float, float]:
    """The undo and page chances of a locust turn, read from the locustfile without importing
    it (importing locust patches the standard library for gevent)."""
    found: dict[str, float] = {}
    for node in ast.parse(LOCUSTFILE.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("UNDO_CHANCE", "PAGE_CHANCE"):
                found[name] = float(ast.literal_eval(node.value))
    return found["UNDO_CHANCE"], found["PAGE_CHANCE"]


def thread_cpu(name: str) -> float:
    """CPU seconds of this process's threads named ``name`` so far."""
    ids = {str(t.native_id) for t in threading.enumerate() if t.name == name}
    return sum(cpu for tid, (_, cpu) in threads(os.getpid()).items() if tid in ids)


class Caller:
    """Calls the ASGI app as a server would, timing the loop thread's CPU per kind."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cpu: dict[str, float] = {}
        self.count: dict[str, int] = {}

    async def __call__(
        self,
        kind: str,
        method: str,
        path: str,
        query: str = "",
        body: bytes = b"",
        headers: list[tuple[bytes, bytes]] | None = None,
    ) -> Any:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000"), *(headers or [])],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        pending = [{"type": "http.request", "body": body, "more_body": False}]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            if pending:
                return pending.pop()
            await asyncio.Event().wait()  # the client never goes away
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        started = time.thread_time()
        await self.app(scope, receive, send)
        self.cpu[kind] = self.cpu.get(kind, 0.0) + time.thread_time() - started
        self.count[kind] = self.count.get(kind, 0) + 1
        status = sent[0]["status"]
        answer = b"".join(message.get("body", b"") for message in sent[1:])
        if status not in (200, 201):
            raise SystemExit(f"{method} {path} answered {status}: {answer[:200]!r}")
        return json.loads(answer) if kind != "page" else None


async def play(turns: int, seed: int) -> dict[str, Any]:
    """The locust turns in-process; the figures as JSON-ready data."""
    from kniffel.settings import Settings
    from kniffel.web.app import create_app

    undo_chance, page_chance = locust_chances()
    dice_random = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="kniffel-floor-"))
    settings = Settings(
        db=f"sqlite:///{folder / 'games.db'}",
        cache_dir=str(folder / "cache"),
        prebuild_tables=False,
        background=False,
    )
    app = create_app(settings)
    call = Caller(app)

    async def new_game() -> tuple[str, str]:
        body = {"variant": "rauf-runter", "players": ["Anna", "Ben"], "dice_mode": "physical"}
        created = await call(
            "create", "POST", "/api/games", "", json.dumps(body).encode(), JSON_TYPE
        )
        return created["id"], created["key"]

    async with app.router.lifespan_context(app):
        game_id, key = await new_game()
        call.cpu.clear()  # the first game was made before the clocks started
        call.count.clear()
        writer_before = thread_cpu(WRITER)
        loop_before = time.thread_time()
        for _ in range(turns):
            game_id, key = await turn(
                call, game_id, key, new_game, dice_random, undo_chance, page_chance
            )
        loop = time.thread_time() - loop_before
        writer = thread_cpu(WRITER) - writer_before
    requests = sum(call.count.values())
    return {
        "kinds": {kind: [call.count[kind], call.cpu[kind]] for kind in call.count},
        "requests": requests,
        "loop": loop,
        "writer": writer,
    }


async def turn(
    call: Caller,
    game_id: str,
    key: str,
    new_game: Callable[[], Awaitable[tuple[str, str]]],
    dice_random: random.Random,
    undo_chance: float,
    page_chance: float,
) -> tuple[str, str]:
    """One turn as ``locustfile.Player.play_turn`` plays it; the game to play on."""
    state = await call("state", "GET", f"/api/games/{game_id}")
    if state["finished"] or state["turn"] is None:
        return await new_game()
    dice = "".join(str(dice_random.randint(1, 6)) for _ in range(5))
    preview = await call("preview", "GET", f"/api/games/{game_id}/preview", f"dice={dice}")
    allowed = set(state["turn"]["allowed"])
    cells = [entry["cell"] for entry in preview["entries"] if entry["cell"] in allowed]
    if not cells:
        return game_id, key
    event = {
        "type": "enter",
        "player": state["turn"]["player"],
        "cell": dice_random.choice(cells),
        "dice": [int(face) for face in dice],
    }
    keyed = [*JSON_TYPE, (b"x-kniffel-key", key.encode())]
    path = f"/api/games/{game_id}/events"
    body = json.dumps({"event": event, "expected_version": state["version"]}).encode()
    after = await call("enter", "POST", path, "", body, keyed)
    if after["can_undo"] and dice_random.random() < undo_chance:
        body = json.dumps({"event": {"type": "undo"}, "expected_version": after["version"]})
        await call("undo", "POST", path, "", body.encode(), keyed)
    if dice_random.random() < page_chance:
        await call("page", "GET", f"/g/{game_id}")
    return game_id, key


def child(turns: int, seed: int) -> None:
    print(json.dumps(asyncio.run(play(turns, seed))))


def run_side(env: dict[str, str], turns: int, seed: int) -> dict[str, Any]:
    """One round in a fresh process with ``env`` (this checkout's or a baseline's)."""
    done = subprocess.run(
        [sys.executable, str(HERE), "--child", "--turns", str(turns), "--seed", str(seed)],
        env={**env, "KNIFFEL_PREBUILD_TABLES": "0", "KNIFFEL_BACKGROUND": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"a round failed:\n{done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def per_request(figures: dict[str, Any]) -> tuple[float, float]:
    """The loop's and the writer's CPU microseconds per request of a round."""
    requests = figures["requests"]
    return figures["loop"] / requests * 1e6, figures["writer"] / requests * 1e6


def report(label: str, rounds: list[dict[str, Any]]) -> float:
    """Prints a side's figures (medians of its rounds); its app CPU per request in µs."""
    print(f"{label}: {len(rounds)} round(s) of {rounds[0]['requests']} requests")
    for kind in KINDS:
        counts = [r["kinds"][kind][0] for r in rounds if kind in r["kinds"]]
        if not counts:
            continue
        each = [
            r["kinds"][kind][1] / r["kinds"][kind][0] * 1e6 for r in rounds if kind in r["kinds"]
        ]
        print(f"  {kind:8s} {counts[0]:6d} requests  loop {statistics.median(each):7.1f} µs each")
    loops, writers = zip(*(per_request(r) for r in rounds), strict=True)
    loop, writer = statistics.median(loops), statistics.median(writers)
    total = loop + writer
    print(
        f"  per request of the mix: loop {loop:.0f} µs + writer {writer:.0f} µs = {total:.0f} µs"
        f" ({1e6 / total:,.0f} requests per CPU-second for the app alone)"
    )
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--turns", type=int, default=3000, help=f"locust turns (at most {MAX_TURNS})"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help=f"rounds per side (at most {MAX_ROUNDS})"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="the dice's seed (the same for both sides)"
    )
    parser.add_argument(
        "--baseline-ref", help="also run this git ref, alternating with this checkout"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    turns = max(1, min(args.turns, MAX_TURNS))
    if args.child:
        child(turns, args.seed)
        return
    rounds = max(1, min(args.rounds, MAX_ROUNDS))
    print(f"at the start: {load_average()}")
    this: list[dict[str, Any]] = []
    base: list[dict[str, Any]] = []
    if args.baseline_ref:
        with checkout(args.baseline_ref) as env:
            for number in range(rounds):
                # Alternating, and each side first in every other round.
                order = [(this, dict(os.environ)), (base, env)]
                for side, side_env in order if number % 2 == 0 else order[::-1]:
                    side.append(run_side(side_env, turns, args.seed))
    else:
        this = [run_side(dict(os.environ), turns, args.seed) for _ in range(rounds)]
    mine = report("this checkout", this)
    if base:
        theirs = report(describe(args.baseline_ref), base)
        print(f"ratio (this checkout / baseline): ×{mine / theirs:.2f}")
    print(f"at the end: {load_average()}")


if __name__ == "__main__":
    main()
