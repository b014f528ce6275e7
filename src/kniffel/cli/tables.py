"""The commands' tables, drawn by rich: framed on a terminal, plain columns in a pipe or a file.

Plain means what the commands have always printed (docs/cli.md; the golden files of
``kniffel replay`` in tests/data): columns two spaces apart, words to the left, figures to the
right, no trailing spaces, no colours. On a terminal the same table gets rich's rules and a
bold head. rich measures a cell by what the terminal shows, so a wide character lines up too.

>>> print(table(("player", "loss"), [("Anna", "1.50"), ("Ben", "12.00")], right={1}))
player   loss
Anna     1.50
Ben     12.00
"""

from __future__ import annotations

import io
import sys
from collections.abc import Collection, Mapping, Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from kniffel.cli.output import terminal_safe

__all__ = ["table"]

#: Wide enough that rich never wraps or cuts a cell: the commands' tables are made to fit.
_UNBOUNDED = 10_000


def table(
    head: Sequence[str] | None,
    rows: Sequence[Sequence[str]],
    *,
    right: Collection[int] = (),
    rules: Mapping[int, str] | None = None,
    min_width: Mapping[int, int] | None = None,
    framed: bool | None = None,
) -> str:
    """``rows`` under ``head`` (none: no head line); the columns in ``right`` aligned right.

    ``rules`` draws a line of its character (``-``) across the table before row ``i`` in the
    plain table, a section's end on a terminal. ``min_width``: columns at least that wide.
    ``framed``: rich's rules and a bold head; by
    default when standard output is a terminal.
    """
    rules = rules or {}
    if framed is None:
        framed = sys.stdout.isatty()
    grid = Table(
        box=box.HORIZONTALS if framed else None,
        show_header=head is not None,
        header_style="bold" if framed else "",
        padding=(0, 1),
        pad_edge=framed,
        show_edge=framed,
        collapse_padding=False,
    )
    columns = len(head) if head is not None else max((len(r) for r in rows), default=0)
    for i in range(columns):
        grid.add_column(
            terminal_safe(head[i], lines=False) if head is not None else "",
            justify="right" if i in right else "left",
            no_wrap=True,
            min_width=(min_width or {}).get(i),
        )
    for i, row in enumerate(rows):
        # A cell is one line, all of it shown: rich would drop a control (BEL, TAB, CR) and
        # the lines are split where any line break stands (NEL, U+2028), so a name in a cell
        # could forge a row of its own (issue 33). Escapes are printable ASCII.
        cells = (terminal_safe(cell, lines=False) for cell in row)
        grid.add_row(*cells, end_section=framed and i + 1 in rules)
    out = io.StringIO()
    console = Console(
        file=out,
        width=_UNBOUNDED,
        force_terminal=framed,
        color_system="standard" if framed else None,
        markup=False,
        emoji=False,
        highlight=False,
        legacy_windows=False,
    )
    console.print(grid, crop=False, soft_wrap=False)
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    if framed:
        return "\n".join(lines)
    width = max((len(line) for line in lines), default=0)
    first = 1 if head is not None else 0
    for at in sorted(rules, reverse=True):
        lines.insert(first + at, rules[at] * width)
    return "\n".join(lines)
