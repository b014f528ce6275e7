"""Simulated points still to come from a sheet, seeded by the sheet itself.

Where the exact distribution is out of reach (:mod:`.endgame`), a player's
points still to come are those of ``n`` games of the best bot played on from
their sheet. Only what decides the future is kept of a sheet (its key, as in
:class:`~kniffel.solver.chances.finals.LateFinals`), so the games are seeded by
the key (and by ``n``): the same sheet gets the same games wherever it is asked
for (the series of the CLI and the end-of-game chart, the API, the board), and
after an entry only the player who entered needs new games. The process keeps
the last :data:`KEPT` sheets' games.

``n`` follows the work: :func:`samples_for` gives ``budget // entries left``
games, but never fewer than :data:`MIN_SAMPLES` nor more than :data:`MAX_SAMPLES`.
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt

from kniffel.kept import Kept
from kniffel.rules import UPPER_BONUS_THRESHOLD, Game, Variant
from kniffel.solver.chances.distribution import best_bot, roller, sheets_of, turns_left
from kniffel.solver.chances.finals import LateFinals

__all__ = ["BUDGET", "KEPT", "MAX_SAMPLES", "MIN_SAMPLES", "sample_finals", "samples_for"]

IntArray = npt.NDArray[np.int64]

#: Bot turns simulated for one sheet (games times entries left); about a second of work on
#: the development machine when it is quiet.
BUDGET = 2000
MIN_SAMPLES = 60
MAX_SAMPLES = 2000
#: Sheets whose games the process keeps.
KEPT = 512
#: Mixed into every sheet's seed, so that these games are not those of ``kniffel simulate``.
SEED = 20

_kept: Kept[tuple[Variant, int, int, int], IntArray] = Kept(KEPT)


def samples_for(left: int, budget: int = BUDGET) -> int:
    """Games for a sheet with ``left`` entries left (0 for a full sheet)."""
    if left <= 0:
        return 0
    return max(MIN_SAMPLES, min(MAX_SAMPLES, budget // left))


def sheet_key(game: Game, player: int) -> int:
    """What decides ``player``'s future points (filled rows, capped upper sums, 50s)."""
    from kniffel.solver.play.sheets import SheetBatch

    sheet = SheetBatch.of_game(game, player)
    if len(game.variant.columns) <= 3:
        return int(LateFinals.keys_of(game.variant, sheet)[0])
    fields = np.concatenate(
        [sheet.filled[0], np.minimum(sheet.upper[0], UPPER_BONUS_THRESHOLD), sheet.fifty[0]]
    )
    return int.from_bytes(hashlib.sha256(fields.astype(np.int64).tobytes()).digest()[:8], "big")


def sample_finals(game: Game, player: int, n: int | None = None, seed: int = SEED) -> IntArray:
    """The points ``player`` still scores in each of ``n`` games of the best bot from their
    sheet (by default :func:`samples_for`), seeded by the sheet's key (none for a full sheet).
    ``seed`` other than :data:`SEED` only for measuring the figures' spread (benchmarks)."""
    left = turns_left(game, player)
    if n is None:
        n = samples_for(left)
    if n <= 0 or left == 0:
        return np.zeros(0, dtype=np.int64)
    key = sheet_key(game, player)
    return _kept.get((game.variant, key, n, seed), lambda: _played(game, player, n, key, seed))


def _played(game: Game, player: int, n: int, key: int, seed: int) -> IntArray:
    left = turns_left(game, player)
    sheets = sheets_of(game, [player], n)
    before = sheets.totals()
    rng = np.random.default_rng([seed, key, n])
    faces = rng.integers(1, 7, size=(n, left, 3, 5))
    bot = best_bot(game.variant)
    choices = np.zeros((n, 3))
    for turn in range(left):
        bot.play_turns(sheets, roller(faces, turn), choices)
    points = np.asarray(sheets.totals() - before, dtype=np.int64)
    points.flags.writeable = False
    return points
