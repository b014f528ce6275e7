"""Flaky count: the keyboard tests of the board, run many times on a busy machine.

Run: ``uv run python benchmarks/flaky.py [--runs 50] [--burners N] [-k keyboard] [--tables DIR]
[--engine chromium|webkit]``.
It starts ``--burners`` processes that keep a CPU core busy each (default: one per core; at
``nice`` 19, so they take only what the machine's other work leaves),
runs the chosen browser tests (default: every test named ``keyboard`` in
``tests/e2e/test_client_state.py`` and ``tests/e2e/test_board_state.py``; with ``--engine webkit``
those in ``tests/e2e/test_webkit.py``, driven through WebKitWebDriver) ``--runs`` times in one
pytest session (``-k`` chooses first, then the chosen tests are repeated; ``-n 0`` where
pytest-xdist is installed), stops the burners and prints per test its runs and failures and the
load average. A failing run's assertion names the page's ``focusin`` events (docs/board.md, "One
client state"), so ``--show`` prints each failure's place and error lines.

The tests need Debian's chromium (tests/e2e/conftest.py). The session builds the presets'
tables once before the first test (minutes on two cores); ``--tables DIR`` copies tables built
before (a ``KNIFFEL_CACHE_DIR``) into the session's cache instead. Issue 19 asks for 0 failures
in 50 runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = {
    "chromium": ["tests/e2e/test_client_state.py", "tests/e2e/test_board_state.py"],
    "webkit": ["tests/e2e/test_webkit.py"],
}


def burn(stop: Any) -> None:
    """Keeps one core busy until ``stop`` is set, at the lowest priority: the machine is shared,
    and a burner only has to fill the time the tests' own processes leave."""
    os.nice(19)
    while not stop.is_set():
        sum(i * i for i in range(10_000))


class Repeat:
    """A pytest plugin: every chosen test ``runs`` times, failures counted per test."""

    def __init__(self, runs: int, tables: Path | None) -> None:
        self.runs = runs
        self.tables = tables
        self.runs_done: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.messages: dict[str, list[str]] = {}
        self.config: pytest.Config | None = None
        self.run_failed = False  # the run under way has failed in one of its phases

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Generator[None, Any, None]:
        outcome = yield
        if self.tables is not None and fixturedef.argname == "private_cache_dir":
            shutil.copytree(self.tables, outcome.get_result(), dirs_exist_ok=True)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Repeats the tests ``-k`` and ``-m`` kept: their own hooks run before this one, so
        the copies are made of the chosen tests only, not of every test of the files."""
        items[:] = [item if run == 0 else again(item) for run in range(self.runs) for item in items]

    def pytest_configure(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "setup":
            self.runs_done[report.nodeid] += 1
            self.run_failed = False
        if report.failed:
            # A run fails once even if its teardown fails after its call.
            if not self.run_failed:
                self.failures[report.nodeid] += 1
            self.run_failed = True
            text = failure_text(report)
            self.messages.setdefault(report.nodeid, []).append(text)
            # Read as it happens: a long run stopped early (Ctrl-C) still says what failed.
            terminal = self.config and self.config.pluginmanager.get_plugin("terminalreporter")
            if terminal is not None:
                terminal.write_line(f"\n--- failed: {report.nodeid}\n{text}")


def failure_text(report: pytest.TestReport) -> str:
    """Where a run failed and its error lines, which name the page's ``focusin`` events."""
    crash = getattr(report.longrepr, "reprcrash", None)
    where = f"{crash.path}:{crash.lineno}" if crash is not None else report.when
    errors = [line for line in report.longreprtext.splitlines() if line.startswith("E ")]
    return f"({report.when}) {where}\n" + "\n".join(errors[-30:] or [report.longreprtext[-2000:]])


def again(item: pytest.Item) -> pytest.Item:
    """A fresh copy of a collected test: pytest sets a test up and tears it down by the item,
    so the same item twice in a row (one test chosen) kept the first run's state and found no
    fixtures in the second."""
    if not isinstance(item, pytest.Function):
        return item
    return pytest.Function.from_parent(
        item.parent,
        name=item.name,
        callspec=getattr(item, "callspec", None),
        callobj=item.obj,
        keywords=item.keywords,
        fixtureinfo=item._fixtureinfo,
        originalname=item.originalname,
    )


def options(keyword: str) -> list[str]:
    """pytest's options: one process, so that every run shares this one's burners and counts
    (pytest-xdist, where installed, would spread the runs over workers this plugin never sees)."""
    chosen = ["-k", keyword, "-q", "-p", "no:cacheprovider"]
    if importlib.util.find_spec("xdist") is not None:
        chosen += ["-n", "0"]  # xdist stays loaded: the project's addopts name its options
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="runs of each test (default 50)")
    parser.add_argument(
        "--burners", type=int, default=os.cpu_count() or 1, help="busy processes (default: cores)"
    )
    parser.add_argument("-k", dest="keyword", default="keyboard", help="pytest -k expression")
    parser.add_argument("--tables", type=Path, help="a folder of tables built before")
    parser.add_argument("--show", action="store_true", help="print the start of each failure")
    parser.add_argument(
        "--engine", choices=sorted(TESTS), default="chromium", help="the browser engine's tests"
    )
    args = parser.parse_args()
    if not 1 <= args.runs <= 1000 or not 0 <= args.burners <= 64:
        parser.error("--runs is 1 to 1000, --burners 0 to 64")
    os.chdir(ROOT)
    repeat = Repeat(args.runs, args.tables)
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,)) for _ in range(args.burners)]
    for process in burners:
        process.start()
    started = time.perf_counter()
    try:
        pytest.main([*TESTS[args.engine], *options(args.keyword)], plugins=[repeat])
    finally:
        stop.set()
        for process in burners:
            process.join()
    seconds = time.perf_counter() - started
    names = sorted(repeat.runs_done)
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\n{args.engine}: {args.burners} CPU burners, {seconds:.0f} s, load average {load}")
    print("  runs  failed  test")
    for name in names:
        print(f"  {repeat.runs_done[name]:4d}  {repeat.failures[name]:6d}  {name}")
    total = sum(repeat.failures.values())
    print(f"failures: {total} of {sum(repeat.runs_done.values())} test runs")
    if args.show:
        for name, messages in repeat.messages.items():
            for number, message in enumerate(messages, start=1):
                print(f"\n--- {name} (failure {number})\n{message}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
