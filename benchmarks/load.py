"""A bounded load test of the board: locust players against ``kniffel serve`` on loopback.

Run with ``uv run python benchmarks/load.py [--users 20] [--seconds 20]``. It starts
``kniffel serve`` on a free 127.0.0.1 port with a throwaway SQLite file and cache
directory, waits until it answers, runs locust headless in its own process with the
users of ``benchmarks/locustfile.py``, stops the server and prints, per request kind,
requests per second, failures and the p50/p95/p99 latency. Users and time are capped
so that a mistyped number cannot turn the benchmark into a stress test; the address is
always 127.0.0.1.
"""

from __future__ import annotations

import argparse
import csv
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HOST = "127.0.0.1"
MAX_USERS = 100
MAX_SECONDS = 120
LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"


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


def run_locust(url: str, users: int, seconds: int, workdir: Path) -> Path:
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
    with log.open("wb") as out:
        # Locust exits 1 when any request failed; the figures say how many.
        locust = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            locust.wait(timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            stop(locust)
            raise SystemExit("locust did not finish in time") from None
    stats = prefix.with_name("load_stats.csv")
    if not stats.exists():
        sys.stderr.write(log.read_text(errors="replace")[-4000:])
        raise SystemExit("locust wrote no figures")
    return stats


def report(stats: Path, users: int, seconds: int) -> None:
    with stats.open(newline="") as f:
        rows = list(csv.DictReader(f))
    print(f"{users} users, {seconds} s, server kniffel serve on {HOST} (SQLite)")
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
    print("latencies in ms")
    failures = stats.with_name("load_failures.csv")
    if failures.exists():
        with failures.open(newline="") as f:
            for row in csv.DictReader(f):
                print(f"failed {row['Occurrences']}x {row['Name']}: {row['Error']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20, help=f"players (1..{MAX_USERS})")
    parser.add_argument("--seconds", type=int, default=20, help=f"run time (1..{MAX_SECONDS})")
    args = parser.parse_args()
    if not 1 <= args.users <= MAX_USERS:
        parser.error(f"--users must be between 1 and {MAX_USERS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be between 1 and {MAX_SECONDS}")

    port = free_port()
    url = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory(prefix="kniffel-load-") as tmp:
        workdir = Path(tmp)
        env = {
            **os.environ,
            "KNIFFEL_DB": f"sqlite:///{workdir / 'load.db'}",
            "KNIFFEL_CACHE_DIR": str(workdir / "cache"),
        }
        serve = [sys.executable, "-m", "kniffel", "serve", "--host", HOST, "--port", str(port)]
        server = subprocess.Popen(
            serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_until_up(f"{url}/api/games", server)
            stats = run_locust(url, args.users, args.seconds, workdir)
        finally:
            stop(server)
        report(stats, args.users, args.seconds)


if __name__ == "__main__":
    main()
