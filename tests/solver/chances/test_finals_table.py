"""The finals table: every state's distribution of the points still to come, solved once.

Held to :class:`~kniffel.solver.chances.finals.LateFinals` (itself held to a brute force in
tests/solver/chances/test_exact_chances.py) at every state of a ↓ and of a ↑ column (small
enough to build in a test; the presets' tables take minutes, docs/solver.md), to the solver's
expected score, through the disk cache, the forecast and the board's table builder.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kniffel.rules import (
    PRESETS,
    ColumnSpec,
    Dice,
    Discipline,
    Enter,
    Game,
    Options,
    Variant,
    get_variant,
)
from kniffel.solver.builds import Table, TableBuilds, finals_tables
from kniffel.solver.chances import winbot
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.endgame import exact_finals, reachable_states
from kniffel.solver.chances.finals import LateFinals
from kniffel.solver.chances.finals_table import (
    FinalsTable,
    build_finals,
    finals_for,
    finals_path,
    load_finals,
    save_finals,
    stored_finals,
)
from kniffel.solver.chances.forecast import forecast
from kniffel.solver.chances.winbot import win_choices
from kniffel.solver.exact.column import solve_column
from kniffel.solver.exact.sheet_space import SheetState

OPTIONS = PRESETS["kniffel"].options


def one_column(discipline: Discipline, options: Options = OPTIONS) -> Variant:
    return Variant("one", "One", (ColumnSpec("main", "Spalte", discipline),), options)


@pytest.fixture(scope="module")
def down() -> FinalsTable:
    return build_finals(one_column(Discipline.DOWN))


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own (the builder's thread reads it too)."""
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("discipline", "preset"),
    [(Discipline.DOWN, "kniffel"), (Discipline.UP, "kniffel"), (Discipline.DOWN, "yahtzee")],
)
def test_every_state_has_the_late_solvers_distribution(discipline: Discipline, preset: str) -> None:
    """Yahtzee's rules too (its 50 arms 100 for each further Yahtzee, a joker): the table an
    operator builds with ``kniffel solve --variant yahtzee --finals``."""
    variant = one_column(discipline, PRESETS[preset].options)
    table = build_finals(variant)
    late = LateFinals(variant, best_bot(variant))
    space = table.space
    compared = 0
    for filled in range(space.n_rows + 1):
        states = space.states(filled)
        for mask, upper, armed in zip(*states, strict=True):
            state = SheetState(int(mask), int(upper), int(armed))
            key = np.array([state.mask | state.upper << 13 | state.armed << 19])
            expected = late.of(key)[0]
            found = table.at(state)
            assert len(found) == len(expected), state
            np.testing.assert_allclose(found, expected, rtol=0, atol=1e-7)
            assert found.sum() == pytest.approx(1.0, abs=1e-6)
            compared += 1
    assert compared == int(np.count_nonzero(np.diff(table.starts)))


def test_the_empty_sheets_mean_is_the_solvers_value(down: FinalsTable) -> None:
    d = down.at(SheetState(0, 0, 0))
    assert float(np.arange(len(d)) @ d) == pytest.approx(
        solve_column(OPTIONS, Discipline.DOWN).ev, abs=1e-5
    )


def test_a_state_the_column_cannot_reach_has_no_distribution(down: FinalsTable) -> None:
    # In ↓ the rows fill from the top: Einser open and Zweier filled cannot be.
    with pytest.raises(ValueError, match="no distribution"):
        down.at(SheetState(0b10, 4, 0))


def test_the_table_goes_to_disk_and_comes_back_whole(down: FinalsTable, place: Path) -> None:
    assert load_finals(OPTIONS, Discipline.DOWN) is None
    path = save_finals(down)
    assert path == finals_path(OPTIONS, Discipline.DOWN)
    back = load_finals(OPTIONS, Discipline.DOWN)
    assert back is not None and back.cached
    assert isinstance(back.values, np.memmap)  # shared by the processes that read it
    np.testing.assert_array_equal(back.starts, down.starts)
    np.testing.assert_array_equal(back.values, down.values)
    # Other rules find nothing; half a values file is no table.
    other = get_variant("kniffel", {"chance": False}).options
    assert load_finals(other, Discipline.DOWN) is None
    values = path.with_name(path.name.removesuffix(".npz") + ".values.npy")
    values.write_bytes(values.read_bytes()[: values.stat().st_size // 2])
    assert load_finals(OPTIONS, Discipline.DOWN) is None


def test_finals_for_reads_a_stored_table_or_builds_and_stores_one(
    down: FinalsTable, place: Path
) -> None:
    """What ``kniffel solve --finals`` does: read the table where the board looks, else build
    and store it there; ``use_cache=False`` builds anew and writes nothing."""
    variant = one_column(Discipline.DOWN)
    built, path = finals_for(variant)
    assert not built.cached and path == finals_path(OPTIONS, Discipline.DOWN)
    np.testing.assert_array_equal(built.values, down.values)
    read, again = finals_for(variant)
    assert read.cached and again == path
    path.unlink()
    fresh, nowhere = finals_for(variant, use_cache=False)
    assert not fresh.cached and nowhere is None and not path.exists()
    with pytest.raises(ValueError, match="one-column"):
        finals_for(get_variant("rauf-runter"))


def test_the_forecast_is_exact_from_the_first_entry_with_a_table(
    down: FinalsTable, place: Path
) -> None:
    variant = one_column(Discipline.DOWN)
    game = Game(variant, ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("main.ones"), dice=Dice.parse("11123")))
    # Without the table: far more states than a request solves, so simulated.
    assert reachable_states(game, 1) > 300
    assert exact_finals(game, 1) is None
    assert forecast(game, samples=60).method == "simulation"
    save_finals(down)
    ben = exact_finals(game, 1)
    assert ben is not None
    np.testing.assert_array_equal(ben, down.at(SheetState(0, 0, 0)))
    anna = exact_finals(game, 0)
    assert anna is not None
    np.testing.assert_array_equal(anna, down.at(SheetState(0b1, 3, 0)))
    chances = forecast(game)
    assert chances.method == "exact"
    assert [p.method for p in chances.players] == ["exact", "exact"]
    assert sum(p.win for p in chances.players) == pytest.approx(1.0, abs=1e-6)
    # Anna has 3 points and the same column to fill: her chance is the same as Ben's
    # would be 3 points ahead, read off the two distributions directly.
    a, b = anna, ben
    win = sum(
        a[i] * (b[: i + 3].sum() + 0.5 * (b[i + 3] if i + 3 < len(b) else 0.0))
        for i in range(len(a))
    )
    assert chances.players[0].win == pytest.approx(win, abs=1e-6)


def test_the_board_builds_a_finals_table_in_the_background(place: Path) -> None:
    table = Table(OPTIONS, Discipline.DOWN, finals=True)
    builds = TableBuilds()
    try:
        assert not builds.is_ready(table)
        builds.enqueue([table])
        assert builds.wait(timeout=300)
        assert builds.is_ready(table)
    finally:
        builds.close()
    assert stored_finals(one_column(Discipline.DOWN)) is not None


def test_the_board_builds_the_finals_table_of_the_kniffel_preset_only() -> None:
    tables = finals_tables()
    assert {t.options for t in tables} == {PRESETS["kniffel"].options}
    assert all(t.finals and t.discipline is Discipline.FREE for t in tables)


def test_auf_sieg_is_exact_at_every_position_with_a_table(
    down: FinalsTable, place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the table the "Auf Sieg" Tipp values each choice by the exact chance from the
    first turns on; the same numbers as the win bot that solves every state it reaches."""
    variant = one_column(Discipline.DOWN)
    game = Game(variant, ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("main.ones"), dice=Dice.parse("11123")))
    dice = Dice.parse("26654")
    save_finals(down)
    from_table = win_choices(game, dice, rolls=1)
    assert winbot._win_bot(variant).finals.__class__.__name__ == "TableFinals"
    solving = winbot.WinBot(variant, late=len(down.space.rows))
    monkeypatch.setattr(winbot, "_win_bot", lambda _: solving)
    solved = win_choices(game, dice, rolls=1)
    table_wins = {c.label: c.win for c in from_table}
    solved_wins = {c.label: c.win for c in solved}
    assert table_wins.keys() == solved_wins.keys()
    for label, win in solved_wins.items():  # choices a hair apart may swap places
        assert table_wins[label] == pytest.approx(win, abs=1e-6), label
    assert len(from_table) > 10  # the entry and every keep
    assert 0.0 < from_table[-1].win < from_table[0].win < 1.0
