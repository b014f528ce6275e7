"""``kniffel advise``: the best keeps or entries for a position, from a sheet or a record."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
import numpy as np

from kniffel.cli.output import percent, terminal_safe
from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.cli.variant_flags import variant_options
from kniffel.locales import Translator
from kniffel.record import RecordError, loads, replay
from kniffel.rules import (
    MAX_ROLLS,
    AnnounceAction,
    Dice,
    Game,
    KniffelError,
    Row,
    Variant,
    holds_fifty,
)
from kniffel.solver.advice.analysis import choice_dict, source
from kniffel.solver.advice.family import is_heuristic
from kniffel.solver.advice.notation import parse_sheet
from kniffel.solver.advice.position import Position, evaluate, is_exact
from kniffel.solver.chances.outlook import Outlook, outlook

__all__ = ["advise_command"]


def _fail(message: str) -> None:
    click.echo(terminal_safe(message), err=True)
    sys.exit(2)


@click.command("advise")
@variant_options
@click.option("--sheet", metavar="SHEET", help="The sheet: cell=points pairs, e.g. ones=3,twos=6.")
@click.option(
    "--record",
    "record_file",
    type=click.File("rb"),
    help="Advise the player to move at the end of this game record (or - for stdin).",
)
@click.option("--dice", metavar="DICE", help="The dice on the table, e.g. 66612.")
@click.option(
    "--roll",
    type=click.IntRange(1, 3),
    default=1,
    show_default=True,
    help="How many rolls made the dice (3: only entries are left).",
)
@click.option(
    "--top", type=click.IntRange(min=1), default=5, show_default=True, help="Choices to list."
)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=400,
    show_default=True,
    help="Simulated games behind the chances (several columns; one column is exact).",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Their seed."
)
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
@with_table_place
def advise_command(
    variant: Variant,
    sheet: str | None,
    record_file: Any,
    dice: str | None,
    roll: int,
    top: int,
    samples: int,
    seed: int,
    as_json: bool,
) -> None:
    """Advise a position: the best keeps or entries with their expected final totals, and
    the chances of the upper bonus and of a Kniffel when playing on like the best bot.

    The position is a sheet (--sheet, with --variant and the house-rule flags) or the end
    of a game record (--record; its variant and options count). Without --dice: the
    record's rolled dice, else the turn before its first roll. Bad input exits with
    status 2 and one line on standard error.
    """
    if (sheet is None) == (record_file is None):
        _fail("give either --sheet or --record")
    try:
        if record_file is not None:
            game = replay(loads(record_file.read()))
        else:
            assert sheet is not None
            game = parse_sheet(variant, sheet)
        given = Dice.parse(dice) if dice is not None else None
        position = evaluate(game, given, roll if given is not None else MAX_ROLLS)
    except (KniffelError, RecordError) as exc:
        _fail(str(exc).splitlines()[0])
        return
    player = game.current_player()
    assert player is not None
    if is_heuristic(game.variant):
        # Jamb and Yams: the best family bot's heuristic; the bonus and Kniffel chances are
        # the Kniffel sheet's, none here (docs/solver.md, "Jamb and Yams: the bot's heuristic")
        ahead = Outlook(np.zeros(0, dtype=np.int64), {}, {})
    elif is_exact(game.variant):
        ahead = _exact_outlook(game, position)
    else:
        ahead = outlook(game, position.dice, position.rolls, samples, seed)
    result = _as_dict(game, position, ahead, top)
    if as_json:
        click.echo(terminal_safe(json.dumps(result, ensure_ascii=False), json=True))
    else:
        click.echo(terminal_safe(_render(result)))


def _exact_outlook(game: Game, position: Position) -> Outlook:
    """One column: the chances carried through the solver's recursion (docs/solver.md,
    "Exact chances"; the chance table is built here when it is not on disk yet)."""
    from kniffel.solver.advice.reasons import reasons
    from kniffel.solver.exact.chance_table import column_chances
    from kniffel.solver.exact.dice_tables import ROLL_INDEX

    player = game.current_player()
    assert player is not None
    spec = game.columns[0]
    column_chances(game.options, spec.discipline)
    dice = None if position.dice is None else ROLL_INDEX[position.dice]
    best = position.choices[0].action
    assert not isinstance(best, AnnounceAction)  # one Kniffel column: nothing to announce
    now = reasons(game, dice, position.rolls, [best], exact=True).now
    held = game.points(player, game.cell(f"{spec.id}.{Row.KNIFFEL.value}"))
    fifty = now.kniffel if held is None else float(holds_fifty(True, held))
    return Outlook(np.zeros(0, dtype=np.int64), dict(now.bonus), {spec.id: float(fifty or 0.0)})


def _as_dict(game: Game, position: Position, ahead: Outlook, top: int) -> dict[str, Any]:
    one_column = len(game.variant.columns) == 1
    return {
        "variant": game.variant.name,
        "options": game.variant.options.as_dict(),
        "exact": is_exact(game.variant),
        "source": source(game.variant),
        "player": position.player,
        "total": position.total,
        "dice": None if position.dice is None else str(position.dice),
        "roll": position.rolls,
        "expected": position.expected,
        "choices": [choice_dict(c, one_column) for c in position.choices[:top]],
        "bonus_chance": ahead.bonus_rate,
        "kniffel_chance": ahead.kniffel_rate,
        "chances_method": _chances_method(game.variant),
        "samples": ahead.samples,
    }


def _chances_method(variant: Variant) -> str:
    if is_heuristic(variant):
        return "none"
    return "exact" if is_exact(variant) else "simulation"


def _render(result: dict[str, Any]) -> str:
    how = "exact" if result["exact"] else "estimated by the best bot, calibrated"
    if result["source"] == "heuristic":
        how = "the best bot's heuristic worth, not an optimum"
    dice = (
        "before the first roll"
        if result["dice"] is None
        else (f"dice {result['dice']} after roll {result['roll']}")
    )
    lines = [
        f"{result['variant']}: {terminal_safe(result['player'], lines=False)}, "
        f"{result['total']} points, {dice}",
        f"{'values' if result['source'] == 'heuristic' else 'expected final totals'} ({how}):",
    ]
    best = result["choices"][0]["expected"]
    choices = [
        (
            c["label"],
            f"{c['expected']:.1f}",
            "" if c is result["choices"][0] else f"({c['expected'] - best:+.1f})",
        )
        for c in result["choices"]
    ]
    drawn = table(None, choices, right={1}, min_width={1: 8})
    lines.extend(f"  {line}".rstrip() for line in drawn.splitlines())
    kniffel = Translator("en", game=result["variant"]).row(Row.KNIFFEL)  # "Yahtzee" there
    if result["chances_method"] == "none":
        return "\n".join(lines)
    for key, what in (("bonus_chance", "upper bonus"), ("kniffel_chance", kniffel)):
        rates = result[key]
        shown = ", ".join(
            percent(p) if len(rates) == 1 else f"{column} {percent(p)}"
            for column, p in rates.items()
        )
        lines.append(f"chance of the {what}: {shown}")
    if result["chances_method"] == "exact":
        lines.append("(chances exact, playing on like the best bot)")
    else:
        lines.append(f"({result['samples']} simulated games of the best bot)")
    return "\n".join(lines)
