"""``kniffel analyse``: each decision of a recorded game beside the best one."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kniffel.record import RecordError, loads
from kniffel.solver.advice.analysis import Analysis, analyse, choice_label

__all__ = ["analyse_command"]


@click.command("analyse")
@click.argument("record", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as one JSON object.")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    metavar="N",
    help="List only the N costliest decisions (the totals still count all).",
)
def analyse_command(record: Any, as_json: bool, top: int | None) -> None:
    """List each decision of a game record (RECORD, or - for stdin) beside the best one.

    For every keep and entry: the expected final total after the choice made
    and after the best choice, and the expected points lost; then each
    player's total loss. Kniffel and Yahtzee are valued exactly; games with
    several columns by the estimate the best bot plays by. The variant and
    its options come from the record. A broken record exits with status 2
    and one line on standard error (``event N: ...`` for events).
    """
    try:
        result = analyse(loads(record.read()))
    except RecordError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.as_dict(top), ensure_ascii=False))
    else:
        click.echo(render_analysis(result, top))


def render_analysis(result: Analysis, top: int | None = None) -> str:
    """The analysis as a plain-text table and the loss per player."""
    one_column = len(result.variant.columns) == 1
    how = "exact values" if result.exact else "values estimated by the best bot's plan"
    state = "finished" if result.finished else "running"
    lines = [f"{result.variant.name} ({state}): expected final totals, {how}", ""]
    head = ("event", "turn", "player", "dice", "choice", "expected", "best", "expected", "loss")
    rows = [
        (
            str(d.event),
            str(d.turn),
            d.player,
            f"{d.dice}" if d.rolls is None else f"{d.dice} ({d.rolls})",
            choice_label(d.made, one_column),
            f"{d.made.expected:.2f}",
            choice_label(d.best, one_column),
            f"{d.best.expected:.2f}",
            f"{d.loss:.2f}",
        )
        for d in result.costliest(top)
    ]
    if rows:
        widths = [max(len(row[i]) for row in (head, *rows)) for i in range(len(head))]
        numeric = {0, 1, 5, 7, 8}
        for row in (head, *rows):
            cells = [
                cell.rjust(width) if i in numeric else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
    else:
        lines.append("no decisions yet")
    lines.append("")
    lines.append("expected points lost")
    width = max(len(name) for name in result.players)
    for name, total in result.players.items():
        lines.append(f"{name.ljust(width)}  {total.loss:8.2f} in {total.decisions} decisions")
    return "\n".join(lines)
