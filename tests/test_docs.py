"""Docs that cannot rot: every command, option and setting is documented (as datasette does)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from kniffel.cli import cli

ROOT = Path(__file__).parent.parent
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def test_the_main_commands_exist() -> None:
    assert {"serve", "replay", "solve", "simulate", "analyse"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_a_section(name: str) -> None:
    assert f"## `kniffel {name}`" in CLI_DOC, f"docs/cli.md has no section for kniffel {name}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_documented(name: str) -> None:
    command = cli.commands[name]
    # The variant flags are documented once, in the table before the first section.
    shared = CLI_DOC.split("\n## ", 1)[0]
    section = shared + CLI_DOC.split(f"## `kniffel {name}`", 1)[1].split("\n## ", 1)[0]
    for param in command.params:
        if isinstance(param, click.Option):
            flags = [f for f in param.opts + param.secondary_opts if f.startswith("--")]
            if "--help" in flags:
                continue
            assert any(f"`{flag}" in section for flag in flags), (
                f"kniffel {name}: option {flags} is not documented in docs/cli.md"
            )


def test_every_setting_is_documented() -> None:
    from kniffel.settings import Settings

    for field in Settings.model_fields:
        variable = f"KNIFFEL_{field.upper()}"
        assert variable in CLI_DOC, f"setting {variable} is not documented in docs/cli.md"


def test_the_readme_names_both_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "uv run kniffel serve" in readme
    assert "uv run --frozen pytest" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().endswith("uv run --frozen pytest")
