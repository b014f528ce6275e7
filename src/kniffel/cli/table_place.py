"""The solver's commands hand the solver its table place: the table settings read once, first.

A bad table setting (``KNIFFEL_CACHE_MAX_BYTES=lots``) is refused in one line before the
command does anything, instead of a pydantic traceback from deep inside the solver the first
time it touches its cache; a setting only the board reads (``KNIFFEL_PORT``) is not read here
at all (docs/cli.md, "Settings").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

__all__ = ["setting_problem", "with_table_place"]

P = ParamSpec("P")
R = TypeVar("R")


def setting_problem(loc: tuple[int | str, ...], message: str) -> str:
    """One refused setting in plain words, named as the environment names it."""
    message = message.removeprefix("Value error, ")
    if message.startswith("KNIFFEL_") or not loc:
        return message
    return f"KNIFFEL_{str(loc[0]).upper()}: {message}"


def with_table_place(command: Callable[P, R]) -> Callable[P, R]:
    """Run ``command`` with the solver's tables where the table settings say (exit 2 with one
    line when one of them is refused)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        from pydantic import ValidationError

        from kniffel.settings import TableSettings
        from kniffel.solver.exact import cache

        try:
            settings = TableSettings()
        except ValidationError as error:
            problems = "; ".join(setting_problem(e["loc"], e["msg"]) for e in error.errors())
            click.echo(f"settings from the environment refused: {problems}", err=True)
            raise SystemExit(2) from None
        with cache.using(cache.TablePlace.of(settings)):
            return command(*args, **kwargs)

    return run
