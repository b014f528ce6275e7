"""``kniffel --help`` lists every command without importing any (issue 34, "Start and help").

The group names its commands from ``kniffel.cli._COMMANDS`` (Click's lazy group): the help
imports no command's module, and each line it shows is the first sentence of that command's own
help. The time it takes is printed by ``benchmarks/start.py``, not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from kniffel.cli import _COMMANDS, cli

_SCRIPT = """
import json, sys
from kniffel.cli import cli
try:
    cli(["--help"])
except SystemExit:
    pass
heavy = ("kniffel.cli.", "kniffel.web", "kniffel.solver", "kniffel.store", "kniffel.board",
         "kniffel.settings", "numpy", "sqlalchemy", "fastapi", "pydantic", "uvicorn", "rich")
print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))))
"""


def test_help_imports_no_command_and_none_of_the_heavy_libraries() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_help_lists_every_command_and_names_every_family() -> None:
    shown = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    listed = shown.output.split("Commands:")[1]
    assert [line.split()[0] for line in listed.strip().splitlines()] == sorted(_COMMANDS)
    for family in ("Kniffel", "Yahtzee", "Jamb", "Yams"):
        assert family in shown.output.split("Options:")[0]


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_each_listed_line_is_the_first_sentence_of_the_commands_help(name: str) -> None:
    command = cli.commands[name]
    assert isinstance(command, click.Command)
    assert _COMMANDS[name][1] == command.get_short_help_str(limit=1_000)
