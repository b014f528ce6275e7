"""The sheets as plain text, for ``kniffel replay`` and the terminal."""

from __future__ import annotations

from kniffel.cli.output import terminal_safe
from kniffel.cli.tables import table
from kniffel.locales import N_, Translator
from kniffel.rules import MAX_ROLLS, Cell, Game, Sheet

__all__ = ["render_game"]

_TOTAL_LABELS = (
    ("upper", N_("Summe oben")),
    ("bonus", N_("Bonus")),
    ("lower", N_("Summe unten")),
    ("kniffel_bonus", N_("Kniffel-Bonus")),
    ("total", N_("Gesamt")),
)
#: Jamb's sums as its sheet writes them (docs/rules.md, "Jamb"), as on the board.
_JAMB_TOTAL_LABELS = (("sum1", "Σ1"), ("sum2", "Σ2"), ("sum3", "Σ3"), ("total", N_("Gesamt")))
DUE_MARK = "[ ]"


def render_sheet(game: Game, player: int, t: Translator | None = None) -> str:
    """One player's sheet: rows × columns, due cells marked, totals under each column."""
    t = (t or Translator()).for_variant(game.variant)
    headers = [t.column_header(spec) for spec in game.columns]
    jamb = game.options.sheet is Sheet.JAMB
    labels = {key: t.t(label) for key, label in (_JAMB_TOTAL_LABELS if jamb else _TOTAL_LABELS)}
    due = {
        spec.id: game.due_row(player, spec.id)
        for spec in game.columns
        if spec.discipline.value != "free"
    }
    rows: list[list[str]] = []
    rules: dict[int, str] = {}
    for row in game.rows:
        cells = [t.row(row)]
        for spec in game.columns:
            value = game.points(player, Cell(spec.id, row))
            if value is not None:
                cells.append(str(value))
            elif due.get(spec.id) is row:
                cells.append(DUE_MARK)
            else:
                cells.append("·")
        rows.append(cells)
        if row.value == "sixes":
            rules[len(rows)] = "-"
    rules[len(rows)] = "="
    totals = [game.column_totals(player, spec.id) for spec in game.columns]
    for key, label in labels.items():
        rows.append([label, *(str(getattr(total, key)) for total in totals)])
    columns = range(1, len(headers) + 1)
    return table(
        ["", *headers],
        rows,
        right=columns,
        rules=rules,
        min_width=dict.fromkeys(columns, 5),
    )


def render_game(game: Game, t: Translator | None = None) -> str:
    """Every player's sheet with their total, whose turn it is, and the winners (German unless
    ``t`` speaks another language)."""
    t = (t or Translator()).for_variant(game.variant)
    out = [f"{t.t(game.variant.label)} ({game.variant.name})"]
    # A name is one line whatever it holds (a line feed in a record's name too).
    players = [terminal_safe(name, lines=False) for name in game.players]
    to_move = game.current_player()
    for i, name in enumerate(players):
        marker = "  ← " + t.t("am Zug") if i == to_move else ""
        out.append("")
        out.append(t.t("{name}: {points}", name=name, points=t.points(game.total(i))) + marker)
        out.append(render_sheet(game, i, t))
    out.append("")
    if to_move is None:
        names = ", ".join(terminal_safe(name, lines=False) for name in game.winners())
        if len(game.winners()) == 1:
            out.append(t.t("Spiel beendet. Gewinner: {names}", names=names))
        else:
            out.append(t.t("Spiel beendet. Gewinner (Gleichstand): {names}", names=names))
    else:
        pending = game.pending(to_move)
        name = players[to_move]
        if pending is None:
            out.append(
                t.t("Am Zug: {name} (Wurf {rolls} von {most})", name=name, rolls=0, most=MAX_ROLLS)
            )
        else:
            dice, rolls = pending
            out.append(
                t.t(
                    "Am Zug: {name} (Wurf {rolls} von {most}, Würfel {dice})",
                    name=name,
                    rolls=rolls,
                    most=MAX_ROLLS,
                    dice=dice,
                )
            )
        out.append(t.t("{mark} = Pflichtzelle", mark=DUE_MARK))
    return "\n".join(out)
