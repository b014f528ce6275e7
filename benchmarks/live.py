"""Live latency: many tables, two WebSocket watchers each, one entry per table every 2 s.

Run with ``uv run python benchmarks/live.py [--tables 200] [--seconds 60] [--db both]``.
It starts the board on loopback (``--db sqlite``: one ``kniffel serve`` process on a
throwaway SQLite file; ``--db postgres``: two processes on one throwaway PostgreSQL
server, started as ``tests/web/postgres.py`` does; ``both``: one after the other),
opens ``--tables`` games with two watchers each on ``/api/games/{id}/live`` (with
PostgreSQL one watcher on each process, the entry sent to either), then for
``--seconds`` enters one move per table every ``--interval`` seconds, the tables
spread evenly over the interval. For each entry it measures the time from sending
``POST /api/games/{id}/events`` until *both* watchers show the new version, and
prints p50/p95/p99 of that (and of the answer to the entry itself), the entries made,
and those that could not be made in time (the table's previous entry still unanswered).

The watchers run in processes of their own (``--watcher-processes``, 2 by default), so
that the driver's loop does not delay what they hear; they note when each version
arrived (``time.perf_counter``, one monotonic clock for every process on the machine)
and hand their notes back at the end. A watcher does what a device does: on a newer
version it fetches the game's state (``GET /api/games/{id}``) and counts the version
as shown when that answer arrives (``--no-refetch``: it counts the message alone).
Watcher sockets ping every 20 s and give a busy server 60 s to answer; the run is
bounded (moves stop after ``--seconds``, watchers after a grace of
``HEARD_TIMEOUT`` seconds more). ``--pin`` runs the server processes on CPU 0 and the
driver and watchers on the others (only useful on an otherwise idle machine). Tables,
time and rate are capped and every address is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kniffel.record import event_from_json
from kniffel.rules import Dice, Game, get_variant

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import cpu_seconds  # noqa: E402
from load import HOST, free_port, stop, wait_until_up  # noqa: E402
from plainhttp import PlainClient, PlainHTTPError  # noqa: E402

MAX_TABLES = 300
MAX_SECONDS = 120
MIN_INTERVAL = 0.5
HEARD_TIMEOUT = 5.0
DICE = Dice.of([6, 6, 6, 5, 5])


@dataclass
class Table:
    id: str
    key: str
    game: Game
    version: int = 0
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
    refetch_failed: int = 0
    #: CPU seconds of the driver (the entries) and of each watcher process during the run:
    #: when these reach the wall time of the cores they share, the figures measure the clients.
    driver_cpu: float = 0.0
    watcher_cpu: list[float] = field(default_factory=list)
    #: (table id, version) -> when the entry that made it was sent
    sent: dict[tuple[str, int], float] = field(default_factory=dict)


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
        env = {
            **os.environ,
            "KNIFFEL_DB": db,
            "KNIFFEL_CACHE_DIR": str(workdir / "cache"),
            # Nothing but the measured work: no table builds, no background reviews.
            "KNIFFEL_PREBUILD_TABLES": "0",
            "KNIFFEL_BACKGROUND": "0",
        }
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


# ------------------------------------------------------------------ watchers

#: One watcher: (table id, seat, the WebSocket URL, the base URL it fetches the state from).
Assignment = tuple[str, int, str, str]


def watcher_process(
    assignments: list[Assignment], refetch: bool, ready: Any, stop: Any, out: str
) -> None:
    """A process of watchers: connect them all, say ready, note what they hear until ``stop``."""
    asyncio.run(_watchers(assignments, refetch, ready, stop, Path(out)))


async def _watchers(
    assignments: list[Assignment], refetch: bool, ready: Any, stop: Any, out: Path
) -> None:
    heard: list[tuple[str, int, int, float]] = []
    closed = refetch_failed = 0
    async with (
        PlainClient(timeout=60) as client,
        contextlib.AsyncExitStack() as stack,
    ):
        listeners = []
        for table_id, seat, ws_url, http_url in assignments:
            socket = await stack.enter_async_context(
                # Pings keep a dead connection from hanging the run; a busy server gets a
                # minute to answer one before the socket counts as lost.
                connect(
                    f"{ws_url}/api/games/{table_id}/live",
                    max_queue=None,
                    ping_interval=20,
                    ping_timeout=60,
                    open_timeout=60,
                )
            )
            first = int(json.loads(await socket.recv())["version"])
            listeners.append((socket, table_id, seat, http_url, first))
        ready.set()
        cpu_at_ready = time.process_time()

        async def listen(
            socket: ClientConnection, table_id: str, seat: int, http_url: str, shown: int
        ) -> None:
            nonlocal closed, refetch_failed
            try:
                async for raw in socket:
                    version = int(json.loads(raw)["version"])
                    if version <= shown:
                        continue
                    if refetch:
                        try:
                            answer = await client.get(f"{http_url}/api/games/{table_id}")
                        except PlainHTTPError:
                            answer = None
                        if answer is None or answer.status_code != 200:
                            refetch_failed += 1  # the next version message tries again
                            continue
                        version = int(answer.json()["version"])
                    shown = max(shown, version)
                    heard.append((table_id, seat, shown, time.perf_counter()))
            except ConnectionClosed:
                closed += 1

        tasks = [asyncio.create_task(listen(*listener)) for listener in listeners]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    cpu = time.process_time() - cpu_at_ready
    found = {"heard": heard, "closed": closed, "refetch_failed": refetch_failed, "cpu": cpu}
    out.write_text(json.dumps(found))


@contextlib.contextmanager
def watchers(
    made: list[Table], urls: list[str], processes: int, refetch: bool, workdir: Path
) -> Iterator[Callable[[], tuple[list[tuple[str, int, int, float]], int, int, list[float]]]]:
    """Start the watcher processes, wait until every socket is open; yields a function that
    stops them and returns what they heard (and how many sockets the server closed)."""
    context = multiprocessing.get_context("spawn")
    assignments: list[list[Assignment]] = [[] for _ in range(processes)]
    number = 0
    for table in made:
        for seat in (0, 1):
            url = urls[seat % len(urls)]
            assignments[number % processes].append(
                (table.id, seat, url.replace("http://", "ws://"), url)
            )
            number += 1
    stop = context.Event()
    started = []
    for index, share in enumerate(assignments):
        ready = context.Event()
        out = workdir / f"watchers-{index}.json"
        process = context.Process(
            target=watcher_process,
            args=(share, refetch, ready, stop, str(out)),
            name=f"watchers-{index}",
            daemon=True,
        )
        process.start()
        started.append((process, ready, out))
    try:
        for process, ready, _ in started:
            while not ready.wait(0.5):
                if not process.is_alive():
                    raise SystemExit(f"a watcher process stopped (exit {process.exitcode})")

        def finish() -> tuple[list[tuple[str, int, int, float]], int, int, list[float]]:
            stop.set()
            heard: list[tuple[str, int, int, float]] = []
            closed = refetch_failed = 0
            cpu: list[float] = []
            for process, _, out in started:
                process.join(timeout=60)
                if out.exists():
                    found = json.loads(out.read_text())
                    heard.extend(tuple(item) for item in found["heard"])
                    closed += int(found["closed"])
                    refetch_failed += int(found["refetch_failed"])
                    cpu.append(float(found["cpu"]))
            return heard, closed, refetch_failed, cpu

        yield finish
    finally:
        stop.set()
        for process, _, _ in started:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


async def move(client: PlainClient, url: str, table: Table, figures: Figures) -> None:
    if table.busy:
        figures.late += 1
        return
    table.busy = True
    try:
        event = next_entry(table.game)
        sent = time.perf_counter()
        try:
            answer = await client.post(
                f"{url}/api/games/{table.id}/events",
                json={"event": event, "expected_version": table.version},
                headers={"X-Kniffel-Key": table.key},
            )
        except PlainHTTPError:
            answer = None
        if answer is None or answer.status_code != 200:
            figures.failed += 1
            return
        figures.answered.append(time.perf_counter() - sent)
        figures.made += 1
        table.version = int(answer.json()["version"])
        figures.sent[(table.id, table.version)] = sent
        table.game.push(event_from_json(dict(event), table.game))
    finally:
        table.busy = False


def heard_by_both(
    figures: Figures, heard: list[tuple[str, int, int, float]]
) -> tuple[list[float], int]:
    """For every entry made: the time until both watchers showed its version (or a later one);
    and how many entries a watcher never showed."""
    by_watcher: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for table_id, seat, version, at in heard:
        by_watcher.setdefault((table_id, seat), []).append((version, at))
    latencies, unheard = [], 0
    for (table_id, version), sent in figures.sent.items():
        times = []
        for seat in (0, 1):
            notes = by_watcher.get((table_id, seat), [])
            first = next((at for shown, at in notes if shown >= version), None)
            if first is not None:
                times.append(first)
        if len(times) == 2:
            latencies.append(max(times) - sent)
        else:
            unheard += 1
    return latencies, unheard


async def run(
    urls: list[str],
    tables: int,
    seconds: float,
    interval: float,
    watcher_processes: int,
    refetch: bool,
    workdir: Path,
) -> Figures:
    figures = Figures()
    async with PlainClient(timeout=60) as client:
        made: list[Table] = []
        for number in range(tables):
            body = {"variant": "rauf-runter", "players": ["Anna", "Ben"]}
            answer = await client.post(f"{urls[number % len(urls)]}/api/games", json=body)
            if answer.status_code != 201:
                raise SystemExit(f"creating a table answered {answer.status_code}")
            created = answer.json()
            game = Game(get_variant("rauf-runter"), ["Anna", "Ben"])
            made.append(Table(created["id"], created["key"], game))
        with watchers(made, urls, watcher_processes, refetch, workdir) as finish:
            for pid in _server_pids:
                _CPU[pid] = cpu_seconds(pid)
            start = time.perf_counter()
            driver_at_start = time.process_time()
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
            figures.driver_cpu = time.process_time() - driver_at_start
            await asyncio.sleep(HEARD_TIMEOUT)  # the grace for the last entries to be heard
            heard, figures.closed, figures.refetch_failed, figures.watcher_cpu = finish()
    figures.heard, figures.unheard = heard_by_both(figures, heard)
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
        f" watcher sockets lost {figures.closed},"
        f" refetches failed (timeout or error, tried again) {figures.refetch_failed}"
    )
    for name, values in (("enter -> all watchers", heard), ("enter -> answer", answered)):
        print(
            f"  {name:<22} p50 {percentile(values, 0.5):7.1f}  p95 {percentile(values, 0.95):7.1f}"
            f"  p99 {percentile(values, 0.99):7.1f} ms"
            + (f"  (mean {statistics.fmean(values) * 1000:.1f})" if values else "")
        )
    watchers = ", ".join(f"{cpu:.1f} s" for cpu in figures.watcher_cpu)
    print(f"  client CPU during the run: driver {figures.driver_cpu:.1f} s, watchers {watchers}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help=f"tables (1..{MAX_TABLES})")
    parser.add_argument("--seconds", type=float, default=60, help=f"run time (1..{MAX_SECONDS})")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--pin", action="store_true", help="servers on CPU 0, driver on the rest")
    parser.add_argument(
        "--watcher-processes", type=int, default=2, help="processes the watchers run in (1..8)"
    )
    parser.add_argument(
        "--no-refetch",
        dest="refetch",
        action="store_false",
        help="watchers count the version message alone (no GET of the state)",
    )
    parser.add_argument(
        "--phones",
        type=int,
        metavar="ENTRIES",
        help="instead: phone to phone in two browser pages, this many entries",
    )
    parser.add_argument(
        "--against", type=Path, metavar="DIR", help="with --phones: also measure this checkout"
    )
    parser.add_argument(
        "--burners", type=int, default=0, help="with --phones: CPU cores kept busy (0..16)"
    )
    args = parser.parse_args()
    if args.phones is not None:
        if not 0 <= args.burners <= 16:
            parser.error("--burners must be between 0 and 16")
        from phones import run_phones  # benchmarks/phones.py

        run_phones(args.phones, args.against, args.burners)
        return
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be between 1 and {MAX_TABLES}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be between 1 and {MAX_SECONDS}")
    if not 1 <= args.watcher_processes <= 8:
        parser.error("--watcher-processes must be between 1 and 8")
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
            figures = asyncio.run(
                run(
                    urls,
                    args.tables,
                    args.seconds,
                    args.interval,
                    args.watcher_processes,
                    args.refetch,
                    Path(tmp),
                )
            )
            label = "SQLite, one process" if kind == "sqlite" else "PostgreSQL, two processes"
            report(label, figures, args.tables, args.seconds)


if __name__ == "__main__":
    main()
