"""The solver's commands refuse Jamb in plain words (no traceback); ``simulate`` plays it
with its own bots; its records replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import cli

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--variant", "jamb"],
        ["duel", "--variant", "jamb", "--games", "2"],
    ],
)
def test_a_solver_command_refuses_jamb_plainly(command: list[str]) -> None:
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert "Jamb has no solver, bots or advice yet" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("bot", ["random", "greedy", "best"])
def test_simulate_plays_jamb(bot: str) -> None:
    flags = ["--variant", "jamb", "--bot", bot, "--games", "2", "--seed", "5", "--json"]
    result = CliRunner().invoke(cli, ["simulate", *flags])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["variant"], summary["bot"], summary["games"]) == ("jamb", bot, 2)
    assert list(summary["column_mean"]) == ["down", "free", "up", "announce"]
    assert summary["min"] <= summary["mean"] <= summary["max"]


def test_a_jamb_record_replays_as_text() -> None:
    result = CliRunner().invoke(cli, ["replay", str(DATA / "jamb-announce.json")])
    assert result.exit_code == 0, result.output
    assert "Anna" in result.stdout
