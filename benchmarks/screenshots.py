"""The README's screenshots: the board at phone and desktop size, written to docs/screenshots/.

Runs ``tests/e2e/test_screenshots.py`` and ``test_review_phone.py`` with ``KNIFFEL_SCREENSHOTS=1``
(they start their own server on loopback and drive Debian's chromium). The default test run
writes no picture, so only this script ever rewrites them::

    uv run python benchmarks/screenshots.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    env = {**os.environ, "KNIFFEL_SCREENSHOTS": "1"}
    tests = [
        ROOT / "tests" / "e2e" / name for name in ("test_screenshots.py", "test_review_phone.py")
    ]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    done = subprocess.run([*command, *map(str, tests)], cwd=ROOT, env=env, check=False)
    if done.returncode == 0:
        print(f"written: {ROOT / 'docs' / 'screenshots'}")
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
