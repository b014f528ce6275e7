"""``kniffel chances``: each player's win chance after every entry of a game record."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from kniffel.charts.chances import WORDS, chances_chart_svg
from kniffel.cli.output import percent, terminal_safe
from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.locales import Translator
from kniffel.record import RecordError, loads
from kniffel.solver.chances.forecast import Chances
from kniffel.solver.chances.series import Series, chances_over

__all__ = ["chances_command", "render_series"]


@click.command("chances")
@click.argument("record", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print the chances as one JSON object.")
@click.option(
    "--samples",
    type=click.IntRange(min=1, max=100_000),
    default=None,
    metavar="N",
    help="Games of the best bot per simulated sheet (default: as the board, by the entries left).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.svg",
    help="Also draw the chances after every entry as an SVG chart.",
)
@with_table_place
def chances_command(record: Any, as_json: bool, samples: int | None, plot: Path | None) -> None:
    """Print each player's chance to finish first after every entry of a game record
    (RECORD, or - for stdin).

    The chances assume every player plays on like the best bot; ties count as
    shared. They are exact where each player's final total has its exact
    distribution (one-column games near their end), else simulated from games of
    the best bot, seeded by the position, with a 95 % interval (the board's and
    the API's first answer: the board then narrows a Jamb or Yams position's
    interval in the background). The variant and its options come from the record.
    A broken record
    exits with status 2 and one line on standard error (``event N: ...`` for
    events); a plot file that cannot be written exits with status 1.
    """
    try:
        series = chances_over(loads(record.read()), samples=samples)
    except RecordError as exc:
        click.echo(terminal_safe(str(exc)), err=True)
        sys.exit(2)
    if as_json:
        click.echo(terminal_safe(json.dumps(series.as_dict(), ensure_ascii=False), json=True))
    else:
        click.echo(terminal_safe(render_series(series)))
    if plot is not None:
        try:
            english = Translator("en")  # the command speaks English (docs/cli.md)
            words = {key: english(text) for key, text in WORDS.items()}
            plot.write_text(chances_chart_svg(series, english, **words), encoding="utf-8")
        except OSError as exc:
            click.echo(terminal_safe(f"cannot write {plot}: {exc.strerror or exc}"), err=True)
            sys.exit(1)


def _percent(p: float) -> str:
    return percent(p, 1)


def _cell(chances: Chances, name: str) -> str:
    """``75.0%`` where exact; ``≈52.3% ±4.1`` where simulated (± the 95 % interval, in points)."""
    player = next(p for p in chances.players if p.name == name)
    if player.high - player.low < 5e-7:
        return _percent(player.win)
    half = 100 * max(player.high - player.win, player.win - player.low)
    return f"≈{_percent(player.win)} ±{half:.1f}"


METHODS = {
    "exact": (
        "exact: every player's final total has its exact distribution under the best bot's "
        "play, and the chances follow from them (ties shared)"
    ),
    "simulation": (
        "simulated where marked ≈: games of the best bot from each player's sheet, seeded by "
        "the sheet; ± is the 95 % interval from the games (exact where unmarked)"
    ),
}


def render_series(series: Series) -> str:
    """One line per entry: the event, who entered, every player's chance."""
    lines = [
        "win chances after every entry, every player playing on like the best bot",
        "method: " + METHODS[series.method],
        "",
    ]
    head = ("event", "entry by", *series.players)
    rows = [("", "start", *(_cell(series.start, n) for n in series.players))]
    rows += [
        (str(t.event), t.player, *(_cell(t.chances, n) for n in series.players))
        for t in series.turns
    ]
    lines.append(table(head, rows, right={i for i in range(len(head)) if i != 1}))
    lines.append("")
    if series.winners:
        lines.append("winner: " + ", ".join(terminal_safe(n, lines=False) for n in series.winners))
    else:
        lines.append("the game is not finished")
    return "\n".join(lines)
