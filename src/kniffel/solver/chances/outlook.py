"""From a position in the middle of a turn: how the player's game ends, by simulation.

:func:`outlook` plays ``samples`` seeded continuations with the best bot from
a player's sheet and the dice on the table (after roll 1, 2 or 3): the rest of
this turn exactly as the bot plays it (keeps, then the entry), then the
remaining turns. It reports the share of games in which each column reaches
the upper bonus and in which its ``kniffel`` cell holds 50, and the totals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import UPPER_BONUS_THRESHOLD, Dice, Game
from kniffel.solver.chances.distribution import best_bot, roller, sheets_of, turns_left
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["Outlook", "outlook"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

_KEEP_SIZE = np.array([len(keep) for keep in KEEPS], dtype=np.int64)


@dataclass(frozen=True)
class Outlook:
    """``samples`` continuations: final totals, and per column bonus and Kniffel rates."""

    totals: IntArray
    bonus_rate: dict[str, float]
    kniffel_rate: dict[str, float]

    @property
    def samples(self) -> int:
        return len(self.totals)


def _best(values: Array) -> IntArray:
    return np.asarray(np.argmax(np.round(values, 9), axis=-1), dtype=np.int64)


def _finish_turn(
    sheets: SheetBatch, faces: IntArray, roll: int, rolls_made: int, game: Game
) -> None:
    """The rest of the turn from ``roll`` after ``rolls_made`` rolls, as the best bot plays it."""
    bot = best_bot(game.variant)
    entries, worth = bot.worth(sheets)
    final = worth.max(axis=1)  # [B, 252]
    last = keep_values(final)  # keeps with one roll left
    after_two = np.maximum(final, last[:, ROLL_KEEPS].max(axis=-1))
    first = keep_values(after_two)  # keeps with two rolls left
    size = sheets.size
    current = np.full(size, roll, dtype=np.int64)
    rolling = np.ones(size, dtype=np.bool_)
    roll_dice = roller(faces, 0)
    for made in range(rolls_made, 3):
        values = first if made == 1 else last
        candidates = ROLL_KEEPS[current]
        keep = candidates[np.arange(size), _best(np.take_along_axis(values, candidates, axis=1))]
        rolling &= _KEEP_SIZE[keep] < 5
        current = np.where(rolling, roll_dice(made, keep), current)
    slot = _best(worth[np.arange(size), :, current])
    sheets.enter(entries, slot, current, np.ones(size, dtype=np.bool_))


def outlook(
    game: Game, dice: Dice | None, rolls: int, samples: int = 500, seed: int = 0
) -> Outlook:
    """Continuations of the player to move in ``game``, holding ``dice`` after ``rolls`` rolls
    (``None``: before the first roll of the turn)."""
    player = game.current_player()
    if player is None:
        raise ValueError("the game is finished")
    sheets = sheets_of(game, [player], samples)
    left = turns_left(game, player)
    rng = np.random.default_rng([seed, left])
    faces = rng.integers(1, 7, size=(samples, left, 3, 5))
    first = 0
    if dice is not None:
        _finish_turn(sheets, faces, ROLL_INDEX[dice], rolls, game)
        first = 1
    bot = best_bot(game.variant)
    choices = np.zeros((samples, 3))
    for turn in range(first, left):
        bot.play_turns(sheets, roller(faces, turn), choices)
    columns = [spec.id for spec in game.variant.columns]
    bonus = (sheets.upper >= UPPER_BONUS_THRESHOLD).mean(axis=0)
    fifty = sheets.fifty.mean(axis=0)
    return Outlook(
        np.asarray(sheets.totals(), dtype=np.int64),
        {c: float(b) for c, b in zip(columns, bonus.tolist(), strict=True)},
        {c: float(f) for c, f in zip(columns, fifty.tolist(), strict=True)},
    )
