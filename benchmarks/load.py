"""A bounded load test of the board: locust players against ``kniffel serve`` on loopback.

Run with ``uv run python benchmarks/load.py [--users 20] [--seconds 20]``. It starts
``kniffel serve`` on a free 127.0.0.1 port with a throwaway SQLite file and cache
directory, waits until it answers, runs locust headless in its own process with the
users of ``benchmarks/locustfile.py``, stops the server and prints, per request kind,
requests per second, failures and the p50/p95/p99 latency, the server process's
CPU milliseconds per request and requests per CPU-second (``/proc/PID/stat`` before and after
the run), the machine's load average and the CPU seconds locust itself used: its users are
``FastHttpUser``, because ``HttpUser`` (requests) needed about a core for 450 requests/s, and
every latency then held locust's own queue (docs/benchmarks.md, "Load").
``--baseline-ref main`` first runs the server of that git ref the same way (from a
temporary ``git worktree``, see ``benchmarks/baseline.py``) and then prints the ratios.
``--server granian`` serves this checkout's app with granian instead of uvicorn
(``benchmarks/serve_granian.py``; granian installed by hand), for the servers' side-by-side figures.
``--tipp-games N`` (at most 20) runs this checkout twice, side by side: once as above, once while
``N`` more Rauf-Runter games keep the Tipp busy (each asks its advice, with its key, for new dice
every second: the reasons are simulated in the background) and prints the players' p99 of both
(issue 33, "Background is background"); the presets' tables come from ``--tables DIR`` (default:
the user cache), linked into the run's cache, so that no table is built during the run.
Users and time are capped so that a mistyped number cannot turn the benchmark into a
stress test; the address is always 127.0.0.1.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from baseline import checkout, cpu_seconds, describe

HOST = "127.0.0.1"
MAX_USERS = 100
MAX_SECONDS = 120
MAX_TIPP_GAMES = 20
ENTRIES = "POST /api/games/[id]/events enter"
LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"
#: The servers a run can be served by: ``kniffel serve`` (uvicorn) or the same app under granian.
SERVERS = ("uvicorn", "granian")
GRANIAN = LOCUSTFILE.with_name("serve_granian.py")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(url: str, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at once (exit {server.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {timeout:.0f} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run_locust(url: str, users: int, seconds: int, workdir: Path) -> tuple[Path, float]:
    """Locust's figures (its CSV file) and the CPU seconds locust used."""
    prefix = workdir / "load"
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--users",
        str(users),
        "--spawn-rate",
        str(users),
        "--run-time",
        f"{seconds}s",
        "--host",
        url,
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
    ]
    log = workdir / "locust.log"
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with log.open("wb") as out:
        # Locust exits 1 when any request failed; the figures say how many.
        locust = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            locust.wait(timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            stop(locust)
            raise SystemExit("locust did not finish in time") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    stats = prefix.with_name("load_stats.csv")
    if not stats.exists():
        sys.stderr.write(log.read_text(errors="replace")[-4000:])
        raise SystemExit("locust wrote no figures")
    return stats, client_cpu


@dataclass
class Result:
    """One server's run: locust's rows and the server's CPU seconds during it."""

    label: str
    rows: list[dict[str, str]]
    cpu_seconds: float

    def total(self) -> dict[str, str]:
        return next(row for row in self.rows if not row["Type"])

    @property
    def requests(self) -> int:
        return int(self.total()["Request Count"])

    @property
    def per_second(self) -> float:
        return float(self.total()["Requests/s"])

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.cpu_seconds / max(1, self.requests)

    def p99(self, prefix: str) -> str:
        found = [row["99%"] for row in self.rows if row["Name"].startswith(prefix) and row["Type"]]
        return ", ".join(found) or "-"


class TippPressure(threading.Thread):
    """``games`` Rauf-Runter games of their own, each asking its Tipp with its key for new
    typed dice once a second until stopped: the Tipp's reasons keep the server's background
    busy. Counts the answers by status."""

    def __init__(self, url: str, games: int) -> None:
        super().__init__(daemon=True)
        self.url, self.games = url, games
        self.stopped = threading.Event()
        self.answers: dict[int, int] = {}

    def _call(self, path: str, body: dict[str, object] | None = None, key: str = "") -> bytes:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("X-Kniffel-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                self.answers[answer.status] = self.answers.get(answer.status, 0) + 1
                return bytes(answer.read())
        except urllib.error.HTTPError as refused:
            self.answers[refused.code] = self.answers.get(refused.code, 0) + 1
            return b""

    def run(self) -> None:
        body = {"variant": "rauf-runter", "players": ["Anna", "Ben"], "dice_mode": "physical"}
        games = [json.loads(self._call("/api/games", body)) for _ in range(self.games)]
        rng = random.Random(33)
        while not self.stopped.is_set():
            started = time.monotonic()
            for game in games:
                dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
                path = f"/api/games/{game['id']}/advice?dice={dice}&rolls={rng.randint(1, 2)}"
                self._call(path, key=game["key"])
            self.stopped.wait(max(0.0, 1.0 - (time.monotonic() - started)))


def link_tables(cache: Path, tables: Path) -> int:
    """Links the presets' solver tables found in ``tables`` into the run's ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    linked = 0
    for table in tables.glob("*.npz"):
        (cache / table.name).symlink_to(table)
        linked += 1
    return linked


def start_server(
    env: dict[str, str], workdir: Path, db: str, server: str = "uvicorn"
) -> tuple[str, subprocess.Popen[bytes]]:
    """``kniffel serve`` with ``env`` on a free 127.0.0.1 port, its SQLite file ``db`` and its
    cache in ``workdir``: its address and process (not waited for). ``server="granian"`` serves
    the same app with granian instead of uvicorn (``benchmarks/serve_granian.py``)."""
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    env = {
        **env,
        "KNIFFEL_DB": f"sqlite:///{workdir / db}",
        "KNIFFEL_CACHE_DIR": str(workdir / "cache"),
        # No solver table builds or background reviews beside the measured requests (a server
        # that does not know these settings ignores them).
        "KNIFFEL_PREBUILD_TABLES": "0",
        "KNIFFEL_BACKGROUND": "0",
    }
    serve = [sys.executable, "-m", "kniffel", "serve", "--host", HOST, "--port", str(port)]
    if server == "granian":
        serve = [sys.executable, str(GRANIAN), "--host", HOST, "--port", str(port)]
    server = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return f"http://{HOST}:{port}", server


def measure(
    label: str,
    env: dict[str, str],
    users: int,
    seconds: int,
    workdir: Path,
    *,
    tipp_games: int = 0,
    tables: Path | None = None,
    server: str = "uvicorn",
) -> Result:
    """Start a server with ``env``, run locust against it (with ``tipp_games`` games keeping
    the Tipp busy beside it), stop it; the figures."""
    if tables is not None:
        link_tables(workdir / "cache", tables)
    url, process = start_server(env, workdir, "load.db", server)
    pressure = TippPressure(url, tipp_games) if tipp_games else None
    try:
        wait_until_up(f"{url}/api/games", process)
        if pressure is not None:
            pressure.start()
            time.sleep(5)  # the games made and their first Tipps asked: the background at work
        before = cpu_seconds(process.pid)
        stats, client_cpu = run_locust(url, users, seconds, workdir)
        used = cpu_seconds(process.pid) - before
    finally:
        if pressure is not None:
            pressure.stopped.set()
            pressure.join(timeout=60)
        stop(process)
    if pressure is not None:
        label += f", {tipp_games} games asking the Tipp (answers {pressure.answers})"
    with stats.open(newline="") as f:
        rows = list(csv.DictReader(f))
    report(label, stats, rows, users, seconds, used, client_cpu)
    return Result(label, rows, used)


def load_average() -> str:
    """The machine's load average (1, 5 and 15 minutes) and its cores: the figures of a busy
    machine are not a quiet one's."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def report(
    label: str,
    stats: Path,
    rows: list[dict[str, str]],
    users: int,
    seconds: int,
    cpu: float,
    client_cpu: float,
) -> None:
    print(f"{label}: {users} users, {seconds} s, one kniffel serve process on {HOST} (SQLite)")
    header = (
        f"{'request':<40} {'count':>7} {'fail':>5} {'req/s':>7} {'p50':>6} {'p95':>6} {'p99':>6}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        name = row["Name"] if row["Type"] else "all"
        print(
            f"{name:<40} {row['Request Count']:>7} {row['Failure Count']:>5}"
            f" {float(row['Requests/s']):>7.1f} {row['50%']:>6} {row['95%']:>6} {row['99%']:>6}"
        )
    total = next((int(r["Request Count"]) for r in rows if not r["Type"]), 0)
    per_request = 1000 * cpu / max(1, total)
    print(
        f"latencies in ms; server CPU {cpu:.1f} s = {per_request:.2f} ms per request"
        f" ({total / cpu if cpu else 0:,.0f} requests per CPU-second);"
        f" locust CPU {client_cpu:.1f} s of {seconds} s; {load_average()}"
    )
    failures = stats.with_name("load_failures.csv")
    if failures.exists():
        with failures.open(newline="") as f:
            for row in csv.DictReader(f):
                print(f"failed {row['Occurrences']}x {row['Name']}: {row['Error']}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20, help=f"players (1..{MAX_USERS})")
    parser.add_argument("--seconds", type=int, default=20, help=f"run time (1..{MAX_SECONDS})")
    parser.add_argument(
        "--baseline-ref",
        metavar="REF",
        help="also run the server of this git ref (e.g. main) the same way and print the ratios",
    )
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default="uvicorn",
        help="this checkout served by kniffel serve's uvicorn or by granian (installed by hand)",
    )
    parser.add_argument(
        "--tipp-games",
        type=int,
        default=0,
        help=f"also a run while this many games keep the Tipp busy (0..{MAX_TIPP_GAMES})",
    )
    parser.add_argument(
        "--tables",
        type=Path,
        default=Path(platformdirs.user_cache_dir("kniffel")),
        help="the folder of the presets' solver tables to link in (with --tipp-games)",
    )
    args = parser.parse_args()
    if not 0 <= args.tipp_games <= MAX_TIPP_GAMES:
        parser.error(f"--tipp-games must be between 0 and {MAX_TIPP_GAMES}")
    if not 1 <= args.users <= MAX_USERS:
        parser.error(f"--users must be between 1 and {MAX_USERS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be between 1 and {MAX_SECONDS}")

    print(f"at the start: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="kniffel-load-") as tmp:
        workdir = Path(tmp)
        results: list[Result] = []
        if args.baseline_ref:
            with checkout(args.baseline_ref) as env:
                results.append(
                    measure(
                        describe(args.baseline_ref), env, args.users, args.seconds, workdir / "b"
                    )
                )
        if args.tipp_games:
            runs = {}
            for name, games in (("quiet", 0), ("busy", args.tipp_games)):
                runs[name] = measure(
                    "this checkout",
                    dict(os.environ),
                    args.users,
                    args.seconds,
                    workdir / name,
                    tipp_games=games,
                    tables=args.tables,
                )
            quiet, busy = runs["quiet"], runs["busy"]
            print(
                f"players' p99 without / with {args.tipp_games} games asking the Tipp:"
                f" all {quiet.total()['99%']} / {busy.total()['99%']} ms,"
                f" entries {quiet.p99(ENTRIES)} / {busy.p99(ENTRIES)} ms"
            )
            return
        label = "this checkout" + (" (granian)" if args.server == "granian" else "")
        results.append(
            measure(
                label, dict(os.environ), args.users, args.seconds, workdir / "t", server=args.server
            )
        )
    if len(results) == 2:
        base, this = results
        print(
            f"this checkout / {base.label}: requests/s x{this.per_second / base.per_second:.2f}"
            f" ({this.per_second:.1f} / {base.per_second:.1f}),"
            f" server CPU per request x{this.cpu_ms_per_request / base.cpu_ms_per_request:.2f}"
            f" ({this.cpu_ms_per_request:.2f} / {base.cpu_ms_per_request:.2f} ms),"
            f" entries p99 {this.p99(ENTRIES)} / {base.p99(ENTRIES)} ms;"
            f" requests per CPU-second {1000 / this.cpu_ms_per_request:,.0f}"
            f" / {1000 / base.cpu_ms_per_request:,.0f}"
        )
    print(f"at the end: {load_average()}")


if __name__ == "__main__":
    main()
