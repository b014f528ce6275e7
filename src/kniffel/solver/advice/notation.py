"""A sheet written on one line, for ``kniffel advise --sheet``.

``cell=points`` pairs separated by commas, e.g. ``ones=3,twos=6,kniffel=50`` in a
one-column preset and ``down.ones=3,up.kniffel=0,free.chance=22`` in a preset with
several columns (the cell names of docs/record-format.md). Cells left out are
empty. The entries are made by the rules engine in an order the columns allow
(↓ from the top, ↑ from the bottom), so every rule holds: points a cell cannot
take, a cell named twice or a gap in an arrow column are refused with one line.
"""

from __future__ import annotations

from kniffel.rules import Cell, Discipline, Enter, Game, KniffelError, Variant

__all__ = ["PLAYER", "parse_sheet"]

#: The one player of a position read from a sheet.
PLAYER = "Du"


def parse_sheet(variant: Variant, text: str) -> Game:
    """The one-player game whose sheet ``text`` describes (raises ``KniffelError``)."""
    game = Game(variant, [PLAYER])
    entries: list[tuple[Cell, int]] = []
    seen: set[Cell] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise KniffelError(f"{part!r} is not cell=points (e.g. ones=3)")
        try:
            cell = game.cell(name.strip())
        except KniffelError as exc:
            raise KniffelError(f"{name.strip()!r}: {exc}") from None
        try:
            points = int(value.strip())
        except ValueError:
            raise KniffelError(f"{part!r}: the points must be a whole number") from None
        if cell in seen:
            raise KniffelError(f"{name.strip()!r} is named twice")
        seen.add(cell)
        entries.append((cell, points))
    columns = {spec.id: spec for spec in variant.columns}
    rows = list(game.rows)

    def order(item: tuple[Cell, int]) -> tuple[int, int]:
        cell = item[0]
        spec = columns[cell.column]
        index = rows.index(cell.row)
        column = variant.columns.index(spec)
        return column, -index if spec.discipline is Discipline.UP else index

    for cell, points in sorted(entries, key=order):
        try:
            game.push(Enter(PLAYER, cell, points=points))
        except KniffelError as exc:
            raise KniffelError(f"{game.cell_name(cell)}={points}: {exc}") from None
    return game
