"""``benchmarks/flaky.py`` repeats a test faithfully, also when only one test is chosen.

Its first WebKit runs (one keyboard test) failed from the second run on with the test's module
fixture missing: the script had listed the same collected item again (docs/benchmarks.md,
"Keyboard tests under a CPU burner").
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

FLAKY = Path(__file__).resolve().parents[1] / "benchmarks" / "flaky.py"


def _flaky() -> ModuleType:
    spec = importlib.util.spec_from_file_location("flaky_benchmark", FLAKY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_test_repeated_has_its_module_fixture_every_run(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_one.py").write_text(
        "import pytest\n\n"
        "@pytest.fixture(scope='module')\n"
        "def window():\n"
        "    yield 'open'\n\n"
        "def test_one(window):\n"
        "    assert window == 'open'\n"
    )
    repeat = _flaky().Repeat(3, None)
    pytest.main(
        [
            str(tmp_path / "test_one.py"),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:playwright",  # this session's own plugin, already running
            "-c",
            str(tmp_path / "pytest.ini"),
            "--rootdir",
            str(tmp_path),
        ],
        plugins=[repeat],
    )
    assert sum(repeat.failures.values()) == 0, repeat.messages
    assert sum(repeat.runs_done.values()) == 3


class Deselected:
    """Counts the items ``-k`` leaves out."""

    def __init__(self) -> None:
        self.count = 0

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.count += len(items)


def test_only_the_tests_chosen_by_k_are_repeated(tmp_path: Path) -> None:
    """``-k keyboard --runs 50`` once built 50 copies of every test of the files and let ``-k``
    drop them afterwards: the copies are made of the chosen tests only."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_two.py").write_text(
        "def test_keyboard():\n    pass\n\n"
        + "".join(f"def test_other_{number}():\n    pass\n\n" for number in range(5))
    )
    repeat = _flaky().Repeat(4, None)
    deselected = Deselected()
    pytest.main(
        [
            str(tmp_path / "test_two.py"),
            *_flaky().options("keyboard"),
            "-p",
            "no:playwright",
            "-c",
            str(tmp_path / "pytest.ini"),
            "--rootdir",
            str(tmp_path),
        ],
        plugins=[repeat, deselected],
    )
    assert dict(repeat.runs_done) == {"test_two.py::test_keyboard": 4}
    assert deselected.count == 5, f"{deselected.count} copies were built and left out"


def test_each_failing_run_counts_once_whichever_of_its_phases_failed(
    tmp_path: Path,
) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_both.py").write_text(
        "import pytest\n\n"
        "@pytest.fixture\n"
        "def broken():\n"
        "    yield\n"
        "    raise RuntimeError('teardown')\n\n"
        "def test_both(broken):\n"
        "    assert False\n\n"
        "def test_teardown(broken):\n"
        "    pass\n"
    )
    repeat = _flaky().Repeat(3, None)
    pytest.main(
        [
            str(tmp_path / "test_both.py"),
            *_flaky().options("both"),
            "-p",
            "no:playwright",
            "-c",
            str(tmp_path / "pytest.ini"),
            "--rootdir",
            str(tmp_path),
        ],
        plugins=[repeat],
    )
    # (a run that failed only in its teardown once counted only if the test had never failed)
    assert dict(repeat.failures) == {"test_both.py::test_both": 3, "test_both.py::test_teardown": 3}
    assert len(repeat.messages["test_both.py::test_both"]) == 6  # each phase's error is kept
