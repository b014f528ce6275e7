"""Live latency: many tables, two WebSocket watchers each, one entry per table every 2 s.

Run with ``uv run python benchmarks/live.py [--tables 200] [--seconds 60] [--db both]``.
It starts the board on loopback (``--db sqlite``: one ``kniffel serve`` process on a
throwaway SQLite file; ``--db postgres``: two processes on one throwaway PostgreSQL
server, started as ``tests/web/postgres.py`` does; ``both``: one after the other),
opens ``--tables`` games with two watchers each on ``/api/games/{id}/live`` (with
PostgreSQL one watcher on each process, the entry sent to either), then for
``--seconds`` enters one move per table every ``--interval`` seconds, the tables
spread evenly over the interval. For each entry it measures the time from sending
``POST /api/games/{id}/events`` until *both* watchers have heard the new version, and
prints p50/p95/p99 of that (and of the answer to the entry itself), the entries made,
and those that could not be made in time (the table's previous entry still waiting).
Watchers only listen (they do not refetch). ``--pin`` runs the server processes on
CPU 0 and this driver on the others (only useful on an otherwise idle machine). Tables,
time and rate are capped and every address is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kniffel.record import event_from_json
from kniffel.rules import Dice, Game, get_variant

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import cpu_seconds  # noqa: E402
from load import HOST, free_port, stop, wait_until_up  # noqa: E402

MAX_TABLES = 300
MAX_SECONDS = 120
MIN_INTERVAL = 0.5
HEARD_TIMEOUT = 10.0
DICE = Dice.of([6, 6, 6, 5, 5])


@dataclass
class Table:
    id: str
    key: str
    game: Game
    version: int = 0
    #: (version awaited, sent at, watchers still to hear it)
    waiting: tuple[int, float, set[int]] | None = None
    busy: bool = False


@dataclass
class Figures:
    heard: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    made: int = 0
    late: int = 0
    failed: int = 0
    unheard: int = 0
    closed: int = 0


def next_entry(game: Game) -> dict[str, object]:
    player = game.current_name
    assert player is not None, "a table ran out of cells; use fewer seconds or a longer interval"
    cell = game.allowed_cells()[0]
    return {"type": "enter", "player": player, "cell": str(cell), "dice": list(DICE.faces)}


@contextlib.contextmanager
def servers(kind: str, count: int, workdir: Path, pin: bool) -> Iterator[list[str]]:
    """``count`` kniffel serve processes on one database; yields their base URLs."""
    with contextlib.ExitStack() as stack:
        if kind == "sqlite":
            db = f"sqlite:///{workdir / 'live.db'}"
        else:
            import postgres  # tests/web/postgres.py

            reason = postgres.missing()
            folder = postgres.binaries()
            if reason is not None or folder is None:
                raise SystemExit(f"PostgreSQL: {reason}")
            db = stack.enter_context(postgres.throwaway_postgres(folder))
        env = {**os.environ, "KNIFFEL_DB": db, "KNIFFEL_CACHE_DIR": str(workdir / "cache")}
        urls: list[str] = []
        processes: list[subprocess.Popen[bytes]] = []
        pin = pin and (os.cpu_count() or 1) >= 2
        for _ in range(count):
            port = free_port()
            command = [sys.executable, "-m", "kniffel", "serve", "--host", HOST]
            process = subprocess.Popen(
                [*command, "--port", str(port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=(lambda: os.sched_setaffinity(0, {0})) if pin else None,
            )
            processes.append(process)
            _server_pids.append(process.pid)
            stack.callback(stop, process)
            urls.append(f"http://{HOST}:{port}")
            wait_until_up(f"{urls[-1]}/healthz", process)
        if pin:
            os.sched_setaffinity(0, set(range(1, os.cpu_count() or 2)))
        yield urls
        print_cpu(processes)


_CPU: dict[int, float] = {}
_server_pids: list[int] = []


def print_cpu(processes: list[subprocess.Popen[bytes]]) -> None:
    used = [cpu_seconds(p.pid) - _CPU.get(p.pid, 0.0) for p in processes if p.poll() is None]
    print(f"  server CPU during the run: {', '.join(f'{u:.1f} s' for u in used)}")


async def watch(socket: ClientConnection, table: Table, seat: int, figures: Figures) -> None:
    with contextlib.suppress(ConnectionClosed):
        await _watch(socket, table, seat, figures)
    figures.closed += 1


async def _watch(socket: ClientConnection, table: Table, seat: int, figures: Figures) -> None:
    async for raw in socket:
        version = int(json.loads(raw)["version"])
        waiting = table.waiting
        if waiting is not None and version >= waiting[0]:
            waiting[2].discard(seat)
            if not waiting[2]:
                figures.heard.append(time.perf_counter() - waiting[1])
                table.waiting = None


async def move(client: httpx.AsyncClient, url: str, table: Table, figures: Figures) -> None:
    if table.busy:
        figures.late += 1
        return
    table.busy = True
    try:
        if table.waiting is not None:
            figures.unheard += 1  # the last version never reached both watchers
        event = next_entry(table.game)
        sent = time.perf_counter()
        table.waiting = (table.version + 1, sent, {0, 1})
        try:
            answer = await client.post(
                f"{url}/api/games/{table.id}/events",
                json={"event": event, "expected_version": table.version},
                headers={"X-Kniffel-Key": table.key},
            )
        except httpx.HTTPError:
            answer = None
        if answer is None or answer.status_code != 200:
            figures.failed += 1
            table.waiting = None
            return
        figures.answered.append(time.perf_counter() - sent)
        figures.made += 1
        table.version = int(answer.json()["version"])
        table.game.push(event_from_json(dict(event), table.game))
    finally:
        table.busy = False


async def run(urls: list[str], tables: int, seconds: float, interval: float) -> Figures:
    figures = Figures()
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        made: list[Table] = []
        for number in range(tables):
            body = {"variant": "rauf-runter", "players": ["Anna", "Ben"]}
            answer = await client.post(f"{urls[number % len(urls)]}/api/games", json=body)
            answer.raise_for_status()
            created = answer.json()
            game = Game(get_variant("rauf-runter"), ["Anna", "Ben"])
            made.append(Table(created["id"], created["key"], game))
        async with contextlib.AsyncExitStack() as stack:
            tasks = []
            for table in made:
                for seat in (0, 1):
                    ws = urls[seat % len(urls)].replace("http://", "ws://")
                    socket = await stack.enter_async_context(
                        # No client pings: a busy server must not lose its watchers to them.
                        connect(
                            f"{ws}/api/games/{table.id}/live", max_queue=None, ping_interval=None
                        )
                    )
                    await socket.recv()  # the state on connect
                    tasks.append(asyncio.create_task(watch(socket, table, seat, figures)))
            for pid in _server_pids:
                _CPU[pid] = cpu_seconds(pid)
            start = time.perf_counter()
            moves: list[asyncio.Task[None]] = []
            tick = 0
            while True:
                for index, table in enumerate(made):
                    at = start + tick * interval + index * interval / len(made)
                    if at - start >= seconds:
                        break
                    delay = at - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    url = urls[(index + tick) % len(urls)]
                    moves.append(asyncio.create_task(move(client, url, table, figures)))
                else:
                    tick += 1
                    continue
                break
            await asyncio.gather(*moves)
            deadline = time.perf_counter() + HEARD_TIMEOUT
            while any(t.waiting for t in made) and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            figures.unheard += sum(1 for t in made if t.waiting)
            for task in tasks:
                task.cancel()
    return figures


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def report(label: str, figures: Figures, tables: int, seconds: float) -> None:
    heard, answered = figures.heard, figures.answered
    print(f"{label}: {tables} tables, {2 * tables} watchers, {seconds:.0f} s")
    print(
        f"  entries made {figures.made}, not made in time {figures.late},"
        f" refused or failed {figures.failed}, not heard by both watchers {figures.unheard},"
        f" watcher sockets closed by the server {figures.closed}"
    )
    for name, values in (("enter -> all watchers", heard), ("enter -> answer", answered)):
        print(
            f"  {name:<22} p50 {percentile(values, 0.5):7.1f}  p95 {percentile(values, 0.95):7.1f}"
            f"  p99 {percentile(values, 0.99):7.1f} ms"
            + (f"  (mean {statistics.fmean(values) * 1000:.1f})" if values else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help=f"tables (1..{MAX_TABLES})")
    parser.add_argument("--seconds", type=float, default=60, help=f"run time (1..{MAX_SECONDS})")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--pin", action="store_true", help="servers on CPU 0, driver on the rest")
    args = parser.parse_args()
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be between 1 and {MAX_TABLES}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be between 1 and {MAX_SECONDS}")
    if args.interval < MIN_INTERVAL:
        parser.error(f"--interval must be at least {MIN_INTERVAL}")
    kinds = [("sqlite", 1), ("postgres", 2)]
    if args.db != "both":
        kinds = [k for k in kinds if k[0] == args.db]
    for kind, count in kinds:
        _server_pids.clear()
        with (
            tempfile.TemporaryDirectory(prefix="kniffel-live-") as tmp,
            servers(kind, count, Path(tmp), args.pin) as urls,
        ):
            figures = asyncio.run(run(urls, args.tables, args.seconds, args.interval))
            label = "SQLite, one process" if kind == "sqlite" else "PostgreSQL, two processes"
            report(label, figures, args.tables, args.seconds)


if __name__ == "__main__":
    main()
