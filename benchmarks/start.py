"""How long ``kniffel --help`` takes, and ``kniffel serve`` to its first answer, without bytecode.

Run with ``uv run python benchmarks/start.py [--runs 5] [--against PATH | --against-ref REF]
[--compiled]``. Every case runs with ``PYTHONDONTWRITEBYTECODE=1`` (as this machine and many
containers set it) and its bytecode in a folder of this run (``PYTHONPYCACHEPREFIX``), so each
start compiles every module it imports from source, as a fresh container does; nothing is written
into a checkout. The figures, medians of ``--runs`` runs (5 by default, at most 10):

- **help**: ``python -m kniffel --help``, start to exit;
- **serve**: ``python -m kniffel serve`` on a free 127.0.0.1 port, from ``Popen`` to the first 200
  of ``GET /`` (asked every 10 ms), on a database already at the newest schema (migrated by one
  unmeasured start), with the server's CPU seconds by then (``/proc/PID/stat``);
- **libraries**: ``python -c "import fastapi, sqlalchemy, uvicorn, jinja2, pydantic_settings"``,
  what any start of the board imports: the floor under **serve** without bytecode.

``--against PATH`` runs the same cases for the sources of another checkout as they are (its
``src`` is imported first; e.g. ``git worktree add ../main-start main``), ``--against-ref REF`` for
a git ref put into a temporary worktree (``benchmarks/baseline.py``); the two are printed side by
side. ``--compiled`` adds the cases with the bytecode compiled beforehand (one start that may write
it into the run's folder, then the measured ones that may not), as an install that compiles it
(``uv sync --compile-bytecode``) runs. ``--installed`` adds the cases as the environment is
installed: no bytecode folder of the run, so Python reads the bytecode next to the sources where
the install wrote it (``uv sync`` does for the libraries: ``compile-bytecode`` in pyproject.toml;
not for the project's own sources, installed editable), and writes none.
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
from collections.abc import Callable
from pathlib import Path

from baseline import checkout, cpu_seconds, describe
from load import stop

HOST = "127.0.0.1"
MAX_RUNS = 10
LIBRARIES = "import fastapi, sqlalchemy, uvicorn, jinja2, pydantic_settings"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def timed_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``command`` to its exit (which must be 0), and its CPU seconds."""
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def first_answer(db: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting the server to its first 200 for ``GET /``, and its CPU seconds."""
    port = free_port()
    env = {**env, "KNIFFEL_DB": f"sqlite:///{db}"}
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
        stop(server)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def measure(base: dict[str, str], runs: int, compiled: bool, installed: bool) -> dict[str, str]:
    """Each case's figure for one checkout (``base``: its environment), as printed."""
    figures: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="kniffel-start-") as tmp:
        folder = Path(tmp)
        env = {
            **base,
            "KNIFFEL_CACHE_DIR": str(folder / "cache"),
            "PYTHONPYCACHEPREFIX": str(folder / "none"),  # never written: no bytecode to read
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        db = folder / "kept.db"
        first_answer(db, env)  # migrates it, unmeasured
        modes = [("no bytecode", env)]
        if installed:
            # The environment's own bytecode (what its install compiled) and none written.
            own = {key: value for key, value in env.items() if key != "PYTHONPYCACHEPREFIX"}
            modes.append(("as installed", own))
        if compiled:
            read = {**env, "PYTHONPYCACHEPREFIX": str(folder / "pyc")}
            writing = {
                key: value for key, value in read.items() if key != "PYTHONDONTWRITEBYTECODE"
            }
            timed_run([sys.executable, "-m", "kniffel", "--help"], writing)
            timed_run([sys.executable, "-c", LIBRARIES], writing)
            first_answer(db, writing)
            modes.append(("bytecode compiled before", read))
        for mode, mode_env in modes:
            cases: list[tuple[str, Callable[[], tuple[float, float]]]] = [
                (
                    "help",
                    lambda e=mode_env: timed_run([sys.executable, "-m", "kniffel", "--help"], e),
                ),
                ("serve", lambda e=mode_env: first_answer(db, e)),
                ("libraries", lambda e=mode_env: timed_run([sys.executable, "-c", LIBRARIES], e)),
            ]
            for case, run in cases:
                walls, cpus = [], []
                for _ in range(runs):
                    wall, cpu = run()
                    walls.append(wall)
                    cpus.append(cpu)
                figures[f"{case}, {mode}"] = (
                    f"{statistics.median(walls):5.2f} s ({min(walls):.2f}-{max(walls):.2f})"
                    f" CPU {statistics.median(cpus):.2f}"
                )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help=f"runs per case (1..{MAX_RUNS})")
    parser.add_argument(
        "--against",
        metavar="PATH",
        type=Path,
        help="also time the checkout in PATH (its src/, as it is), side by side",
    )
    parser.add_argument("--against-ref", metavar="REF", help="also time this git ref, side by side")
    parser.add_argument(
        "--compiled", action="store_true", help="also time each case with bytecode compiled before"
    )
    parser.add_argument(
        "--installed",
        action="store_true",
        help="also time each case with the bytecode its environment has (none written)",
    )
    args = parser.parse_args()
    if args.against and args.against_ref:
        parser.error("--against and --against-ref: one at a time")
    if args.against and not (args.against / "src" / "kniffel").is_dir():
        parser.error(f"--against {args.against}: no src/kniffel in it")
    if not 1 <= args.runs <= MAX_RUNS:
        parser.error(f"--runs must be between 1 and {MAX_RUNS}")
    print(f"medians of {args.runs} runs, PYTHONDONTWRITEBYTECODE=1; at the start: {load()}")
    columns: list[tuple[str, dict[str, str]]] = []
    with contextlib.ExitStack() as stack:
        if args.against_ref:
            env = stack.enter_context(checkout(args.against_ref))
            columns.append((describe(args.against_ref), env))
        elif args.against:
            env = {**os.environ, "PYTHONPATH": str(args.against.resolve() / "src")}
            columns.append((str(args.against), env))
        columns.append(("this checkout", dict(os.environ)))
        results = [
            (name, measure(env, args.runs, args.compiled, args.installed)) for name, env in columns
        ]
    print(f"at the end: {load()}")
    width = max(len(case) for _, figures in results for case in figures)
    print(f"{'':<{width}}  " + "  ".join(f"{name:<30}" for name, _ in results))
    for case in results[0][1]:
        print(f"{case:<{width}}  " + "  ".join(f"{figures[case]:<30}" for _, figures in results))


if __name__ == "__main__":
    main()
