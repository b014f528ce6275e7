"""The solver's commands refuse Jamb in plain words (no traceback); its records replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import cli

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--variant", "jamb", "--games", "1"],
        ["simulate", "--variant", "jamb", "--bot", "greedy", "--games", "1"],
        ["solve", "--variant", "jamb"],
        ["duel", "--variant", "jamb", "--games", "2"],
    ],
)
def test_a_solver_command_refuses_jamb_plainly(command: list[str]) -> None:
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert "Jamb has no solver, bots or advice yet" in result.output
    assert "Traceback" not in result.output


def test_a_jamb_record_replays_as_text() -> None:
    result = CliRunner().invoke(cli, ["replay", str(DATA / "jamb-announce.json")])
    assert result.exit_code == 0, result.output
    assert "Anna" in result.stdout
