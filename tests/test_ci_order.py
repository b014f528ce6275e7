"""The run takes the slow files first (tests/conftest.py, docs/contributing.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import SLOW_FILES_FIRST

ROOT = Path(__file__).parent.parent


def test_every_slow_file_named_first_exists() -> None:
    missing = [name for name in SLOW_FILES_FIRST if not (ROOT / name).is_file()]
    assert missing == [], "renamed or removed: update SLOW_FILES_FIRST"
    assert len(set(SLOW_FILES_FIRST)) == len(SLOW_FILES_FIRST)


def test_the_run_collects_the_slow_files_first_and_each_file_together() -> None:
    """Collected as pytest finds them, the e2e files come before tests/web/; the run takes
    the slow ones first, in the order named, and the rest as found."""
    named = [
        "tests/e2e/test_live.py",
        "tests/test_kept.py",
        "tests/web/test_advice.py",
        "tests/e2e/test_webkit.py",
    ]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *named],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ids = [line for line in collected.splitlines() if "::" in line]
    files = [line.split("::")[0] for line in ids]
    stretches = [name for n, name in enumerate(files) if n == 0 or files[n - 1] != name]
    assert stretches == [
        "tests/web/test_advice.py",
        "tests/e2e/test_webkit.py",
        "tests/e2e/test_live.py",
        "tests/test_kept.py",
    ]
