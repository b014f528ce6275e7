"""How long ``kniffel serve`` takes from start to its first answer, on loopback.

Run with ``uv run python benchmarks/start.py [--runs 10]``. Each run starts
``python -m kniffel serve`` on a free 127.0.0.1 port and asks ``GET /`` every
10 ms until it answers 200; the time from ``Popen`` to that answer is printed,
for a fresh database (created and migrated at start) and for one already at
the newest schema (no migration), beside the CPU seconds the server process
had used by then (``/proc/PID/stat``; on a busy machine the wall time grows
with the load, the CPU time much less). The ordinary cases may write bytecode
(``PYTHONDONTWRITEBYTECODE`` is removed from their environment; the first, unmeasured
start writes it), as an installed server does. ``--no-bytecode`` adds runs where
Python may not write bytecode (``PYTHONDONTWRITEBYTECODE=1``, as in CI after a fresh
checkout; it still reads what is there). ``--baseline-ref REF`` runs the same
cases for the server of a git ref (``benchmarks/baseline.py``) and prints the
ratios; ``--baseline-path DIR`` does the same for the sources of another checkout as they are
(a checkout of main beside this one: its ``src`` is imported first, nothing in it is written). Runs
(10 by default, the median of 10) are capped at 10 and each waits at most 120 s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from baseline import checkout, cpu_seconds, describe

HOST = "127.0.0.1"
MAX_RUNS = 10


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def first_answer(
    db: Path, env_extra: dict[str, str], base: dict[str, str] | None = None
) -> tuple[float, float]:
    """Seconds from starting the server to its first 200 for ``GET /``, and its CPU seconds."""
    port = free_port()
    env = {**(base or os.environ), "KNIFFEL_DB": f"sqlite:///{db}", **env_extra}
    if "PYTHONDONTWRITEBYTECODE" not in env_extra:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "kniffel", "serve", "--host", HOST, "--port", str(port)]
    started = time.perf_counter()
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = started + 120
        while time.perf_counter() < deadline:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped at once (exit {server.returncode})")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=5) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - started, cpu_seconds(server.pid)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.01)
        raise SystemExit("the server did not answer within 120 s")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=MAX_RUNS, help=f"runs per case (1..{MAX_RUNS})")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="also run with PYTHONDONTWRITEBYTECODE=1"
    )
    parser.add_argument("--baseline-ref", metavar="REF", help="also time the server of this ref")
    parser.add_argument(
        "--baseline-path",
        metavar="DIR",
        type=Path,
        help="also time the server of the checkout in DIR (its src/, as it is)",
    )
    args = parser.parse_args()
    if args.baseline_ref and args.baseline_path:
        parser.error("--baseline-ref and --baseline-path: one baseline at a time")
    if args.baseline_path and not (args.baseline_path / "src" / "kniffel").is_dir():
        parser.error(f"--baseline-path {args.baseline_path}: no src/kniffel in it")
    if not 1 <= args.runs <= MAX_RUNS:
        parser.error(f"--runs must be between 1 and {MAX_RUNS}")
    cases: list[tuple[str, dict[str, str], bool]] = [
        ("fresh database", {}, True),
        ("database at the newest schema", {}, False),
    ]
    if args.no_bytecode:
        cases.append(
            ("at the newest schema, no bytecode written", {"PYTHONDONTWRITEBYTECODE": "1"}, False)
        )
    parser_ref = args.baseline_ref or args.baseline_path
    servers: list[tuple[str, dict[str, str] | None]] = [("this checkout", None)]
    with contextlib.ExitStack() as stack:
        if args.baseline_ref:
            servers.insert(
                0, (describe(args.baseline_ref), stack.enter_context(checkout(args.baseline_ref)))
            )
        elif args.baseline_path:
            source = str(args.baseline_path.resolve() / "src")
            # Its bytecode goes to a folder of this run: nothing is written into that checkout.
            bytecode = stack.enter_context(tempfile.TemporaryDirectory(prefix="kniffel-pyc-"))
            env = {**os.environ, "PYTHONPATH": source, "PYTHONPYCACHEPREFIX": bytecode}
            servers.insert(0, (str(args.baseline_path), env))
        medians: dict[tuple[str, str], float] = {}
        print(f"kniffel serve, start to first answer of GET / ({args.runs} runs each), seconds")
        for name, base in servers:
            print(name)
            with tempfile.TemporaryDirectory(prefix="kniffel-start-") as tmp:
                folder = Path(tmp)
                cache = {"KNIFFEL_CACHE_DIR": str(folder / "cache")}
                kept = folder / "kept.db"
                first_answer(kept, cache, base)  # migrate it once
                for label, extra, fresh in cases:
                    times, cpus = [], []
                    for run in range(args.runs):
                        db = folder / f"fresh-{run}-{len(label)}.db" if fresh else kept
                        wall, cpu = first_answer(db, {**cache, **extra}, base)
                        times.append(wall)
                        cpus.append(cpu)
                    medians[(name, label)] = statistics.median(times)
                    print(
                        f"  {label:<44} median {statistics.median(times):5.2f}"
                        f"  min {min(times):5.2f}  max {max(times):5.2f}"
                        f"  server CPU median {statistics.median(cpus):5.2f}"
                    )
        if parser_ref:
            for label, _, _ in cases:
                ratio = medians[("this checkout", label)] / medians[(servers[0][0], label)]
                print(f"this checkout / {servers[0][0]}, {label}: x{ratio:.2f}")


if __name__ == "__main__":
    main()
