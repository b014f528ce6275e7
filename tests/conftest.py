"""Settings for the whole test session."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from kniffel.solver.builds import Table

#: The files that take longest, longest first (seconds of one quiet run, 4 December 2026). CI
#: runs the tests in two processes that take whole files (``-n 2 --dist loadfile``,
#: docs/decisions.md) in the order collected (``--no-loadscope-reorder`` in pyproject.toml):
#: started first, these end before the many small files, which fill the gaps, so neither
#: process waits idle at the end for a long file that came last (docs/contributing.md).
SLOW_FILES_FIRST = (
    "tests/web/test_advice.py",  # 270
    "tests/e2e/test_offline.py",  # 180 (14 tests, Pyodide started in most; CI, 6 December 2026)
    "tests/e2e/test_webkit.py",  # 90
    "tests/e2e/test_tipp_reasons.py",  # 81
    "tests/e2e/test_chances.py",  # 74
    "tests/e2e/test_yams_family_game.py",  # 36
    "tests/e2e/test_walk.py",  # 70
    "tests/web/test_chances.py",  # 66
    "tests/e2e/test_jamb_family_games.py",  # 57
    "tests/e2e/test_client_state.py",  # 57
    "tests/e2e/test_full_game.py",  # 50
    "tests/e2e/test_board_state.py",  # 41
    "tests/e2e/test_phone_geometry.py",  # 40
    "tests/test_differential.py",  # 39
    "tests/solver/test_column.py",  # 35
    "tests/test_cli_hardening.py",  # 34
    "tests/e2e/test_player_yardstick.py",  # 30
    "tests/e2e/test_accessibility.py",  # 28
    "tests/e2e/test_device_game.py",  # 26
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow files first (:data:`SLOW_FILES_FIRST`), each file's tests together and in
    their own order, every other file after them as collected."""
    root = config.rootpath
    rank = {name: n for n, name in enumerate(SLOW_FILES_FIRST)}

    def place(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(root).as_posix(), len(rank))

    items.sort(key=place)  # stable: the order within a file and among the rest is kept


def run_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this test run, the same for every process of it.

    Under pytest-xdist (``-n 2``, docs/decisions.md) each worker has a base temp folder of its
    own inside the run's (``…/pytest-N/popen-gw0``); without it, the session's own. A worker
    is known by its config (its environment would be inherited by the processes it starts).
    """
    base = tmp_path_factory.getbasetemp()
    return base.parent if hasattr(request.config, "workerinput") else base


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Solver tables go to a fresh directory, never the user's cache, shared by the run.

    Shared by every worker process of the run too, so a table one of them built is found by
    the others (the cache writes each file whole, under a temporary name first).

    Set in the environment, so servers that tests start in a subprocess use it too. Those
    servers (and the test apps) do not build the presets' tables in the background at
    start (``KNIFFEL_PREBUILD_TABLES=0``): tests that read advice ask for
    :func:`preset_tables`, and the tests of the background builds switch it on. Nor do
    they review finished games in the background (``KNIFFEL_BACKGROUND=0``: a test counts
    what its own requests do); tests/web/test_background.py switches it on. Nor do they
    freeze what start-up made (``KNIFFEL_GC_FREEZE=0``).
    """
    folder = run_folder(request, tmp_path_factory) / "kniffel-cache"
    folder.mkdir(exist_ok=True)
    _seed_from_prebuilt(folder)
    path = str(folder)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KNIFFEL_CACHE_DIR", path)
        patch.setenv("KNIFFEL_PREBUILD_TABLES", "0")
        # Nor do the games a test makes queue their house rules' tables (each would cost a build
        # and a share of the one test address's two combinations an hour): the tests of that
        # switch it on (tests/web/test_tables_at_creation.py).
        patch.setenv("KNIFFEL_TABLES_AT_CREATION", "0")
        # Nor, even where a test switches the presets' builds on, the exact win-chance tables
        # (minutes of CPU each: tests/solver/chances/test_finals_table.py builds small ones).
        patch.setenv("KNIFFEL_EXACT_CHANCES", "0")
        patch.setenv("KNIFFEL_BACKGROUND", "0")
        # A test process starts hundreds of apps: each start would make what earlier tests
        # left alive permanent (tests/web/test_gc_freeze.py switches it on).
        patch.setenv("KNIFFEL_GC_FREEZE", "0")
        # The work no request does at the requests' priority: two test processes share the
        # cores, and at nice 10 each one's background (the Tipp's reasons a test waits for)
        # waited for the other's browsers and servers (70 s in CI for a test that takes 7 alone);
        # tests/web/test_priority.py holds the board's own nice 10 (docs/cli.md,
        # KNIFFEL_BACKGROUND_NICE).
        patch.setenv("KNIFFEL_BACKGROUND_NICE", "0")
        # The hundreds of Python processes the tests start (servers, CLI runs) share one
        # bytecode folder of the run: where the machine says not to write bytecode
        # (PYTHONDONTWRITEBYTECODE, as CI's does), each of them compiled every library it
        # imports from source again, a second of CPU a start. Nothing goes into the
        # checkout or the environment; benchmarks/start.py measures starts without bytecode.
        bytecode = run_folder(request, tmp_path_factory) / "bytecode"
        bytecode.mkdir(exist_ok=True)
        patch.setenv("PYTHONPYCACHEPREFIX", str(bytecode))
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield path


def _seed_from_prebuilt(folder: Path) -> None:
    """For development only: ``KNIFFEL_TEST_TABLES=DIR`` copies the tables built in DIR (by a
    run of ``preset_tables`` with ``KNIFFEL_CACHE_DIR=DIR``) into the run's fresh cache, so that
    a targeted run does not build the presets' tables again (docs/contributing.md). CI never
    sets it."""
    prebuilt = os.environ.get("KNIFFEL_TEST_TABLES")
    if not prebuilt or os.environ.get("CI"):
        return
    for source in Path(prebuilt).iterdir():
        target = folder / source.name
        if source.is_file() and not target.exists():
            shutil.copyfile(source, target)


@pytest.fixture(autouse=True)
def kniffel_environment_kept() -> Iterator[None]:
    """Every ``KNIFFEL_*`` variable is as it was after each test.

    ``kniffel serve --workers N`` leaves its settings in the environment for its worker
    processes; run in-process by a test, it would hand them (a public URL, say) to every later
    test's app.
    """
    before = {name: value for name, value in os.environ.items() if name.startswith("KNIFFEL_")}
    yield
    for name in [name for name in os.environ if name.startswith("KNIFFEL_")]:
        if name not in before:
            del os.environ[name]
    os.environ.update(before)


@pytest.fixture(scope="session")
def preset_tables(private_cache_dir: str) -> None:
    """The presets' tables (default options), built once in the run's cache dir.

    So that the board finds them ready, as a server does once its first start built them.
    Each table is built by one process of the run: a worker builds those that no other is
    building (a lock file per table), then waits for the others' and reads them from the cache.
    """
    from kniffel.solver.builds import preset_tables as tables

    locks = Path(private_cache_dir).with_name("kniffel-cache-locks")
    locks.mkdir(exist_ok=True)
    busy: list[tuple[int, Table]] = []
    for number, table in enumerate(tables()):
        with (locks / f"{number}.lock").open("w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                busy.append((number, table))
                continue
            _build(table)
    for number, table in busy:
        with (locks / f"{number}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            _build(table)  # read from the cache the other process wrote


def _build(table: Table) -> None:
    """One of :func:`kniffel.solver.builds.preset_tables`, built here or read from the cache."""
    from kniffel.solver.exact.chance_table import column_chances
    from kniffel.solver.exact.column import solve_column
    from kniffel.solver.raufrunter.bounds import arrow_table

    if table.discipline is None:
        arrow_table(table.options)
    elif table.chances:
        column_chances(table.options, table.discipline)
    else:
        solve_column(table.options, table.discipline)
