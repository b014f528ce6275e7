"""``kniffel simulate``: a bot's seeded solitaire games, summed up (and drawn)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kniffel.cli.output import options_line, progress
from kniffel.cli.tables import table
from kniffel.cli.variant_flags import variant_options
from kniffel.locales import Translator
from kniffel.rules import Row, Variant
from kniffel.solver.play.bots import BOT_NAMES
from kniffel.solver.play.simulate import Simulation, simulate

__all__ = ["simulate_command"]


@click.command("simulate")
@variant_options
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
    help="Write a histogram of the scores to this file (.svg, .png or .pdf, by its name).",
)
def simulate_command(
    variant: Variant, bot: str, games: int, seed: int, as_json: bool, plot: Path | None
) -> None:
    """Play GAMES seeded solitaire games of BOT and print how it scored.

    Prints the mean with its standard error, the standard deviation,
    percentiles, each column's mean, bonus rate and Kniffel rate, and the time
    per game. The bots: random (each decision uniformly among the legal
    actions), greedy (the most points this turn) and best (the strongest
    strategy for the variant; see docs/bot.md).
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
            f"{summary['bonus_rate'][column]:.1%}",
            f"{summary['kniffel_rate'][column]:.1%}",
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


#: The picture formats --plot writes, by the file name's suffix.
PLOT_FORMATS = ("svg", "png", "pdf")


def _plot_format(ctx: click.Context, path: Path | None) -> Path | None:
    """Refuses, before any game is played, a plot file whose name says no known format."""
    if path is not None and path.suffix.lower().lstrip(".") not in PLOT_FORMATS:
        click.echo(
            f"--plot {path}: the name must end in .svg, .png or .pdf (the format written)",
            err=True,
        )
        ctx.exit(2)
    return path


def _plot(result: Simulation, path: Path) -> None:
    import matplotlib
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    axes = figure.add_subplot()
    low, high = int(result.totals.min()), int(result.totals.max())
    bins = max(1, min(60, high - low + 1))
    axes.hist(result.totals, bins=bins, color="#3b6ea5")
    mean = float(result.totals.mean())
    axes.axvline(mean, color="#c0392b", linestyle="--", label=f"mean {mean:.1f}")
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    axes.set_title(f"{result.variant.label}: bot {result.bot}, {result.games} games")
    axes.legend()
    figure.tight_layout()
    # Text stays text (searchable, small), and no date: the same run writes the same file.
    kind = path.suffix.lower().lstrip(".")
    metadata = {"Date": None} if kind == "svg" else {"CreationDate": None} if kind == "pdf" else {}
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(path, format=kind, metadata=metadata)
