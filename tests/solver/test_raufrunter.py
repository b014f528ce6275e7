"""The exact ↓↑ table of Rauf-Runter-Kniffel and the bounds of ``kniffel solve``."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import Discipline, Joker, Options, get_variant
from kniffel.solver.exact.column import ColumnTable
from kniffel.solver.raufrunter.bounds import arrow_table, solve_bounds

Solved = Callable[..., ColumnTable]

DEFAULT = get_variant("rauf-runter").options


def test_known_value_of_both_arrow_columns() -> None:
    table = arrow_table(DEFAULT)
    assert table.ev == pytest.approx(349.7814606, abs=1e-6)
    assert table.n_rows == 13


def test_each_arrow_column_alone_matches_the_one_column_solver(solved: Solved) -> None:
    # No joker in the ↓↑ table; ↓ alone ends with Chance, where the joker changes nothing.
    table = arrow_table(DEFAULT)
    assert table.down_alone == pytest.approx(solved("rauf-runter", Discipline.DOWN).ev, abs=1e-9)
    up_without_joker = solved("rauf-runter", Discipline.UP, joker="none").ev
    assert table.up_alone == pytest.approx(up_without_joker, abs=1e-9)
    # The best upper-row play keeps every die of the row's face whatever the sum needs,
    # so the order of the rows does not matter: ↓ and ↑ alone are worth the same.
    assert table.down_alone == pytest.approx(table.up_alone, abs=1e-9)


def test_the_last_turns_are_single_rows() -> None:
    table = arrow_table(DEFAULT)
    n = table.n_rows
    # Only ↓'s Chance is left: the best Chance of three rolls.
    assert table.values[n - 1, n, 0, 0] == pytest.approx(23.3333333, abs=1e-6)
    # Only ↑'s Einser are left, the bonus already reached: keep every 1 and reroll the rest.
    ones = 5 * (1 - (5 / 6) ** 3)
    assert table.values[n, n - 1, 0, 63] == pytest.approx(ones, abs=1e-9)
    # 62 in ↑'s upper block: a single 1 brings the bonus.
    bonus_chance = 1 - (5 / 6) ** 15
    assert table.values[n, n - 1, 0, 62] == pytest.approx(ones + 35 * bonus_chance, abs=1e-9)


def test_playing_together_beats_playing_one_after_the_other() -> None:
    table = arrow_table(DEFAULT)
    assert table.ev > table.down_alone + table.up_alone + 10


def test_sums_that_cannot_matter_are_ignored() -> None:
    values = arrow_table(DEFAULT).values
    # Nothing of ↓'s upper block is filled yet, or all of it: its sum plays no part.
    assert (values[6, 3] == values[6, 3, :1]).all()
    assert (values[0, 9] == values[0, 9, :1]).all()
    assert (values[3, 3] != values[3, 3, :1]).any()


@pytest.mark.parametrize(
    "overrides", [{"chance": False}, {"zero_only_upper": True}, {"pasch": "matching_dice"}]
)
def test_options_that_take_points_away_lower_the_value(overrides: dict[str, object]) -> None:
    assert arrow_table(DEFAULT.updated(overrides)).ev < arrow_table(DEFAULT).ev


def test_joker_and_bonus_do_not_touch_the_arrow_table() -> None:
    other = Options(joker=Joker.NONE, kniffel_bonus=100)
    assert arrow_table(other) is arrow_table(DEFAULT)


def test_chance_off_has_twelve_rows() -> None:
    assert arrow_table(DEFAULT.updated({"chance": False})).n_rows == 12


def test_bounds_add_up(solved: Solved) -> None:
    bounds = solve_bounds(DEFAULT)
    assert set(bounds) == {"down_alone", "up_alone", "down_up_together", "lower_bound"}
    free = solved("rauf-runter").ev
    assert bounds["down_up_together"] == pytest.approx(arrow_table(DEFAULT).ev)
    assert bounds["lower_bound"] == pytest.approx(bounds["down_up_together"] + free)
    assert 590 < bounds["lower_bound"] < 600
    assert bounds["down_alone"] == pytest.approx(solved("rauf-runter", Discipline.DOWN).ev)
    # The joker helps ↑ (its Kniffel comes second), not ↓ (only Chance follows its Kniffel).
    assert bounds["up_alone"] > bounds["down_alone"]


def test_solve_command_prints_the_bounds() -> None:
    result = CliRunner().invoke(cli, ["solve", "--variant", "rauf-runter", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["variant"] == "rauf-runter"
    assert report["down_up_together"] == pytest.approx(349.7814606, abs=1e-6)
    assert report["lower_bound"] > report["down_up_together"] + 240
    assert report["lower_bound"] == pytest.approx(solve_bounds(DEFAULT)["lower_bound"])


def test_solve_command_takes_the_option_flags() -> None:
    result = CliRunner().invoke(cli, ["solve", "--variant", "rauf-runter", "--no-chance", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["options"]["chance"] is False
    assert report["down_up_together"] == pytest.approx(
        arrow_table(DEFAULT.updated({"chance": False})).ev
    )
