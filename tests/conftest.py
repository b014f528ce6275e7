"""Settings for the whole test session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Solver tables go to a fresh directory, never the user's cache, shared by the session.

    Set in the environment, so servers that tests start in a subprocess use it too. Those
    servers (and the test apps) do not build the presets' tables in the background at
    start (``KNIFFEL_PREBUILD_TABLES=0``): tests that read advice ask for
    :func:`preset_tables`, and the tests of the background builds switch it on. Nor do
    they review finished games in the background (``KNIFFEL_BACKGROUND=0``: a test counts
    what its own requests do); tests/web/test_background.py switches it on. Nor do they
    freeze what start-up made (``KNIFFEL_GC_FREEZE=0``).
    """
    path = str(tmp_path_factory.mktemp("kniffel-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KNIFFEL_CACHE_DIR", path)
        patch.setenv("KNIFFEL_PREBUILD_TABLES", "0")
        patch.setenv("KNIFFEL_BACKGROUND", "0")
        # A test process starts hundreds of apps: each start would make what earlier tests
        # left alive permanent (tests/web/test_gc_freeze.py switches it on).
        patch.setenv("KNIFFEL_GC_FREEZE", "0")
        yield path


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
    """The presets' tables (default options), built once in the session's cache dir.

    So that the board finds them ready, as a server does once its first start built them.
    """
    from kniffel.solver.builds import preset_tables as tables
    from kniffel.solver.exact.chance_table import column_chances
    from kniffel.solver.exact.column import solve_column
    from kniffel.solver.raufrunter.bounds import arrow_table

    for table in tables():
        if table.discipline is None:
            arrow_table(table.options)
        elif table.chances:
            column_chances(table.options, table.discipline)
        else:
            solve_column(table.options, table.discipline)
