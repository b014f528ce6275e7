"""CSV that spreadsheet programs open as it was meant: the one writer of every CSV the board
and ``kniffel export --csv`` write (docs/cli.md, ``kniffel export``).

- **No formulas from names** (OWASP, "CSV injection"): a text cell that starts with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return is written with a leading ``'``, so that a player
  called ``=cmd|' /C calc'!A0`` or ``@SUM(A1:A9)`` shows as that text and never runs. Numbers
  (``-1.50``) stay numbers.
- **A UTF-8 byte order mark** first, so that spreadsheet programs read "Çağla" and "Jürgen" as
  UTF-8 instead of guessing a legacy code page.
- RFC 4180 otherwise: a header line, ``\\r\\n`` line ends, quotes where needed.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Protocol

__all__ = ["BOM", "SpreadsheetWriter", "spreadsheet_cell"]

BOM = "\ufeff"
#: What makes a spreadsheet program read a cell as a formula (or hide its start).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Text(Protocol):
    def write(self, text: str, /) -> object: ...


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text


def spreadsheet_cell(value: object) -> object:
    """``value`` as a cell that no spreadsheet program takes for a formula.

    >>> spreadsheet_cell("=cmd|' /C calc'!A0")
    "'=cmd|' /C calc'!A0"
    >>> spreadsheet_cell("-2+3+cmd|' /C calc'!A0")
    "'-2+3+cmd|' /C calc'!A0"
    >>> spreadsheet_cell("-1.50"), spreadsheet_cell(7), spreadsheet_cell("Anna")
    ('-1.50', 7, 'Anna')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS) and not _is_number(value):
        return "'" + value
    return value


class SpreadsheetWriter:
    """A ``csv.writer`` that writes the byte order mark first and every cell through
    :func:`spreadsheet_cell`."""

    def __init__(self, out: _Text) -> None:
        out.write(BOM)
        self._writer = csv.writer(out, lineterminator="\r\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([spreadsheet_cell(value) for value in row])
