"""``kniffel duel``: two bots head to head in seeded two-player games, seats swapped."""

from __future__ import annotations

import json
import sys

import click

from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.cli.variant_flags import variant_options
from kniffel.rules import KniffelError, Variant
from kniffel.solver.chances.duel import DUEL_BOTS, duel
from kniffel.solver.chances.winbot import LATE

__all__ = ["duel_command"]


@click.command("duel")
@variant_options
@click.option(
    "--bots",
    default="win,best",
    show_default=True,
    metavar="A,B",
    help=f"The two bots, of {', '.join(DUEL_BOTS)}.",
)
@click.option(
    "--games",
    type=click.IntRange(min=2),
    default=1000,
    show_default=True,
    help="How many games (even: each deal twice, the seats swapped).",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="The dice's seed."
)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Processes to use."
)
@click.option(
    "--late",
    type=int,
    default=LATE,
    show_default=True,
    help="Entries left (to both players) from which the win bot plays for the win.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@with_table_place
def duel_command(
    variant: Variant, bots: str, games: int, seed: int, jobs: int, late: int, as_json: bool
) -> None:
    """Play GAMES seeded two-player games between two bots and print who won how often.

    Every deal (both seats' dice) is played twice, the bots swapping seats, so
    neither gains from the dice. Prints the games, each bot's wins, the ties and
    each bot's win rate (a tie counting half) with its 95 % interval. Bad input
    exits with status 2 and one line.
    """
    names = tuple(b.strip() for b in bots.split(","))
    try:
        if len(names) != 2:
            raise KniffelError(f"--bots takes two bots, e.g. win,best; got {bots!r}")
        result = duel(variant, (names[0], names[1]), games, seed, jobs, late)
    except KniffelError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    click.echo(f"{variant.name}: {result.games} games, seed {seed}")
    rows = [
        (
            bot,
            str(result.wins[bot]),
            f"{result.win_rate[bot]:.4f}",
            f"{result.ci95[bot][0]:.4f} to {result.ci95[bot][1]:.4f}",
        )
        for bot in result.bots
    ]
    rows.append(("ties", str(result.ties), "", ""))
    click.echo(table(("bot", "wins", "win rate", "95 % interval"), rows, right={1, 2}))
