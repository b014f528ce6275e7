"""Exact distributions of a player's points still to come, where they are cheap enough.

In a one-column game the best bot's policy is the exact solver's, and the
distribution of the points still to come from a sheet follows it exactly
(:class:`~kniffel.solver.chances.finals.LateFinals`: the solver's recursion with
a distribution in place of a value). Its cost is the number of sheet states
reachable from the sheet, which grows with the rows left open and, above all,
with the open upper rows (each multiplies the upper sums the bonus needs). From
an empty sheet it is every state of the column: minutes of work, not a request's
(docs/solver.md, "Win chances").

So :func:`exact_finals` looks the distribution up where the variant's finals table
(:mod:`kniffel.solver.chances.finals_table`: every state solved once, built in the
background for the presets) is on disk, and otherwise answers only where
:func:`reachable_states` (an upper bound, counted without solving anything) is at most
:data:`EXACT_STATES`; the forecast simulates elsewhere. One :class:`LateFinals` per
variant serves the whole process and keeps what it solved, so the positions that follow
a solved one (its reachable states) cost nothing more.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from kniffel.rules import UPPER_BONUS_THRESHOLD, Game, Row, Variant, rows_for
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.finals import LateFinals
from kniffel.solver.chances.finals_table import stored_finals
from kniffel.solver.per_variant import per_variant
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["EXACT_STATES", "exact_finals", "reachable_states", "shared_finals"]

Array = npt.NDArray[np.float64]

#: The most states a sheet may reach for its distribution to be solved within a request
#: (about 1 to 5 ms each on the development machine, docs/solver.md, "Win chances").
EXACT_STATES = 300

_LOCK = threading.Lock()


@per_variant
def shared_finals(variant: Variant) -> LateFinals:
    """The process's solver of late distributions for ``variant`` (one-column variants)."""
    return LateFinals(variant, best_bot(variant), limit=400_000)


def _upper_sums(start: int, faces: list[int]) -> int:
    """How many capped upper sums ``start`` plus 0 to 5 of each of ``faces`` can make."""
    sums = {min(start, UPPER_BONUS_THRESHOLD)}
    for face in faces:
        sums = {min(UPPER_BONUS_THRESHOLD, s + n * face) for s in sums for n in range(6)}
        if len(sums) == UPPER_BONUS_THRESHOLD + 1:
            break
    return len(sums)


def reachable_states(game: Game, player: int, limit: int = EXACT_STATES) -> int:
    """An upper bound of the states reachable from ``player``'s sheet (one column), counted
    up to just above ``limit``: every set of the open rows filled next, times the capped
    upper sums it can leave, twice where a 50 in the Kniffel row would count."""
    variant = game.variant
    if len(variant.columns) != 1:
        raise ValueError("counted for one-column variants only")
    rows = rows_for(variant.options)
    column = variant.columns[0].id
    open_rows = []
    upper = 0
    for row in rows:
        points = game.points(player, game.cell(f"{column}.{row.value}"))
        if points is None:
            open_rows.append(row)
        elif row.is_upper:
            upper += points
    if len(open_rows) > 12:
        return limit + 1
    armed = 2 if variant.options.kniffel_bonus > 0 else 1
    count = 0
    for subset in range(1 << len(open_rows)):
        chosen = [row for i, row in enumerate(open_rows) if subset >> i & 1]
        faces = [row.face for row in chosen if row.face is not None]
        kniffel = any(row is Row.KNIFFEL for row in chosen)
        count += _upper_sums(upper, faces) * (armed if kniffel else 1)
        if count > limit:
            return limit + 1
    return count


def exact_finals(game: Game, player: int, limit: int = EXACT_STATES) -> Array | None:
    """``d[i]``: the exact chance that ``player`` scores ``i`` more points playing on like
    the best bot, or ``None`` where that is not cheap (several columns, or more than
    ``limit`` states reachable and no finals table of the variant on disk)."""
    if len(game.variant.columns) != 1:
        return None
    table = stored_finals(game.variant)
    if table is not None:  # every state solved: a look-up (float32, within 1e-6)
        column = game.variant.columns[0].id
        return table.at(table.space.state_of(game, player, column))
    if reachable_states(game, player, limit) > limit:
        return None
    finals = shared_finals(game.variant)
    with _LOCK:  # one solver and its cache serve every request of the process
        found = finals.of(finals.keys(SheetBatch.of_game(game, player)))[0]
    return found.copy()
