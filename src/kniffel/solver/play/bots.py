"""Bots: who chooses the next action for the player to move.

A :class:`Bot` looks at a :class:`~kniffel.rules.Game` and returns the next
action of the player to move: a roll with the dice to keep, or an entry.
Every bot also plays whole turns for many sheets at once
(:meth:`Bot.play_turns`), which is how :mod:`kniffel.solver.play.simulate` runs
100,000 games in minutes; both ways share one decision rule.

- ``random``: each decision uniformly among the legal actions (every legal
  entry and every distinct keep, as ``Game.legal_actions`` lists them).
- ``greedy``: the most points this turn (upper bonus included), with the keeps
  that maximise their expectation, blind to the rest of the sheet.
- ``best``: the strongest per preset: the exact one-column table for Kniffel
  and Yahtzee, the Rauf-Runter estimate of :mod:`kniffel.solver.raufrunter.value`,
  and the columns' exact tables times their factors for Dreifach.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Action,
    Cell,
    Discipline,
    EnterAction,
    Game,
    IllegalMoveError,
    KniffelError,
    RollAction,
    Variant,
)
from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values
from kniffel.solver.play.sheets import Entries, SheetBatch
from kniffel.solver.play.values import ColumnValues, NoValue, SheetValue

__all__ = [
    "BOT_NAMES",
    "Bot",
    "RandomBot",
    "TurnLog",
    "ValueBot",
    "best_index",
    "keep_worth_per_roll",
    "make_bot",
]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

BOT_NAMES = ("random", "greedy", "best")

#: ``KEEP_SIZE[k]``: how many dice ``KEEPS[k]`` keeps; 5 means stop and enter.
KEEP_SIZE = np.array([len(keep) for keep in KEEPS], dtype=np.int64)
#: ``N_KEEPS[r]``: how many distinct keeps ``ROLLS[r]`` offers.
N_KEEPS = np.array([len(set(row)) for row in ROLL_KEEPS.tolist()], dtype=np.int64)
_NO_KEEP = 0  # KEEPS[0] is the empty keep: the first roll of a turn


@dataclass(frozen=True)
class TurnLog:
    """One turn of many sheets: ``rolls[b, j]`` (roll index, -1 if not rolled),
    ``keeps[b, j]`` (keep before roll ``j + 1``, -1 if none) and the entry."""

    rolls: IntArray  # [B, MAX_ROLLS]
    keeps: IntArray  # [B, MAX_ROLLS - 1]
    slot: IntArray  # [B]
    row: IntArray  # [B]
    gain: IntArray  # [B]
    #: The bot's own estimate, before the first roll, of the points still to come (NaN: none).
    expected: Array  # [B]


#: Rolls the dice of a turn: ``roll(j, keep)`` is roll ``j`` (0..2) after keeping ``keep``.
Roller = Callable[[int, IntArray], IntArray]


class Bot(Protocol):
    """A player: chooses actions in a game, and plays turns of many sheets at once."""

    name: str

    def choose(self, game: Game) -> Action:
        """The next action of the player to move (``game`` must not be finished)."""
        ...

    def play_turns(self, sheets: SheetBatch, roll: Roller, choices: Array) -> TurnLog:
        """Play one turn on every sheet (``choices[b, j]``: uniform numbers in [0, 1))."""
        ...


def best_index(values: Array) -> IntArray:
    """The index of the best value along the last axis, ties to the first.

    Values are rounded to 1e-9 first: equal keeps computed by differently
    blocked matrix products can differ in the last bits, and the bot must make
    the same choice for one sheet as for a batch.
    """
    return np.asarray(np.argmax(np.round(values, 9), axis=-1), dtype=np.int64)


def _mover(game: Game) -> int:
    player = game.current_player()
    if player is None:
        raise IllegalMoveError("the game is finished")
    return player


def _slot_cell(sheets: SheetBatch, entries: Entries, slot: int) -> Cell:
    column = sheets.variant.columns[int(sheets.layout.column[slot])].id
    return Cell(column, sheets.rows[int(entries.row[0, slot])])


class ValueBot:
    """Exact in-turn play over a value estimate of what follows each entry."""

    def __init__(self, name: str, value: SheetValue) -> None:
        self.name = name
        self.value = value

    def worth(self, sheets: SheetBatch) -> tuple[Entries, Array]:
        """The entries of this turn and ``worth[b, k, r] = gain + after`` (``-inf`` if illegal)."""
        entries = sheets.entries()
        after = self.value.after(sheets, entries)
        worth = np.where(entries.legal, entries.gain + after, -np.inf)
        return entries, worth

    def choose(self, game: Game) -> Action:
        player = _mover(game)
        pending = game.pending(player)
        if pending is None:
            return RollAction()
        dice, rolls = pending
        sheets = SheetBatch.of_game(game, player)
        entries, worth = self.worth(sheets)
        roll = ROLL_INDEX[dice]
        if rolls < MAX_ROLLS:
            keep_worth = keep_worth_per_roll(worth.max(axis=1))[rolls - 1][0]
            candidates = ROLL_KEEPS[roll]
            keep = int(candidates[best_index(keep_worth[candidates])])
            if KEEP_SIZE[keep] < 5:
                return RollAction(KEEPS[keep])
        return EnterAction(_slot_cell(sheets, entries, int(best_index(worth[0, :, roll]))))

    def distinct(self, sheets: SheetBatch) -> tuple[SheetBatch, IntArray]:
        """The distinct sheets of ``sheets`` and, per sheet, the index of its distinct one."""
        return sheets.distinct()

    def play_turns(self, sheets: SheetBatch, roll: Roller, choices: Array) -> TurnLog:
        # The turn's values depend only on what decides the future of a sheet, and the
        # sheets of a batch repeat (every game played on from one position starts alike):
        # the values are worked out once per distinct sheet and read by each game.
        distinct, of = self.distinct(sheets)
        entries, worth = self.worth(distinct)
        keep_worth = keep_worth_per_roll(worth.max(axis=1))
        after_one = keep_worth[0][:, ROLL_KEEPS].max(axis=-1)  # the best keep of each first roll
        expected = (after_one @ P_FIRST)[of]
        size = sheets.size
        rolls = np.full((size, MAX_ROLLS), -1, dtype=np.int64)
        keeps = np.full((size, MAX_ROLLS - 1), -1, dtype=np.int64)
        rolls[:, 0] = current = roll(0, np.full(size, _NO_KEEP, dtype=np.int64))
        rolling = np.ones(size, dtype=np.bool_)
        for j in (1, 2):
            candidates = ROLL_KEEPS[current]  # [B, 32]
            values = keep_worth[j - 1][of[:, None], candidates]
            keep = candidates[np.arange(size), best_index(values)]
            rolling &= KEEP_SIZE[keep] < 5
            keeps[rolling, j - 1] = keep[rolling]
            fresh = roll(j, keep)
            current = np.where(rolling, fresh, current)
            rolls[rolling, j] = current[rolling]
        slot = best_index(worth[of, :, current])
        return _enter(sheets, entries, rolls, keeps, slot, current, expected, of)


def keep_worth_per_roll(final: Array) -> tuple[Array, Array]:
    """``[B, keeps]``: each keep's worth with two rolls left, and with one roll left.

    ``final[b, r]`` is the worth of ending the turn with roll ``r``.
    """
    last = keep_values(final)
    after_two = np.maximum(final, last[:, ROLL_KEEPS].max(axis=-1))
    return keep_values(after_two), last


def _enter(
    sheets: SheetBatch,
    entries: Entries,
    rolls: IntArray,
    keeps: IntArray,
    slot: IntArray,
    final: IntArray,
    expected: Array,
    of: IntArray | None = None,
) -> TurnLog:
    """Enter ``final`` into ``slot`` on every sheet; ``entries[of[b]]`` are sheet ``b``'s
    (by default ``entries[b]``)."""
    games = np.arange(sheets.size)
    at = games if of is None else of
    if not entries.legal[at, slot, final].all():
        raise IllegalMoveError("a bot chose an illegal entry")
    row = entries.row[at, slot]
    gain = entries.gain[at, slot, final].astype(np.int64)
    sheets.enter(entries, slot, final, np.ones(sheets.size, dtype=np.bool_), of)
    return TurnLog(rolls, keeps, slot, row, gain, expected)


class RandomBot:
    """Each decision uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, game: Game) -> Action:
        _mover(game)
        actions = game.legal_actions()
        return actions[int(self.rng.random() * len(actions))]

    def play_turns(self, sheets: SheetBatch, roll: Roller, choices: Array) -> TurnLog:
        entries = sheets.entries()
        size = sheets.size
        games = np.arange(size)
        rolls = np.full((size, MAX_ROLLS), -1, dtype=np.int64)
        keeps = np.full((size, MAX_ROLLS - 1), -1, dtype=np.int64)
        rolls[:, 0] = current = roll(0, np.full(size, _NO_KEEP, dtype=np.int64))
        rolling = np.ones(size, dtype=np.bool_)
        slot = np.zeros(size, dtype=np.int64)
        for j in (0, 1, 2):
            legal = entries.legal[games, :, current]  # [B, K]
            n_entries = legal.sum(axis=1)
            n_keeps = N_KEEPS[current] if j < 2 else np.zeros(size, dtype=np.int64)
            pick = (choices[:, j] * (n_entries + n_keeps)).astype(np.int64)
            enters = rolling & (pick < n_entries)
            nth = np.argmax(np.cumsum(legal, axis=1) > pick[:, None], axis=1)
            slot = np.where(enters, nth, slot)
            rolling &= ~enters
            if j == 2:
                break
            keep = ROLL_KEEPS[current, np.minimum(np.maximum(pick - n_entries, 0), 31)]
            keeps[rolling, j] = keep[rolling]
            current = np.where(rolling, roll(j + 1, keep), current)
            rolls[rolling, j + 1] = current[rolling]
        return _enter(sheets, entries, rolls, keeps, slot, current, np.full(size, np.nan))


def best_value(variant: Variant) -> SheetValue:
    """The strongest estimate for ``variant``: see the module docstring."""
    disciplines = tuple(spec.discipline for spec in variant.columns)
    if disciplines == (Discipline.DOWN, Discipline.UP, Discipline.FREE):
        from kniffel.solver.raufrunter.correction import load_correction
        from kniffel.solver.raufrunter.value import RaufRunterValue

        return RaufRunterValue(variant.options, load_correction(variant.options))
    return ColumnValues(variant.options, disciplines)


def make_bot(name: str, variant: Variant, seed: int = 0) -> Bot:
    """The bot called ``name`` (one of :data:`BOT_NAMES`) for ``variant``."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return ValueBot("greedy", NoValue())
    if name == "best":
        return ValueBot("best", best_value(variant))
    raise KniffelError(f"unknown bot {name!r}; the bots are {', '.join(BOT_NAMES)}")
