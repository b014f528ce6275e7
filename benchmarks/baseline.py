"""Run a benchmark's server from another git ref, side by side with this checkout.

``checkout(ref)`` puts the ref into a temporary ``git worktree`` and yields the
environment that makes ``python -m kniffel`` import *its* package: ``PYTHONPATH``
names its ``src`` folder, which Python searches before the editable install of
this checkout. The virtual environment (the dependencies) is this checkout's,
so a ref whose dependencies differ may not start; the benchmarks say so. The
worktree is removed afterwards.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def checkout(ref: str) -> Iterator[dict[str, str]]:
    """The environment for a server built from ``ref`` (a branch, tag or commit)."""
    folder = Path(tempfile.mkdtemp(prefix="kniffel-baseline-"))
    tree = folder / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield {**os.environ, "PYTHONPATH": str(tree / "src")}
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def describe(ref: str) -> str:
    """``ref`` with its short commit id, for the printed figures."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref],
        capture_output=True,
        text=True,
        check=False,
    )
    return f"{ref} ({done.stdout.strip()})" if done.returncode == 0 else ref


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
