"""Browser tests: the board served by uvicorn on a free port, driven by Debian's chromium.

Playwright's own browsers are never downloaded; the tests launch the chromium
that ``apt-get install chromium`` puts at :data:`CHROMIUM`. Without it they
skip with the reason, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from .webdriver import DRIVER as WEBKIT_DRIVER
from .webdriver import MINIBROWSER, Driver, webkit_driver

#: How long Playwright's ``expect`` waits for what it checks (its default is 5 s). Under the
#: CPU burner of ``benchmarks/flaky.py``, at load average 27, a board's live socket opened later
#: than 5 s and the keyboard tests failed in ``open_board`` (docs/benchmarks.md, "Keyboard tests
#: under a CPU burner"). As long as the WebKit tests wait (``tests/e2e/webdriver.py``).
EXPECT_TIMEOUT_MS = 20_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)

#: Debian's real binary (``/usr/bin/chromium`` is a wrapper); ``KNIFFEL_CHROMIUM`` overrides it.
CHROMIUM = Path(os.environ.get("KNIFFEL_CHROMIUM", "/usr/lib/chromium/chromium"))
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's chromium, started for this package only.

    Playwright's sync API keeps an event loop running in the main thread while
    it is started; stopping it after the browser tests lets later tests use
    ``asyncio.run`` again (pytest-playwright's own fixtures last the session).
    """
    if not CHROMIUM.exists():
        reason = f"Debian chromium is missing at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield chromium
        chromium.close()


@contextmanager
def running_board(
    folder: Path, command: list[str], env: dict[str, str] | None = None
) -> Iterator[str]:
    """A board process started with ``command`` on a free loopback port, until the block ends.

    ``command`` takes the port in place of ``{port}``; the board's address comes back once it
    answers ``/``.
    """
    with board_process(folder, command, env) as (url, _):
        yield url


@contextmanager
def board_process(
    folder: Path,
    command: list[str],
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """:func:`running_board` with its process (for a test that kills it) and a port of the
    test's choosing (for a board started again where the pages know it)."""
    port = port or _free_port()
    settings = {
        **os.environ,
        "KNIFFEL_DB": f"sqlite:///{folder / 'kniffel.db'}",
        "KNIFFEL_PREBUILD_TABLES": "1",
        # The Tipp's simulated reasons from a small bound of work: the page's tests wait for them
        # to follow, not for their figures (tests/web/test_advice.py holds the full bound).
        "KNIFFEL_TIPP_WORK": "6000",
        # A Jamb or Yams end chart from two bot games a sheet and round: a few seconds, not the
        # built-in 40 s of CPU (the page's tests wait for the chart, not for its figures).
        "KNIFFEL_CHART_WORK": "20000",
        **(env or {}),
    }
    log = (folder / "server.log").open("ab")
    process = subprocess.Popen(
        [part.replace("{port}", str(port)) for part in command],
        env=settings,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine starts it slowly
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = (folder / "server.log").read_text(errors="replace")
                pytest.fail(f"the board did not start:\n{output}")
            time.sleep(0.1)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


#: The board as the package's servers run it: ``{port}`` is a free loopback port.
BOARD = [
    sys.executable,
    "-m",
    "uvicorn",
    "kniffel.web.app:create_app",
    "--factory",
    "--host",
    "127.0.0.1",
    "--port",
    "{port}",
    "--log-level",
    "warning",
]


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory, preset_tables: None) -> Iterator[str]:
    """The board as a real server on 127.0.0.1 with a fresh SQLite file.

    It finds the presets' tables in the session's cache, as a server does after its first start.
    """
    with running_board(tmp_path_factory.mktemp("e2e"), BOARD) as url:
        yield url


@pytest.fixture(scope="package")
def full_work_server(
    tmp_path_factory: pytest.TempPathFactory, preset_tables: None
) -> Iterator[str]:
    """The board with a larger bound of work behind the Tipp's reasons than the package's other
    servers (20,000; the built-in ``turn_ends.WORK`` would only make the tests longer): early in
    a game the final figures then take five times the first answer's bound
    (``turn_ends.FIRST_WORK``: 4,000 in Rauf-Runter), and the page gets the first answer as
    soon as it is there (the panel's wait ends then), so the first answer shows first
    (docs/solver.md, "The Tipp's reasons")."""
    env = {"KNIFFEL_TIPP_WORK": "20000"}
    with running_board(tmp_path_factory.mktemp("e2e-full-work"), BOARD, env) as url:
        yield url


@pytest.fixture(scope="package")
def webkit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Driver]:
    """WebKit (iPhones' engine): Debian's WebKitWebDriver under xvfb-run, for this package.

    Missing, the WebKit tests skip with the reason, except in CI (``CI=true``), where they fail.
    """
    missing = [str(path) for path in (WEBKIT_DRIVER, MINIBROWSER) if not path.exists()]
    if not shutil.which("xvfb-run"):
        missing.append("xvfb-run")
    if missing:
        install = "apt-get install -y webkit2gtk-driver xvfb"
        reason = f"WebKit is missing ({', '.join(missing)}): {install}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with webkit_driver(tmp_path_factory.mktemp("webkit") / "driver.log") as driver:
        yield driver
