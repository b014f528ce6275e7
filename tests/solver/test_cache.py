"""Solved tables on disk: found again, equal, fast, and rebuilt when broken."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from kniffel.rules import Discipline, get_variant
from kniffel.solver.exact import cache, column
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.sheet_space import SheetSpace

OPTIONS = get_variant("yahtzee", {"chance": False}).options


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_second_solve_loads_the_same_table(cache_dir: Path) -> None:
    built = solve_column(OPTIONS, Discipline.DOWN)
    assert not built.cached
    path = cache.path_for(built.space)
    assert path.parent == cache_dir and path.exists()
    loaded = solve_column(OPTIONS, Discipline.DOWN)
    assert loaded.cached
    assert loaded.build_seconds == pytest.approx(built.build_seconds)
    np.testing.assert_array_equal(loaded.values, built.values)
    assert loaded.ev == built.ev


def test_the_key_names_discipline_and_every_option(cache_dir: Path) -> None:
    paths = {
        cache.path_for(SheetSpace(get_variant("kniffel", change).options, discipline))
        for discipline in (Discipline.DOWN, Discipline.UP, Discipline.FREE)  # the solver's
        for change in (
            {},
            {"chance": False},
            {"pasch": "matching_dice"},
            {"kniffel_bonus": 100},
            {"joker": "none"},
            {"zero_only_upper": True},
        )
    }
    assert len(paths) == 3 * 6


def _npy_bytes() -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(3))
    return buffer.getvalue()


@pytest.mark.parametrize("damage", [b"", b"not a zip file", b"PK\x03\x04broken", _npy_bytes()])
def test_a_corrupt_file_is_rebuilt(cache_dir: Path, damage: bytes) -> None:
    good = solve_column(OPTIONS, Discipline.UP)
    path = cache.path_for(good.space)
    path.write_bytes(damage)
    again = solve_column(OPTIONS, Discipline.UP)
    assert not again.cached
    np.testing.assert_array_equal(again.values, good.values)
    assert solve_column(OPTIONS, Discipline.UP).cached  # the file was written anew


def test_a_file_of_other_rules_is_not_used(cache_dir: Path) -> None:
    table = solve_column(OPTIONS, Discipline.DOWN)
    other = SheetSpace(OPTIONS.updated({"kniffel_bonus": 50}), Discipline.DOWN)
    cache.path_for(other).write_bytes(cache.path_for(table.space).read_bytes())
    assert column.load_table(other) is None


def test_no_cache_neither_reads_nor_writes(cache_dir: Path) -> None:
    table = solve_column(OPTIONS, Discipline.DOWN, use_cache=False)
    assert not table.cached
    assert list(cache_dir.iterdir()) == []


def test_an_unwritable_cache_dir_still_solves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(blocker / "cache"))
    table = solve_column(OPTIONS, Discipline.DOWN)
    assert not table.cached and table.ev > 100
