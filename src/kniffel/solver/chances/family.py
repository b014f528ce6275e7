"""Simulated points still to come on Jamb and Yams sheets: games of the ``best`` family bot.

The sheets the solver has no tables for (:func:`kniffel.solver.builds.solvable`) have no exact
distribution and no vectorised bot; their win chances come from games of the ``best`` family bot
(:mod:`kniffel.solver.play.family`) played on from the player's sheet through the rules engine
(:meth:`kniffel.rules.Game.alone`: the sheet at the start of the player's next turn). As in
:mod:`.sampled`, the games are seeded by the sheet (every cell's points: all that decides the
future here) and by their number, so the same sheet gets the same games in the API, the board
and ``kniffel chances``, and after an entry only the sheet that changed is played again.

A bot turn through the engine costs some 10 to 20 ms, about fifty times a vectorised Kniffel
turn, so the budget is smaller: :func:`family_samples_for` gives ``BUDGET // entries left``
games, at least :data:`MIN_SAMPLES` and at most :data:`MAX_SAMPLES` (docs/solver.md, "Jamb
and Yams: the bot's heuristic"). The board works them out in the background.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from kniffel.kept import Kept
from kniffel.rules import Cell, Game, Variant, turns_of
from kniffel.solver.play.family import make_family_bot, play_game

__all__ = ["BUDGET", "MAX_SAMPLES", "MIN_SAMPLES", "family_finals", "family_samples_for"]

IntArray = npt.NDArray[np.int64]

#: Bot turns played for one sheet (games times entries left): about 15 s on the development
#: machine when it is quiet.
BUDGET = 1200
MIN_SAMPLES = 24
MAX_SAMPLES = 400
#: Sheets whose games the process keeps.
KEPT = 256
#: Mixed into every sheet's seed, so that these games are not those of ``kniffel simulate``.
SEED = 23

_kept: Kept[tuple[Variant, int, int, int], IntArray] = Kept(KEPT)


def family_samples_for(left: int, budget: int = BUDGET) -> int:
    """Games for a sheet with ``left`` entries left (0 for a full sheet)."""
    if left <= 0:
        return 0
    return max(MIN_SAMPLES, min(MAX_SAMPLES, budget // left))


def sheet_key(game: Game, player: int) -> int:
    """The player's sheet: every column's points, cell by cell, and any extra-Kniffel bonus."""
    cells = [
        (
            game.column_points(player, spec.id),
            [game.cell_bonus(player, Cell(spec.id, row)) for row in game.rows],
        )
        for spec in game.columns
    ]
    digest = hashlib.sha256(repr(cells).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def family_finals(
    game: Game,
    player: int,
    n: int | None = None,
    seed: int = SEED,
    progress: Callable[[float], None] | None = None,
) -> IntArray:
    """The points ``player`` still scores in each of ``n`` games of the best family bot from
    their sheet (by default :func:`family_samples_for`), seeded by the sheet; ``progress``
    hears the share of games played."""
    left = game.cells_per_player - game.filled_count(player)
    if n is None:
        n = family_samples_for(left)
    if n <= 0 or left == 0:
        return np.zeros(0, dtype=np.int64)
    key = sheet_key(game, player)
    return _kept.get(
        (game.variant, key, n, seed), lambda: _played(game, player, n, key, seed, progress)
    )


def _played(
    game: Game,
    player: int,
    n: int,
    key: int,
    seed: int,
    progress: Callable[[float], None] | None,
) -> IntArray:
    solo = game.alone(player)
    name = solo.players[0]
    before = solo.total(0)
    rng = np.random.default_rng([seed, key, n])
    # Indexed by the filled count, as play_game reads them: the whole sheet's turns.
    faces = rng.integers(1, 7, size=(n, turns_of(game.variant), 3, 5))
    bot = make_family_bot("best", game.variant)
    points = np.empty(n, dtype=np.int64)
    for i in range(n):
        played = play_game(bot, faces[i], name, solo.copy())
        points[i] = played.total(0) - before
        if progress is not None:
            progress((i + 1) / n)
    points.flags.writeable = False
    return points
