"""The ↓↑ table of Rauf-Runter on disk: read back equal to a fresh solve, never from other code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kniffel.rules import get_variant
from kniffel.solver.builds import Table, TableBuilds
from kniffel.solver.raufrunter import arrows_name, bounds, stored

#: House rules no other test solves a ↓↑ table for (12 rows: a little quicker).
OPTIONS = get_variant("rauf-runter", {"chance": False, "pasch": "matching_dice"}).options
KEY = stored.arrows_key(OPTIONS)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(bounds, "_SOLVED", {})  # nothing solved in this process yet
    return tmp_path


def _shape() -> tuple[int, int, int, int]:
    return (13, 13, bounds.N_SUMS, bounds.N_SUMS)


def test_a_stored_table_is_read_back_equal_to_a_fresh_solve(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = bounds._arrow_table(KEY)
    assert not stored.is_stored(KEY)
    assert not TableBuilds().is_ready(Table(OPTIONS, None))

    first = bounds.arrow_table(OPTIONS)  # solved here and written
    path = stored.path_for(KEY)
    assert path.parent == cache_dir and path.exists()
    assert stored.fingerprint() in path.name
    assert stored.is_stored(KEY) and TableBuilds().is_ready(Table(OPTIONS, None))

    def no_solving(options: object) -> None:
        raise AssertionError("the table was solved again instead of read")

    monkeypatch.setattr(bounds, "_SOLVED", {})  # as in a new process
    monkeypatch.setattr(bounds, "_arrow_table", no_solving)
    read = bounds.arrow_table(OPTIONS)
    assert read is not first
    assert np.array_equal(read.values, fresh.values)
    assert np.array_equal(first.values, fresh.values)
    assert read.ev == fresh.ev
    assert not read.values.flags.writeable


def test_the_table_solved_by_two_processes_is_the_one_solved_by_one_bit_for_bit() -> None:
    """A game's ↓↑ table is built by two processes on two cores (kniffel.solver.builds.
    GAME_WORKERS), each level's cells shared: the same values as one process's."""
    alone = bounds._arrow_table(KEY)
    shared = bounds._arrow_table(KEY, 2)
    assert np.array_equal(shared.values, alone.values)
    assert shared.ev == alone.ev
    assert not shared.values.flags.writeable


def test_a_table_written_by_other_code_is_not_read_and_is_replaced(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arrows_name, "fingerprint", lambda: "0123456789abcdef")
    old = stored.save(KEY, np.zeros(_shape()))
    assert old is not None and old.exists()
    assert stored.load(KEY, _shape()) is not None
    monkeypatch.undo()
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(cache_dir))

    # Other code (another fingerprint): neither stored for this code nor read.
    assert not stored.is_stored(KEY)
    assert stored.load(KEY, _shape()) is None
    new = stored.save(KEY, np.ones(_shape()))
    assert new is not None and new != old
    assert not old.exists()  # the stale file is removed once the table is written anew
    values = stored.load(KEY, _shape())
    assert values is not None and np.array_equal(values, np.ones(_shape()))


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"not a table"),
        lambda path: path.write_bytes(path.read_bytes()[:200]),
    ],
    ids=["garbage", "truncated"],
)
def test_a_damaged_or_misshapen_file_counts_as_missing(cache_dir: Path, damage: object) -> None:
    path = stored.save(KEY, np.ones(_shape()))
    assert path is not None
    assert stored.load(KEY, (12, 12, 64, 64)) is None  # written for another number of rows
    assert callable(damage)
    damage(path)
    assert not stored.is_stored(KEY)
    assert stored.load(KEY, _shape()) is None


def test_an_unwritable_cache_dir_still_gives_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(blocked / "cache"))
    assert stored.save(KEY, np.ones(_shape())) is None
    assert not stored.is_stored(KEY)
