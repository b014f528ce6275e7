"""``kniffel analyse``: the game review and each decision of a recorded game beside the best one."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from kniffel.cli.output import terminal_safe
from kniffel.cli.table_place import with_table_place
from kniffel.cli.tables import table
from kniffel.locales import Translator
from kniffel.locales.refusals import cell_words
from kniffel.record import RecordError, loads, replay
from kniffel.rules import AnnounceAction, EnterAction, Variant
from kniffel.solver.advice.analysis import Analysis, source
from kniffel.solver.advice.position import Choice
from kniffel.solver.advice.review import ACCURACY_HALF_LOSS, SEVERITIES, Review, describe, review

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
@with_table_place
def analyse_command(record: Any, as_json: bool, top: int | None) -> None:
    """List each decision of a game record (RECORD, or - for stdin) beside the best one.

    For every keep and entry: the expected final total after the choice made
    and after the best choice, and the expected points lost; then each
    player's total loss, and the game review: each player's accuracy, loss
    per decision, counts of Patzer / Fehler / Ungenauigkeit and the five
    costliest decisions in words. Kniffel and Yahtzee are valued exactly; games with
    several columns by the estimate the best bot plays by; Jamb and Yams with sèche or
    annoncée against the best family bot's choice, by its heuristic (announcements are
    decisions too). The variant and
    its options come from the record. A broken record exits with status 2
    and one line on standard error (``event N: ...`` for events).
    """
    try:
        game = replay(loads(record.read()))
    except RecordError as exc:
        click.echo(terminal_safe(str(exc)), err=True)
        sys.exit(2)
    result = review(game)
    if as_json:
        click.echo(terminal_safe(json.dumps(result.as_dict(top), ensure_ascii=False), json=True))
    else:
        click.echo(terminal_safe(render_analysis(result.analysis, top)))
        click.echo("")
        click.echo(terminal_safe(render_review(result)))


def labeller(variant: Variant) -> Callable[[Choice], str]:
    """Names a choice by the row labels the players read (in English, in the variant's own
    words): ``keep 6 6``, ``enter Three of a kind (18)``, ``enter Down, Sixes (18)``."""
    t = Translator("en").for_variant(variant)

    def label(choice: Choice) -> str:
        action = choice.action
        if isinstance(action, AnnounceAction):
            return f"announce {t.cell(variant, action.cell)}"
        if not isinstance(action, EnterAction):
            return choice.label
        return f"enter {t.cell(variant, action.cell)} ({choice.points})"

    return label


def _cell(name: str, variant: Variant) -> str:
    """``up.kniffel`` as ``Up, Kniffel``; a one-column variant's cell as its row label."""
    if len(variant.columns) == 1:
        name = name.rpartition(".")[2]
    return cell_words(name, Translator("en").for_variant(variant))


def render_analysis(result: Analysis, top: int | None = None) -> str:
    """The analysis as a plain-text table and the loss per player."""
    choice_label = labeller(result.variant)
    if source(result.variant) == "heuristic":
        how = "values by the best bot's heuristic, not an optimum (no optimum is known here)"
    else:
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
            choice_label(d.made),
            f"{d.made.expected:.2f}",
            choice_label(d.best),
            f"{d.best.expected:.2f}",
            f"{d.loss:.2f}",
        )
        for d in result.costliest(top)
    ]
    if rows:
        lines.append(table(head, rows, right={0, 1, 5, 7, 8}))
    else:
        lines.append("no decisions yet")
    lines.append("")
    lines.append("expected points lost")
    losses = [
        (name, f"{total.loss:8.2f} in {total.decisions} decisions")
        for name, total in result.players.items()
    ]
    lines.append(table(None, losses))
    return "\n".join(lines)


def render_review(result: Review) -> str:
    """Each player's accuracy, losses and counts, then the costliest decisions in words."""
    variant = result.analysis.variant
    label = labeller(variant)
    lines = [
        "game review (a decision's accuracy: "
        f"100 * 2^(-loss/{ACCURACY_HALF_LOSS:g}) %; a player's: the mean)",
    ]
    head = ("player", "accuracy", "loss", "per decision", *(n for n, _ in SEVERITIES), "not rated")
    rows = [
        (
            p.name,
            "-" if p.accuracy is None else f"{p.accuracy:.1f} %",
            f"{p.loss:.2f}",
            "-" if p.loss_per_decision is None else f"{p.loss_per_decision:.2f}",
            *(str(p.counts[n]) for n, _ in SEVERITIES),
            str(p.not_rated),
        )
        for p in result.players
    ]
    lines.append(table(head, rows, right=range(1, len(head))))
    thresholds = ", ".join(f"{n} >= {t:g}" for n, t in SEVERITIES)
    lines.append(f"(expected points lost: {thresholds})")
    lines.append("")
    costliest = result.costliest()
    lines.append("costliest decisions" if costliest else "no costly decisions")
    lines.extend(
        f"{i}. {terminal_safe(describe(d, label=label), lines=False)}"
        for i, d in enumerate(costliest, start=1)
    )
    if result.unrated:
        lines.append("")
        lines.append("not rated (points entered without dice)")
        lines.extend(
            f"event {u.event}: {terminal_safe(u.player, lines=False)}, turn {u.turn}, "
            f"{_cell(u.cell, variant)} ({u.points})"
            for u in result.unrated
        )
    return "\n".join(lines)
