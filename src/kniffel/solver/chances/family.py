"""Simulated points still to come on Jamb and Yams sheets: games of the ``best`` family bot.

The sheets the solver has no tables for (:func:`kniffel.solver.builds.solvable`) have no exact
distribution and no vectorised bot; their win chances come from games of the ``best`` family bot
(:mod:`kniffel.solver.play.family`) played on from the player's sheet
(:meth:`kniffel.rules.Game.alone`: the sheet at the start of the player's next turn), on the
light sheet of :mod:`kniffel.solver.play.family_fast` where it plays the variant (the engine's
games, tested), else through the rules engine. As in :mod:`.sampled`, game ``i`` of a sheet
is seeded by the sheet (every cell's points: all that decides the future here) and by ``i``,
so the same sheet gets the same games in the API, the board and ``kniffel chances``, the first
``n`` games are the same whatever their number, and after an entry only the sheet that changed
is played again (a bot of its own plays a sheet's games, keeping what they share).

A game's cost grows with the open cells its turns value: :func:`family_samples_for` gives
``BUDGET // (left * (left + OPEN))`` games, at least :data:`MIN_SAMPLES` and at most
:data:`MAX_SAMPLES` (docs/solver.md, "Win chances"). The board works them out in the background
and then narrows them with more games of the same sheets (:mod:`.refine`): the process keeps
each sheet's longest run of games, and asked for more it plays only the games after them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from kniffel.kept import Kept
from kniffel.rules import Cell, Game, Variant, turns_of
from kniffel.solver.play.family import FamilyBot, make_family_bot, play_game
from kniffel.solver.play.family_batch import play_light_batch
from kniffel.solver.play.family_fast import column_sums, play_light, supported

__all__ = [
    "BUDGET",
    "MAX_SAMPLES",
    "MIN_SAMPLES",
    "family_finals",
    "family_kept",
    "family_samples_for",
]

IntArray = npt.NDArray[np.int64]

#: The work of one sheet's games, in units of a game's cost: a game with ``left`` entries left
#: costs about ``left * (left + OPEN)`` units (an early turn weighs more: it values more open
#: cells), some 2 µs of CPU each with the games in step (4 µs one by one, when the budget was
#: 240,000), so a sheet's games take about a second there (docs/benchmarks.md, "A sheet's
#: games in step"): the board asks again each second while they are worked out, so it shows
#: them some 1 to 2 s after an entry.
BUDGET = 420_000
OPEN = 17
MIN_SAMPLES = 24
MAX_SAMPLES = 4000
#: A sheet's games are played in step (``play_light_batch``) this many at a time, so that the
#: board hears their progress; fewer than ``FEWEST_IN_STEP`` one by one, which is faster for so
#: few (docs/benchmarks.md, "A sheet's games in step").
IN_STEP = 128
FEWEST_IN_STEP = 8
#: Sheets whose games the process keeps (each sheet's longest run of games played so far), and
#: the bytes they may hold together: a sheet narrowed to the cap holds up to 16 times 4,000
#: games (512 KB; :mod:`.refine`).
KEPT = 256
KEPT_BYTES = 32 * 2**20
#: Mixed into every sheet's seed, so that these games are not those of ``kniffel simulate``.
SEED = 23

_kept: Kept[tuple[Variant, int, int], IntArray] = Kept(
    KEPT, weight=lambda games: games.nbytes, max_weight=KEPT_BYTES
)


def family_samples_for(left: int, budget: int = BUDGET) -> int:
    """Games for a sheet with ``left`` entries left (0 for a full sheet)."""
    if left <= 0:
        return 0
    return max(MIN_SAMPLES, min(MAX_SAMPLES, budget // (left * (left + OPEN))))


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
    *,
    keep: bool = True,
    bot: FamilyBot | None = None,
) -> IntArray:
    """The points ``player`` still scores in each of ``n`` games of the best family bot from
    their sheet (by default :func:`family_samples_for`), seeded by the sheet; ``progress``
    hears the share of games played. ``keep``: whether the process keeps them for the next
    ask (the board's live chances do; the end chart's hundreds of sheets would push theirs
    out). ``bot``: the best family bot of ``game``'s variant to play them (by default one of
    their own); the end chart's sheets share one, whose kept worths serve the next round."""
    left = game.cells_per_player - game.filled_count(player)
    if n is None:
        n = family_samples_for(left)
    if n <= 0 or left == 0:
        return np.zeros(0, dtype=np.int64)
    key = sheet_key(game, player)
    if not keep:
        return _played(game, player, n, key, seed, progress, bot)
    # The sheet's games played so far: asked for more, only the games after them are played
    # (the first ``n`` games of a sheet are the same whatever ``n``: the board's refinement
    # doubles them, docs/solver.md, "Win chances").
    found = _kept.find((game.variant, key, seed))
    have = 0 if found is None else len(found)
    if found is not None and have >= n:
        return found[:n]
    more = _played(game, player, n, key, seed, progress, bot, first=have)
    if found is not None:
        more = np.concatenate([found, more])
        more.flags.writeable = False
    again = _kept.find((game.variant, key, seed))
    if again is None or len(again) < len(more):  # never a shorter run for a longer one
        _kept.put((game.variant, key, seed), more)
    return more


def family_kept(game: Game, player: int, seed: int = SEED) -> int:
    """How many games of ``player``'s sheet the process keeps (0: none)."""
    found = _kept.peek((game.variant, sheet_key(game, player), seed))
    return 0 if found is None else len(found)


def _played(
    game: Game,
    player: int,
    n: int,
    key: int,
    seed: int,
    progress: Callable[[float], None] | None,
    bot: FamilyBot | None = None,
    first: int = 0,
) -> IntArray:
    """Games ``first`` to ``n - 1`` of the sheet."""
    solo = game.alone(player)
    name = solo.players[0]
    before = solo.total(0)
    turns = turns_of(game.variant)
    # A bot of its own: what it keeps (a column's worth, an open cell's worths) serves this
    # sheet's games, which share their columns; it is given back with them (it would hold
    # tens of megabytes kept for good, and a warm bot saved no measurable time).
    if bot is None:
        bot = make_family_bot("best", game.variant)
    light = supported(game.variant)
    start = tuple(solo.column_points(0, spec.id) for spec in game.columns)
    factors = [spec.factor for spec in game.columns]
    points = np.empty(n - first, dtype=np.int64)

    # Game i's dice alone, indexed by the filled count as play_game reads them (the whole
    # sheet's turns): the first n games are the same whatever n.
    def thrown(i: int) -> IntArray:
        return np.random.default_rng([seed, key, i]).integers(1, 7, size=(turns, 3, 5))

    def scored(cells: Sequence[Sequence[int]]) -> int:
        total = sum(
            column_sums(game.variant, tuple(column), factor)[0]
            for column, factor in zip(cells, factors, strict=True)
        )
        return total - before

    if light and n - first >= FEWEST_IN_STEP:
        # the games in step, some at a time (so that progress is heard): play_light's games,
        # game for game
        for block in range(first, n, IN_STEP):
            last = min(n, block + IN_STEP)
            faces = np.stack([thrown(i) for i in range(block, last)])
            for i, cells in enumerate(play_light_batch(bot, faces, name, start=start), block):
                points[i - first] = scored(cells.tolist())
            if progress is not None:
                progress((last - first) / (n - first))
    else:
        for i in range(first, n):
            if light:
                points[i - first] = scored(play_light(bot, thrown(i), name, start=start).cells)
            else:
                points[i - first] = play_game(bot, thrown(i), name, solo.copy()).total(0) - before
            if progress is not None:
                progress((i + 1 - first) / (n - first))
    points.flags.writeable = False
    return points
