"""The ``kniffel`` command: ``serve`` (default), ``replay`` and friends.

Each command lives in a module of its own beside this one; :mod:`.output` holds what they print
alike (progress bars, option values).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module

import click

__all__ = ["cli", "main"]


#: Every command by name, as ``module:attribute``, with the first sentence of its help: a
#: command's module (and what it imports, numpy for the solver's commands, the web stack for
#: ``serve``) is imported only when that command runs or prints its own help, so ``kniffel serve``
#: starts without the others and ``kniffel --help`` lists them all without importing any
#: (docs/benchmarks.md, "Start"; ``tests/test_cli_help.py`` holds each line equal to its command's).
_COMMANDS: dict[str, tuple[str, str]] = {
    "serve": (
        "kniffel.cli.serve:serve_command",
        "Serve the board on http://127.0.0.1:8000 (the default command).",
    ),
    "replay": (
        "kniffel.cli.replay:replay_command",
        "Check every event of a game record (FILE, or - for stdin) and print the sheets.",
    ),
    "solve": (
        "kniffel.cli.solve:solve",
        "Solve VARIANT exactly and print the optimal expected final score.",
    ),
    "simulate": (
        "kniffel.cli.simulate:simulate_command",
        "Play GAMES seeded solitaire games of BOT and print how it scored.",
    ),
    "analyse": (
        "kniffel.cli.analyse:analyse_command",
        "List each decision of a game record (RECORD, or - for stdin) beside the best one.",
    ),
    "chances": (
        "kniffel.cli.chances:chances_command",
        "Print each player's chance to finish first after every entry of a game record "
        "(RECORD, or - for stdin).",
    ),
    "advise": (
        "kniffel.cli.advise:advise_command",
        "Advise a position: the best keeps or entries with their expected final totals, and the "
        "chances of the upper bonus and of a Kniffel when playing on like the best bot.",
    ),
    "duel": (
        "kniffel.cli.duel:duel_command",
        "Play GAMES seeded two-player games between two bots and print who won how often.",
    ),
    "export": (
        "kniffel.cli.exchange:export_command",
        "Write the board's games and figures out (CSV and/or game records).",
    ),
    "import": (
        "kniffel.cli.exchange:import_command",
        "Store every *.json game record of DIRECTORY as a new game.",
    ),
}


class _LazyCommands(MutableMapping[str, click.Command]):
    """The group's commands: those named in ``_COMMANDS`` load on first use; added ones are kept."""

    def __init__(self, where: dict[str, tuple[str, str]]) -> None:
        self._where = {name: place for name, (place, _) in where.items()}
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            if name not in self._where:
                raise KeyError(name)
            module, attribute = self._where[name].split(":")
            command = getattr(import_module(module), attribute)
            assert isinstance(command, click.Command)
            self._loaded[name] = command
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._loaded.pop(name, None)
        self._where.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._where, *self._loaded]))

    def __len__(self) -> int:
        return len(set(self._where) | set(self._loaded))

    def __contains__(self, name: object) -> bool:
        return name in self._where or name in self._loaded


class DefaultGroup(click.Group):
    """A group that runs ``serve`` when no command is given (like datasette), and lists its
    commands from ``_COMMANDS`` without importing them (Click's lazy group)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # A stand-in command per line shortens it as the command itself would (Click's rules).
        rows = [
            (name, _COMMANDS[name][1] if name in _COMMANDS else self.commands[name].help or "")
            for name in self.list_commands(ctx)
        ]
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl(
                    [
                        (name, click.Command(name, help=line).get_short_help_str(limit))
                        for name, line in rows
                    ]
                )

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h", "--version")):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kniffel")
def cli() -> None:
    """Die Tafel: Kniffel, Rauf-Runter-Kniffel, Yahtzee, Dreifach-Kniffel, Jamb and Yams.

    Without a command, runs ``serve``.
    """


cli.commands = _LazyCommands(_COMMANDS)


def main() -> None:
    cli()
