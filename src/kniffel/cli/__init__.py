"""The ``kniffel`` command: ``serve`` (default), ``replay`` and friends.

Each command lives in a module of its own beside this one; :mod:`.output` holds what they print
alike (progress bars, option values).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module

import click

__all__ = ["cli", "main"]


#: Every command by name, as ``module:attribute``: a command's module (and what it imports, numpy
#: for the solver's commands, the web stack for ``serve``) is imported only when that command runs
#: or is listed with its help, so ``kniffel serve`` starts without the others (docs/benchmarks.md).
_COMMANDS = {
    "serve": "kniffel.cli.serve:serve_command",
    "replay": "kniffel.cli.replay:replay_command",
    "solve": "kniffel.cli.solve:solve",
    "simulate": "kniffel.cli.simulate:simulate_command",
    "analyse": "kniffel.cli.analyse:analyse_command",
    "chances": "kniffel.cli.chances:chances_command",
    "advise": "kniffel.cli.advise:advise_command",
    "duel": "kniffel.cli.duel:duel_command",
    "export": "kniffel.cli.exchange:export_command",
    "import": "kniffel.cli.exchange:import_command",
}


class _LazyCommands(MutableMapping[str, click.Command]):
    """The group's commands: those named in ``_COMMANDS`` load on first use; added ones are kept."""

    def __init__(self, where: dict[str, str]) -> None:
        self._where = dict(where)
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


cli.commands = _LazyCommands(_COMMANDS)


def main() -> None:
    cli()
