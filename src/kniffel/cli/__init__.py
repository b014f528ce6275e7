"""The ``kniffel`` command: ``serve`` (default), ``replay`` and friends.

Each command lives in a module of its own beside this one; :mod:`.output` holds what they print
alike (progress bars, option values).
"""

from __future__ import annotations

import click

from kniffel.cli.advise import advise_command
from kniffel.cli.analyse import analyse_command
from kniffel.cli.chances import chances_command
from kniffel.cli.duel import duel_command
from kniffel.cli.exchange import export_command, import_command
from kniffel.cli.replay import replay_command
from kniffel.cli.serve import serve_command
from kniffel.cli.simulate import simulate_command
from kniffel.cli.solve import solve

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


cli.add_command(serve_command)
cli.add_command(replay_command)
cli.add_command(solve)
cli.add_command(simulate_command)
cli.add_command(analyse_command)
cli.add_command(chances_command)
cli.add_command(advise_command)
cli.add_command(duel_command)
cli.add_command(export_command)
cli.add_command(import_command)


def main() -> None:
    cli()
