"""What every command prints besides its answer: progress bars, plain option values and shares
in percent.

Progress goes to standard error and only to a terminal, so that a pipe or ``--json`` gets the
answer alone (rich draws the bar; nothing of it reaches a file).
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol

__all__ = ["Bar", "options_line", "percent", "plain", "progress", "terminal_safe"]

#: Characters a terminal acts on or hides (ESC, BEL, NUL, DEL, C1 controls such as CSI, bidi
#: overrides and isolates, zero-width characters, line separators): never printed raw.
_HIDDEN = ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")


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


def terminal_safe(text: str, *, json: bool = False, lines: bool = True) -> str:
    r"""``text`` with every control or invisible character written as an escape (``\x1b``,
    ``\u202e``); line feeds stay (``lines=False``: they too are escapes, for a name or a table
    cell, which is one line). With ``json=True`` the escapes are JSON's (``\u001b``), so
    a JSON document stays valid and means the same. Every other line break (CR, VT, FF, FS, GS,
    RS, NEL, U+2028, U+2029) is always an escape: the printed lines are the text's LFs alone.

    >>> terminal_safe("Eve\x1b[2J: 12 Punkte\nBen")
    'Eve\\x1b[2J: 12 Punkte\nBen'
    >>> terminal_safe("Eve\nBen\x85", lines=False)
    'Eve\\nBen\\x85'
    >>> terminal_safe('{"name": "\u202eEve"}', json=True)
    '{"name": "\\u202eEve"}'
    """
    out = []
    for char in text:
        if (char == "\n" and lines) or (char != "\n" and unicodedata.category(char) not in _HIDDEN):
            out.append(char)
        elif json:
            units = char.encode("utf-16-be", "surrogatepass")
            out.extend(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
        else:
            out.append(ascii(char)[1:-1])
    return "".join(out)


def percent(share: float, decimals: int = 0) -> str:
    """A share (0 to 1) in percent as the commands print it, by Babel's ``format_percent`` (the
    commands speak English: ``12.5%``).

    >>> percent(0.125, 1), percent(0.5)
    ('12.5%', '50%')
    """
    from babel.numbers import format_percent

    digits = "." + "0" * decimals if decimals else ""
    return format_percent(share, format=f"#,##0{digits}%", locale="en")
