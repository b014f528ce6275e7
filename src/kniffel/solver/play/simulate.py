"""Seeded solitaire games of a bot, many at once.

Game ``g`` of seed ``S`` throws the dice of ``numpy.random.default_rng([S, g])``:
five faces for every roll of every turn (a reroll takes the first faces it
needs), then one uniform number per decision for the random bot. So a game's
dice do not depend on the batch it is played in, and every bot meets the same
throws. The games run on :class:`~kniffel.solver.play.sheets.SheetBatch` arrays, not
through ``Game.push``; :func:`game_events` turns a played game back into
events, and the tests replay those through the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Cell,
    Enter,
    Event,
    Roll,
    Row,
    Sheet,
    Variant,
    rows_for,
    upper_bonus,
)
from kniffel.solver.exact.dice_tables import KEEPS, ROLLS
from kniffel.solver.play.bots import Bot, Roller, TurnLog, make_bot
from kniffel.solver.play.family import FamilyBot, make_family_bot, play_game
from kniffel.solver.play.sheets import SheetBatch
from kniffel.solver.play.simulation import Simulation
from kniffel.solver.table_kinds import solvable

__all__ = ["BATCH", "Simulation", "faces_roller", "game_events", "simulate", "simulate_family"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

#: Games played side by side.
BATCH = 500

_KEEP_COUNTS = np.array([[keep.count(f) for f in range(1, 7)] for keep in KEEPS], dtype=np.int64)
_KEEP_SIZE = _KEEP_COUNTS.sum(axis=1)
_BASE = 6 ** np.arange(6, dtype=np.int64)
_ROLL_OF_CODE = np.full(6**6, -1, dtype=np.int64)
for _r, _dice in enumerate(ROLLS):
    _ROLL_OF_CODE[np.dot(_dice.counts, _BASE)] = _r


class _Dice:
    """The throws of a batch of games, roll by roll."""

    def __init__(self, seed: int, first: int, count: int, turns: int) -> None:
        faces = np.empty((count, turns, 3, 5), dtype=np.int64)
        choices = np.empty((count, turns, 3))
        for i in range(count):
            rng = np.random.default_rng([seed, first + i])
            faces[i] = rng.integers(1, 7, size=(turns, 3, 5))
            choices[i] = rng.random((turns, 3))
        self.faces = faces
        self.choices = choices

    def roller(self, turn: int) -> Roller:
        return faces_roller(self.faces[:, turn])


def faces_roller(faces: IntArray) -> Roller:
    """Rolls of one turn from faces drawn in advance, ``faces[game, roll, die]``.

    Roll ``j`` keeps the dice ``keep`` (an index into ``KEEPS``) and rerolls the
    rest with the first faces drawn for it; the answer is each game's roll index.
    """

    def roll(j: int, keep: IntArray) -> IntArray:
        rolled = 5 - _KEEP_SIZE[keep]  # the first `rolled` faces of this roll
        used = np.arange(5)[None, :] < rolled[:, None]
        counts = _KEEP_COUNTS[keep].copy()
        for f in range(6):
            counts[:, f] += ((faces[:, j] == f + 1) & used).sum(axis=1)
        return np.asarray(_ROLL_OF_CODE[counts @ _BASE])

    return roll


def simulate(
    variant: Variant,
    bot: str | Bot,
    games: int,
    seed: int = 0,
    *,
    progress: Callable[[int], None] | None = None,
    keep_logs: int = 0,
) -> Simulation:
    """Play ``games`` seeded solitaire games; ``keep_logs``: keep the turns of the first ones.

    Jamb, and Yams with its first-roll or announce column, have no solver tables: their
    games go through the rules engine one action at a time (:func:`simulate_family`).
    """
    if isinstance(bot, FamilyBot) or not solvable(variant):
        return simulate_family(variant, bot, games, seed, progress=progress)
    player = make_bot(bot, variant, seed) if isinstance(bot, str) else bot
    turns = len(rows_for(variant.options)) * len(variant.columns)
    n_cols = len(variant.columns)
    totals = np.zeros(games, dtype=np.int64)
    column_totals = np.zeros((games, n_cols), dtype=np.int64)
    bonus = np.zeros((games, n_cols), dtype=np.bool_)
    fifty = np.zeros((games, n_cols), dtype=np.bool_)
    extra = np.zeros(games, dtype=np.int64)
    logs: list[list[TurnLog]] = []
    start = time.perf_counter()
    for first in range(0, games, BATCH):
        count = min(BATCH, games - first)
        dice = _Dice(seed, first, count, turns)
        sheets = SheetBatch(variant, count)
        batch_logs = []
        for turn in range(turns):
            batch_logs.append(player.play_turns(sheets, dice.roller(turn), dice.choices[:, turn]))
        if first < keep_logs:
            logs.append(batch_logs)
        part = slice(first, first + count)
        column_totals[part] = sheets.column_totals()
        totals[part] = column_totals[part].sum(axis=1)
        bonus[part] = upper_bonus(sheets.upper) > 0
        fifty[part] = sheets.fifty
        extra[part] = sheets.bonus_kniffels
        if progress:
            progress(count)
    seconds = time.perf_counter() - start
    return Simulation(
        variant, player.name, seed, totals, column_totals, bonus, fifty, extra, seconds, logs
    )


def game_events(simulation: Simulation, game: int, player: str = "Bot") -> list[Event]:
    """The events of a game whose turns were kept (``keep_logs``), for the rules engine."""
    batch, index = divmod(game, BATCH)
    variant = simulation.variant
    rows = rows_for(variant.options)
    events: list[Event] = []
    for log in simulation.logs[batch]:
        for j in range(MAX_ROLLS):
            roll = int(log.rolls[index, j])
            if roll < 0:
                break
            keep = KEEPS[int(log.keeps[index, j - 1])] if j else ()
            events.append(Roll(player, ROLLS[roll], keep))
        slot = int(log.slot[index])
        column = variant.columns[_slot_column(variant, slot)].id
        events.append(Enter(player, Cell(column, rows[int(log.row[index])])))
    return events


def _slot_column(variant: Variant, slot: int) -> int:
    return int(SheetBatch(variant, 0).layout.column[slot])


def simulate_family(
    variant: Variant,
    bot: str | Bot | FamilyBot,
    games: int,
    seed: int = 0,
    *,
    first: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Seeded solitaire games of a Jamb or Yams bot, played through ``Game`` one by one.

    Game ``g`` throws the faces of ``default_rng([seed, g])`` as :func:`simulate` does;
    the games are ``first`` to ``first + games − 1``. The ``greedy`` and ``best`` bots named
    by their names play the same games on the light sheet of
    :mod:`kniffel.solver.play.family_fast` where it knows the rules (no joker, no bonus);
    a bot passed in plays through ``Game``.
    ``bonus`` is the column's upper bonus (Jamb: Σ1's 30), ``fifty`` a Jamb or Kniffel made
    in the column's last row of that name.
    """
    if isinstance(bot, str) and bot in ("greedy", "best"):
        from kniffel.solver.play.family_fast import simulate_light, supported

        if supported(variant):
            return simulate_light(variant, bot, games, seed, first=first, progress=progress)
    if isinstance(bot, str):
        player = make_family_bot(bot, variant, seed)
    elif isinstance(bot, FamilyBot):
        player = bot
    else:
        raise ValueError(f"the bot {bot.name} plays no {variant.label}")
    turns = len(rows_for(variant.options)) * len(variant.columns)
    columns = [spec.id for spec in variant.columns]
    jamb = variant.options.sheet is Sheet.JAMB
    made = Row.JAMB if jamb else Row.KNIFFEL
    totals = np.zeros(games, dtype=np.int64)
    column_totals = np.zeros((games, len(columns)), dtype=np.int64)
    bonus = np.zeros((games, len(columns)), dtype=np.bool_)
    fifty = np.zeros((games, len(columns)), dtype=np.bool_)
    start = time.perf_counter()
    for g in range(games):
        faces = np.random.default_rng([seed, first + g]).integers(1, 7, size=(turns, 3, 5))
        game = play_game(player, faces)
        for c, column in enumerate(columns):
            sums = game.column_totals(0, column)
            column_totals[g, c] = sums.total
            bonus[g, c] = sums.bonus > 0
            fifty[g, c] = bool(game.points(0, Cell(column, made)))
        totals[g] = game.total(0)
        if progress:
            progress(1)
    seconds = time.perf_counter() - start
    extra = np.zeros(games, dtype=np.int64)
    return Simulation(
        variant, player.name, seed, totals, column_totals, bonus, fifty, extra, seconds
    )
