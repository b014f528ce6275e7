"""The sheets as plain text, for ``kniffel replay`` and the terminal."""

from __future__ import annotations

from kniffel.locales import N_, Translator
from kniffel.rules import Cell, Game

__all__ = ["render_game"]

_TOTAL_LABELS = (
    ("upper", N_("Summe oben")),
    ("bonus", N_("Bonus")),
    ("lower", N_("Summe unten")),
    ("kniffel_bonus", N_("Kniffel-Bonus")),
    ("total", N_("Gesamt")),
)
DUE_MARK = "[ ]"


def render_sheet(game: Game, player: int, t: Translator | None = None) -> str:
    """One player's sheet: rows × columns, due cells marked, totals under each column."""
    t = (t or Translator()).for_variant(game.variant)
    headers = [t.column_header(spec) for spec in game.columns]
    labels = {key: t.t(label) for key, label in _TOTAL_LABELS}
    label_width = max(*(len(text) for text in labels.values()), *(len(t.row(r)) for r in game.rows))
    widths = [max(len(h), 5) for h in headers]
    due = {
        spec.id: game.due_row(player, spec.id)
        for spec in game.columns
        if spec.discipline.value != "free"
    }
    lines = [
        "".ljust(label_width) + "".join(f"  {h:>{w}}" for h, w in zip(headers, widths, strict=True))
    ]
    for row in game.rows:
        cells = []
        for spec, width in zip(game.columns, widths, strict=True):
            value = game.points(player, Cell(spec.id, row))
            if value is not None:
                text = str(value)
            elif due.get(spec.id) is row:
                text = DUE_MARK
            else:
                text = "·"
            cells.append(f"  {text:>{width}}")
        lines.append(t.row(row).ljust(label_width) + "".join(cells))
        if row.value == "sixes":
            lines.append("-" * len(lines[0]))
    lines.append("=" * len(lines[0]))
    totals = [game.column_totals(player, spec.id) for spec in game.columns]
    for key in labels:
        values = "".join(f"  {getattr(t, key):>{w}}" for t, w in zip(totals, widths, strict=True))
        lines.append(labels[key].ljust(label_width) + values)
    return "\n".join(lines)


def render_game(game: Game, t: Translator | None = None) -> str:
    """Every player's sheet with their total, whose turn it is, and the winners (German unless
    ``t`` speaks another language)."""
    t = (t or Translator()).for_variant(game.variant)
    out = [f"{t.t(game.variant.label)} ({game.variant.name})"]
    to_move = game.current_player()
    for i, name in enumerate(game.players):
        marker = "  ← " + t.t("am Zug") if i == to_move else ""
        out.append("")
        out.append(t.t("{name}: {total} Punkte", name=name, total=game.total(i)) + marker)
        out.append(render_sheet(game, i, t))
    out.append("")
    if to_move is None:
        names = ", ".join(game.winners())
        if len(game.winners()) == 1:
            out.append(t.t("Spiel beendet. Gewinner: {names}", names=names))
        else:
            out.append(t.t("Spiel beendet. Gewinner (Gleichstand): {names}", names=names))
    else:
        pending = game.pending(to_move)
        name = game.players[to_move]
        if pending is None:
            out.append(t.t("Am Zug: {name} (Wurf {rolls} von 3)", name=name, rolls=0))
        else:
            dice, rolls = pending
            out.append(
                t.t(
                    "Am Zug: {name} (Wurf {rolls} von 3, Würfel {dice})",
                    name=name,
                    rolls=rolls,
                    dice=dice,
                )
            )
        out.append(t.t("{mark} = Pflichtzelle", mark=DUE_MARK))
    return "\n".join(out)
