"""The sheets as plain text, for ``kniffel replay`` and the terminal."""

from __future__ import annotations

from kniffel.rules import Cell, Discipline, Game

__all__ = ["render_game"]

_TOTAL_LABELS = (
    ("upper", "Summe oben"),
    ("bonus", "Bonus"),
    ("lower", "Summe unten"),
    ("kniffel_bonus", "Kniffel-Bonus"),
    ("total", "Gesamt"),
)
DUE_MARK = "[ ]"


def _column_header(game: Game, index: int) -> str:
    spec = game.columns[index]
    if spec.discipline is Discipline.FREE:
        return spec.label
    return f"{spec.symbol} {spec.label}"


def render_sheet(game: Game, player: int) -> str:
    """One player's sheet: rows × columns, due cells marked, totals under each column."""
    headers = [_column_header(game, i) for i in range(len(game.columns))]
    label_width = max(len("Kniffel-Bonus"), *(len(r.label_de) for r in game.rows))
    widths = [max(len(h), 5) for h in headers]
    due = {
        spec.id: game.due_row(player, spec.id)
        for spec in game.columns
        if spec.discipline is not Discipline.FREE
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
        lines.append(row.label_de.ljust(label_width) + "".join(cells))
        if row.value == "sixes":
            lines.append("-" * len(lines[0]))
    lines.append("=" * len(lines[0]))
    totals = [game.column_totals(player, spec.id) for spec in game.columns]
    for key, label in _TOTAL_LABELS:
        values = "".join(f"  {getattr(t, key):>{w}}" for t, w in zip(totals, widths, strict=True))
        lines.append(label.ljust(label_width) + values)
    return "\n".join(lines)


def render_game(game: Game) -> str:
    """Every player's sheet with their total, whose turn it is, and the winners."""
    out = [f"{game.variant.label} ({game.variant.name})"]
    to_move = game.current_player()
    for i, name in enumerate(game.players):
        marker = "  ← am Zug / to move" if i == to_move else ""
        out.append("")
        out.append(f"{name}: {game.total(i)} Punkte{marker}")
        out.append(render_sheet(game, i))
    out.append("")
    if to_move is None:
        winners = game.winners()
        word = "Gewinner" if len(winners) == 1 else "Gewinner (Gleichstand)"
        out.append(f"Spiel beendet. {word}: {', '.join(winners)}")
    else:
        pending = game.pending(to_move)
        rolls = 0 if pending is None else pending[1]
        dice = f", Würfel {pending[0]}" if pending is not None else ""
        out.append(f"Am Zug: {game.players[to_move]} (Wurf {rolls} von 3{dice})")
        out.append(f"{DUE_MARK} = Pflichtzelle (due cell)")
    return "\n".join(out)
