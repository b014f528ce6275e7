"""``kniffel simulate``: a bot's seeded solitaire games, summed up (and drawn)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import numpy as np

from kniffel.charts.draw import Bar, Labels, Mark, histogram_svg
from kniffel.cli.output import options_line, percent, progress
from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.cli.variant_flags import family_variant_options
from kniffel.locales import Translator
from kniffel.rules import Row, Variant
from kniffel.solver.play.bots import BOT_NAMES
from kniffel.solver.play.simulate import Simulation, simulate

__all__ = ["simulate_command"]


@click.command("simulate")
@family_variant_options
@click.option(
    "--bot", type=click.Choice(BOT_NAMES), default="best", show_default=True, help="Who plays."
)
@click.option(
    "--games", type=click.IntRange(min=1), default=1000, show_default=True, help="How many games."
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="The same seed throws the same dice.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    callback=lambda ctx, _param, value: _plot_format(ctx, value),
    help="Write a histogram of the scores to this SVG file (its name ends in .svg).",
)
@with_table_place
def simulate_command(
    variant: Variant, bot: str, games: int, seed: int, as_json: bool, plot: Path | None
) -> None:
    """Play GAMES seeded solitaire games of BOT and print how it scored.

    Prints the mean with its standard error, the standard deviation,
    percentiles, each column's mean, bonus rate and Kniffel rate, and the time
    per game. The bots: random (each decision uniformly among the legal
    actions), greedy (the most points this turn) and best (the strongest
    strategy for the variant; see docs/bot.md). Jamb plays through the rules engine
    game by game, with its own greedy and best bots (docs/bot.md, "Jamb and Yams").
    """
    with progress("games", games, quiet=as_json) as bar:
        result = simulate(variant, bot, games, seed, progress=bar.advance if bar else None)
    if plot is not None:
        try:
            _plot(result, plot)
        except OSError as exc:
            raise click.ClickException(f"cannot write {plot}: {exc.strerror or exc}") from None
    summary = result.summary()
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print(summary)


def _print(summary: dict[str, Any]) -> None:
    options = options_line(summary["options"])
    click.echo(f"variant      {summary['variant']} ({options})")
    click.echo(f"bot          {summary['bot']}")
    click.echo(f"games        {summary['games']} (seed {summary['seed']})")
    click.echo(f"mean         {summary['mean']:.2f} ± {summary['stderr']:.2f} (standard error)")
    click.echo(f"std          {summary['std']:.2f}")
    click.echo(f"min .. max   {summary['min']} .. {summary['max']}")
    percentiles = "  ".join(f"p{p} {v:g}" for p, v in summary["percentiles"].items())
    click.echo(f"percentiles  {percentiles}")
    columns = [
        (
            column,
            f"{mean:.2f}",
            percent(summary["bonus_rate"][column], 1),
            percent(summary["kniffel_rate"][column], 1),
        )
        for column, mean in summary["column_mean"].items()
    ]
    click.echo(
        table(
            ("column", "mean", "bonus", "kniffel"),
            columns,
            right={1, 2, 3},
        )
    )
    if summary["extra_kniffels_per_game"]:
        word = Translator("en", game=summary["variant"]).row(Row.KNIFFEL)  # "Yahtzee" there
        click.echo(f"extra {word} bonuses per game  {summary['extra_kniffels_per_game']:.4f}")
    per_game = summary["seconds_per_game"] * 1000
    click.echo(f"time         {per_game:.2f} ms per game ({summary['seconds']:.1f} s)")


def _plot_format(ctx: click.Context, path: Path | None) -> Path | None:
    """Refuses, before any game is played, a plot file not named ``.svg``: the plot is SVG
    (the board's one chart stack, docs/decisions.md), never SVG under another format's name."""
    if path is not None and path.suffix.lower() != ".svg":
        click.echo(
            f"--plot {path}: the plot is SVG, so the name must end in .svg "
            "(a browser or rsvg-convert turns it into PNG or PDF)",
            err=True,
        )
        ctx.exit(2)
    return path


#: The histogram has at most this many bars (a bar spans several totals when they are more).
BARS = 60


def plot_svg(result: Simulation) -> str:
    """The final scores of ``result`` as a histogram with the mean marked, in English."""
    totals = result.totals
    low, high = int(totals.min()), int(totals.max())
    width = -(-(high - low + 1) // BARS)  # whole points per bar, rounded up
    counts = np.bincount((totals - low) // width)
    bars = [Bar(low + i * width, low + (i + 1) * width, int(n)) for i, n in enumerate(counts)]
    mean = float(totals.mean())
    labels = Labels(
        f"{result.variant.label}: bot {result.bot}, {result.games} games", "final score", "games"
    )
    return histogram_svg(bars, labels, Translator("en"), marks=[Mark(f"mean {mean:.1f}", mean)])


def _plot(result: Simulation, path: Path) -> None:
    path.write_text(plot_svg(result), encoding="utf-8")
