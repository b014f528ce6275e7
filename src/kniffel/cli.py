"""The ``kniffel`` command: ``serve`` (default), ``replay`` and friends."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kniffel.locales import DEFAULT_LANGUAGE, LANGUAGES, Translator
from kniffel.record import RecordError, loads, replay, state_dict
from kniffel.solver.analyse_command import analyse_command
from kniffel.solver.chances.command import chances_command
from kniffel.solver.commands import solve
from kniffel.solver.sim_command import simulate_command
from kniffel.text import render_game
from kniffel.web.commands import serve_command

__all__ = ["cli", "main"]


class DefaultGroup(click.Group):
    """A group that runs ``serve`` when no command is given (like datasette)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h", "--version")):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kniffel")
def cli() -> None:
    """Die Tafel: Kniffel, Rauf-Runter-Kniffel, Yahtzee and Dreifach-Kniffel.

    Without a command, runs ``serve``.
    """


@cli.command("replay")
@click.argument("file", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=DEFAULT_LANGUAGE,
    show_default=True,
    help="The language of the printed sheets.",
)
def replay_command(file: Any, as_json: bool, lang: str) -> None:
    """Check every event of a game record (FILE, or - for stdin) and print the sheets.

    An illegal event or a broken file exits with status 2 and one line on
    standard error (``event N: ...`` for events).
    """
    try:
        game = replay(loads(file.read()))
    except RecordError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(state_dict(game), ensure_ascii=False))
    else:
        click.echo(render_game(game, Translator(lang)))


cli.add_command(serve_command)
cli.add_command(solve)
cli.add_command(simulate_command)
cli.add_command(analyse_command)
cli.add_command(chances_command)


def main() -> None:
    cli()
