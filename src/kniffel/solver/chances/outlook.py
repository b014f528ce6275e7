"""From a position in the middle of a turn: how the player's game ends, by simulation.

:func:`outlook` plays ``samples`` seeded continuations with the best bot from
a player's sheet and the dice on the table (after roll 1, 2 or 3): the rest of
this turn exactly as the bot plays it (keeps, then the entry), then the
remaining turns. It reports the share of games in which each column reaches
the upper bonus and in which its ``kniffel`` cell holds 50, and the totals.

:func:`choice_outlooks` does the same for each of several choices of the player
(an entry, or a keep and the rest of the turn as the bot plays it) beside the
bot's own play from the position, on the same dice (common random numbers: the
differences between the choices are not drowned in the dice's noise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    UPPER_BONUS_THRESHOLD,
    Action,
    Cell,
    Dice,
    EnterAction,
    Game,
    Row,
)
from kniffel.solver.chances.distribution import best_bot, roller, sheets_of, turns_left
from kniffel.solver.exact.dice_tables import KEEP_INDEX, KEEPS, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values
from kniffel.solver.play.bots import best_index
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["ChoiceOutlook", "Outlook", "choice_outlooks", "outlook"]

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


def _finish_turn(
    sheets: SheetBatch,
    faces: IntArray,
    roll: int | IntArray,
    rolls_made: int,
    game: Game,
    where: npt.NDArray[np.bool_] | None = None,
) -> None:
    """The rest of the turn from ``roll`` after ``rolls_made`` rolls, as the best bot plays it
    (on the sheets in ``where``, all by default)."""
    bot = best_bot(game.variant)
    entries, worth = bot.worth(sheets)
    final = worth.max(axis=1)  # [B, 252]
    last = keep_values(final)  # keeps with one roll left
    after_two = np.maximum(final, last[:, ROLL_KEEPS].max(axis=-1))
    first = keep_values(after_two)  # keeps with two rolls left
    size = sheets.size
    current = np.broadcast_to(np.asarray(roll, dtype=np.int64), (size,)).copy()
    rolling = np.ones(size, dtype=np.bool_)
    roll_dice = roller(faces, 0)
    for made in range(rolls_made, MAX_ROLLS):
        values = first if made == 1 else last
        candidates = ROLL_KEEPS[current]
        chosen = best_index(np.take_along_axis(values, candidates, axis=1))
        keep = candidates[np.arange(size), chosen]
        rolling &= _KEEP_SIZE[keep] < 5
        current = np.where(rolling, roll_dice(made, keep), current)
    slot = best_index(worth[np.arange(size), :, current])
    sheets.enter(entries, slot, current, np.ones(size, dtype=np.bool_) if where is None else where)


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


@dataclass(frozen=True)
class ChoiceOutlook:
    """Per column: the share of games reaching the upper bonus; and the share in which a
    ``kniffel`` cell that is open now gets its 50 (``None``: none is open)."""

    bonus: dict[str, float]
    kniffel: float | None


def _slot_of(sheets: SheetBatch, cell: Cell, game: Game) -> int:
    entries = sheets.entries()
    for k, column in enumerate(sheets.layout.column.tolist()):
        row = int(entries.row[0, k])
        if row >= 0 and Cell(game.variant.columns[column].id, sheets.rows[row]) == cell:
            return k
    raise ValueError(f"{cell} cannot take an entry now")


def choice_outlooks(
    game: Game,
    dice: Dice | None,
    rolls: int,
    actions: Sequence[Action],
    samples: int = 200,
    seed: int = 0,
) -> tuple[ChoiceOutlook, list[ChoiceOutlook]]:
    """The outlook with the bot's play from the position, and after each of ``actions``.

    ``dice`` after ``rolls`` rolls (``None``: before the first roll, where the one
    action is to roll). Every action is followed by the bot's play, on the same
    ``samples`` seeded throws as the others.
    """
    player = game.current_player()
    if player is None:
        raise ValueError("the game is finished")
    groups = 1 + len(actions)
    one = SheetBatch.of_game(game, player)
    sheets = sheets_of(game, [player], samples * groups)
    left = turns_left(game, player)
    rng = np.random.default_rng([seed, left, rolls])
    faces = np.tile(rng.integers(1, 7, size=(samples, left, 3, 5)), (groups, 1, 1, 1))
    group = np.repeat(np.arange(groups), samples)
    if dice is None:
        first = 0  # before the first roll: every choice is the bot's turn
    else:
        first = 1
        roll = ROLL_INDEX[dice]
        current = np.full(sheets.size, roll, dtype=np.int64)
        made = np.full(sheets.size, rolls, dtype=np.int64)
        entering = np.zeros(sheets.size, dtype=np.bool_)
        slots = np.zeros(sheets.size, dtype=np.int64)
        for g, action in enumerate(actions, start=1):
            mine = group == g
            if isinstance(action, EnterAction):
                entering |= mine
                slots[mine] = _slot_of(one, action.cell, game)
            else:
                keep = np.full(int(mine.sum()), KEEP_INDEX[tuple(sorted(action.keep))])
                current[mine] = roller(faces[mine], 0)(rolls, keep)
                made[mine] = rolls + 1
        if entering.any():
            sheets.enter(sheets.entries(), slots, current, entering)
        for m in sorted(set(made[~entering].tolist())):
            where = ~entering & (made == m)
            _finish_turn(sheets, faces, current, m, game, where)
    bot = best_bot(game.variant)
    choices = np.zeros((sheets.size, 3))
    for turn in range(first, left):
        bot.play_turns(sheets, roller(faces, turn), choices)
    columns = [spec.id for spec in game.variant.columns]
    open_now = (one.filled[0] & (1 << one.rows.index(Row.KNIFFEL))) == 0
    reached = sheets.upper >= UPPER_BONUS_THRESHOLD
    scored = (sheets.fifty & open_now[None, :]).any(axis=1)
    result = []
    for g in range(groups):
        mine = group == g
        bonus = reached[mine].mean(axis=0)
        result.append(
            ChoiceOutlook(
                {c: float(b) for c, b in zip(columns, bonus.tolist(), strict=True)},
                float(scored[mine].mean()) if open_now.any() else None,
            )
        )
    return result[0], result[1:]
