"""``kniffel chances``: each player's win chance after every entry of a game record."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from kniffel.cli.output import terminal_safe
from kniffel.record import RecordError, loads
from kniffel.solver.chances.chart import chances_chart_svg
from kniffel.solver.chances.series import Series, chances_over

__all__ = ["chances_command", "render_series"]


@click.command("chances")
@click.argument("record", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print the chances as one JSON object.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.svg",
    help="Also draw the chances after every entry as an SVG chart.",
)
def chances_command(record: Any, as_json: bool, plot: Path | None) -> None:
    """Print each player's chance to finish first after every entry of a game record
    (RECORD, or - for stdin).

    The chances assume every player plays on like the best bot; ties count as
    shared. The variant and its options come from the record. A broken record
    exits with status 2 and one line on standard error (``event N: ...`` for
    events); a plot file that cannot be written exits with status 1.
    """
    try:
        series = chances_over(loads(record.read()))
    except RecordError as exc:
        click.echo(terminal_safe(str(exc)), err=True)
        sys.exit(2)
    if as_json:
        click.echo(terminal_safe(json.dumps(series.as_dict(), ensure_ascii=False), json=True))
    else:
        click.echo(terminal_safe(render_series(series)))
    if plot is not None:
        try:
            plot.write_text(chances_chart_svg(series), encoding="utf-8")
        except OSError as exc:
            click.echo(terminal_safe(f"cannot write {plot}: {exc.strerror or exc}"), err=True)
            sys.exit(1)


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def render_series(series: Series) -> str:
    """One line per entry: the event, who entered, every player's chance."""
    how = "exact expected totals" if series.method == "exact" else "estimated from the best bot"
    lines = [f"win chances after every entry ({how})", ""]
    head = ("event", "entry by", *series.players)
    rows = [("", "start", *(_percent(series.start[n]) for n in series.players))]
    rows += [
        (str(t.event), t.player, *(_percent(t.chances[n]) for n in series.players))
        for t in series.turns
    ]
    widths = [max(len(row[i]) for row in (head, *rows)) for i in range(len(head))]
    for row in (head, *rows):
        cells = [
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    if series.winners:
        lines.append("winner: " + ", ".join(series.winners))
    else:
        lines.append("the game is not finished")
    return "\n".join(lines)
