"""``kniffel solve``: exact values, JSON keys, option flags and plain refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.cli.variant_flags import variant_options
from kniffel.rules import ColumnSpec, Discipline, Variant
from kniffel.solver.exact.column import ColumnTable


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["solve", *args])


def test_json_of_a_one_column_variant(solved: Callable[..., ColumnTable]) -> None:
    solved("yahtzee", joker="none")
    result = run("--variant", "yahtzee", "--joker", "none", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {"variant", "options", "ev", "seconds", "cached"} <= report.keys()
    assert report["variant"] == "yahtzee"
    assert report["options"]["joker"] == "none" and report["options"]["kniffel_bonus"] == 100
    assert abs(report["ev"] - 253.9702412) < 1e-6
    assert report["cached"] is True and report["seconds"] >= 0


def test_plain_output_names_the_value_and_the_time(solved: Callable[..., ColumnTable]) -> None:
    solved("yahtzee")
    result = run("--variant", "yahtzee")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "ev       254.5877287" in lines
    assert any(line.startswith("seconds  ") for line in lines)
    assert "joker=forced" in result.output


def test_every_option_flag_reaches_the_variant() -> None:
    @click.command()
    @variant_options
    def show(variant: Variant) -> None:
        click.echo(json.dumps({"name": variant.name, **variant.options.as_dict()}))

    args = ["--variant", "yahtzee", "--joker", "free", "--kniffel-bonus", "50"]
    args += ["--pasch", "matching_dice", "--no-chance", "--zero-only-upper"]
    result = CliRunner().invoke(show, args)
    assert json.loads(result.output) == {
        "name": "yahtzee",
        "chance": False,
        "pasch": "matching_dice",
        "kniffel_bonus": 50,
        "joker": "free",
        "zero_only_upper": True,
    }
    # Without flags, the preset's own options.
    assert (
        json.loads(CliRunner().invoke(show, ["--variant", "yahtzee"]).output)["joker"] == "forced"
    )


def test_solving_with_flags_builds_that_table() -> None:
    result = run("--no-chance", "--zero-only-upper", "--pasch", "matching_dice", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"] == {
        "chance": False,
        "pasch": "matching_dice",
        "kniffel_bonus": 0,
        "joker": "free",
        "zero_only_upper": True,
    }
    assert report["cached"] is False and 150 < report["ev"] < 240
    again = json.loads(
        run("--no-chance", "--zero-only-upper", "--pasch", "matching_dice", "--json").output
    )
    assert again["cached"] is True and again["ev"] == report["ev"]


def test_dreifach_prints_each_column_as_a_hint(solved: Callable[..., ColumnTable]) -> None:
    ev = solved("kniffel", joker="none").ev
    report = json.loads(run("--variant", "dreifach", "--joker", "none", "--json").output)
    assert report["columns"] == pytest.approx({"x1": ev, "x2": 2 * ev, "x3": 3 * ev})
    assert report["columns_sum"] == pytest.approx(6 * ev)
    assert report["sum_is_lower_bound"] is True
    plain = run("--variant", "dreifach", "--joker", "none").output
    assert "x3" in plain and "a lower bound" in plain
    assert json.loads(run("--variant", "dreifach", "--json").output)["sum_is_lower_bound"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--joker", "sometimes"], "'sometimes' is not one of 'free', 'forced', 'none'"),
        (["--kniffel-bonus", "-5"], "-5 is not in the range x>=0"),
        (["--variant", "poker"], "'poker' is not one of"),
        (["--pasch", "some"], "'some' is not one of 'all_dice', 'matching_dice'"),
    ],
)
def test_bad_flags_are_refused_plainly(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_a_bad_board_setting_does_not_stop_the_solver(
    solved: Callable[..., ColumnTable], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solver reads only its table folder's settings: a port that is no number is the
    board's problem, not the solver's (issue 22)."""
    solved("kniffel")
    monkeypatch.setenv("KNIFFEL_PORT", "eighty")
    result = run("--variant", "kniffel")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "ev       " in result.output


def test_finals_is_refused_for_several_columns() -> None:
    result = run("--variant", "rauf-runter", "--finals")
    assert result.exit_code == 2
    assert "one-column variant" in result.output and "rauf-runter has 3 columns" in result.output
    assert "Traceback" not in result.output


def test_finals_builds_the_win_chance_table_once_and_the_board_finds_it(
    solved: Callable[..., ColumnTable], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--finals`` stores the exact win-chance table where the board and ``kniffel chances``
    look (its own cache folder here); the second run reads it. The preset's column takes
    minutes, so the command builds a ↓ column of the same house rules instead: the command's
    path is the same."""
    from kniffel.cli import solve as command
    from kniffel.solver.chances import finals_table

    options = solved("yahtzee", joker="none").options
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    down = Variant("one", "One", (ColumnSpec("main", "Spalte", Discipline.DOWN),), options)

    def smaller(variant: Variant, **kwargs: Any) -> Any:
        assert variant.options == options
        return finals_table.finals_for(down, **kwargs)

    monkeypatch.setattr(command, "finals_for", smaller)
    args = ["--variant", "yahtzee", "--joker", "none", "--finals"]
    first = run(*args, "--json")
    assert first.exit_code == 0, first.output
    built = json.loads(first.output)["finals"]
    assert built["cached"] is False and built["states"] > 100
    assert built["bytes"] == 4 * built["values"]
    assert built["path"] == str(finals_table.finals_path(options, Discipline.DOWN))
    assert Path(built["path"]).is_relative_to(tmp_path)
    assert finals_table.stored_finals(down) is not None  # what the board reads
    again = run(*args)
    assert again.exit_code == 0, again.output
    assert f"finals   {built['states']:,} sheets" in again.output
    assert "read from the cache" in again.output
