"""What every command prints besides its answer: progress bars and plain option values.

Progress goes to standard error and only to a terminal, so that a pipe or ``--json`` gets the
answer alone (rich draws the bar; nothing of it reaches a file).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol

__all__ = ["Bar", "options_line", "plain", "progress"]


class Bar(Protocol):
    """A progress bar: ``advance`` by a step, or ``update`` to an absolute count."""

    def advance(self, steps: int = 1) -> None: ...

    def update(self, done: int, total: int | None = None) -> None: ...


class _RichBar:
    def __init__(self, bar: Any, task: Any) -> None:
        self._bar = bar
        self._task = task

    def advance(self, steps: int = 1) -> None:
        self._bar.advance(self._task, steps)

    def update(self, done: int, total: int | None = None) -> None:
        self._bar.update(self._task, completed=done, total=total)


@contextmanager
def progress(
    description: str, total: int | None = None, quiet: bool = False
) -> Iterator[Bar | None]:
    """A progress bar on a terminal (on standard error); ``None`` when quiet or not a terminal."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        yield _RichBar(bar, bar.add_task(description, total=total))


def plain(value: object) -> str:
    """A value as the commands print it: ``true``/``false``, floats to seven places."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.7f}"
    return str(value)


def options_line(options: Mapping[str, object]) -> str:
    """House-rule options as ``joker=forced kniffel_bonus=100 ...``."""
    return " ".join(f"{key}={plain(value)}" for key, value in options.items())
