"""Advice for every preset: what to keep or where to enter, and the expected final total.

One-column presets (``kniffel``, ``yahtzee``) are exact: :func:`evaluate`
reads their solved table (:func:`column_table`). Presets with several columns (``rauf-runter``,
``dreifach``) have no exact table; there the turn is still optimised exactly
over its three rolls, but what follows each entry is the estimate the
``best`` bot plays by (:func:`kniffel.solver.play.bots.best_value`), so the
advice and the bot agree. Every number is the expected final total of the
player to move, as if playing alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Action,
    AnnounceAction,
    Cell,
    Dice,
    Discipline,
    EnterAction,
    Game,
    KniffelError,
    Options,
    RollAction,
    Variant,
    rows_for,
)
from kniffel.solver.advice.family import family_choices, is_heuristic
from kniffel.solver.chances.calibration import load_calibration
from kniffel.solver.exact.column import ColumnTable, solve_column
from kniffel.solver.exact.dice_tables import KEEP_INDEX, KEEPS, P_FIRST, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.sheet_space import SheetState
from kniffel.solver.exact.turn import keep_values, stage_values
from kniffel.solver.play.bots import ValueBot, best_value
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["Advice", "Choice", "Position", "advise", "column_table", "evaluate", "is_exact"]

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Choice:
    """One action and the expected final total after it (with optimal play; in Jamb and Yams
    sheets without tables the ``best`` bot's heuristic worth: :mod:`.family`)."""

    action: Action | AnnounceAction
    expected: float
    points: int | None = None  # what an entry scores now (extra-Kniffel bonus included)

    @property
    def label(self) -> str:
        """Plain English, e.g. ``keep 6 6``, ``roll all dice``, ``enter sixes (18)``."""
        action = self.action
        if isinstance(action, EnterAction):
            return f"enter {action.cell.row.value} ({self.points})"
        if isinstance(action, AnnounceAction):
            return f"announce {action.cell}"
        if not action.keep:
            return "roll all dice"
        return "keep " + " ".join(map(str, action.keep))


@dataclass(frozen=True, slots=True)
class Advice:
    """The best action for ``player`` now and the best choices, best first."""

    player: str
    rolls: int  # rolls made in this turn so far (0: the turn starts with a roll)
    expected: float  # expected final total with optimal play from here
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Action | AnnounceAction:
        return self.choices[0].action


@lru_cache(maxsize=16)
def column_table(options: Options, discipline: Discipline) -> ColumnTable:
    """The solved table, kept in memory once loaded (advice must answer in milliseconds)."""
    return solve_column(options, discipline)


@dataclass(frozen=True, eq=False)
class _Turn:
    """One turn of one sheet: each entry's worth and each keep's, as points still to come."""

    slots: dict[Cell, int]  # the slot (row of ``worth``) of every cell that may take a roll
    worth: Array  # [slots, 252]: the entry's points now plus what follows it
    keeps_after_one: Array  # [462]: each keep's worth after the first roll
    keeps_after_two: Array  # [462]: after the second roll
    start: float  # the turn's worth before its first roll


def _turn_of(slots: dict[Cell, int], worth: Array) -> _Turn:
    final = worth.max(axis=0)
    after_one, after_two = stage_values(final)
    return _Turn(
        slots,
        worth,
        keep_values(after_two),
        keep_values(final),
        float(after_one @ P_FIRST),
    )


@lru_cache(maxsize=256)
def _column_turn(table: ColumnTable, column: str, state: SheetState) -> _Turn:
    worth = table.entries(state)
    slots = {Cell(column, row): j for j, row in enumerate(table.space.rows)}
    return _turn_of(slots, worth)


@lru_cache(maxsize=8)
def _best_bot(variant: Variant) -> ValueBot:
    """The ``best`` bot's decision rule, kept in memory (its tables load once)."""
    return ValueBot("best", best_value(variant))


@lru_cache(maxsize=256)
def _sheet_turn(variant: Variant, sheet: bytes) -> _Turn:
    sheets = SheetBatch(variant, 1)
    filled, upper, fifty = np.frombuffer(sheet, dtype=np.int64).reshape(3, -1)
    sheets.filled[0] = filled
    sheets.upper[0] = upper
    sheets.fifty[0] = fifty.astype(np.bool_)
    entries, worth = _best_bot(variant).worth(sheets)
    # The estimate ranks the choices; its level is calibrated by what the best bot then
    # scores (docs/solver.md, "Honest expected totals"): one shift for the whole turn.
    worth = worth + level_offset(variant, int(np.bitwise_count(filled).sum()))
    slots: dict[Cell, int] = {}
    for k, column in enumerate(sheets.layout.column.tolist()):
        row = int(entries.row[0, k])
        if row >= 0:
            slots[Cell(variant.columns[column].id, sheets.rows[row])] = k
    return _turn_of(slots, np.asarray(worth[0]))


def level_offset(variant: Variant, filled: int) -> float:
    """What the best bot scores beyond its own expectation, from a turn with ``filled`` cells
    filled (:mod:`kniffel.solver.chances.calibration`; 0 where it was not measured)."""
    calibration = load_calibration(variant)
    if calibration is None:
        return 0.0
    cells = len(variant.columns) * len(rows_for(variant.options))
    return calibration.offset[cells - filled]


def _turn(game: Game, player: int) -> _Turn:
    if is_exact(game.variant):
        spec = game.columns[0]
        table = column_table(game.options, spec.discipline)
        state = table.space.state_of(game, player, spec.id)
        return _column_turn(table, spec.id, state)
    sheets = SheetBatch.of_game(game, player)
    # What the bot's estimate and the entries' gains read of a sheet (the cached key);
    # the rest of the sheet is in the player's total.
    key = np.stack([sheets.filled[0], sheets.upper[0], sheets.fifty[0].astype(np.int64)])
    return _sheet_turn(game.variant, key.astype(np.int64).tobytes())


def is_exact(variant: Variant) -> bool:
    """Whether the advice for ``variant`` is exact (one column) or uses the bot's estimate."""
    return len(variant.columns) == 1 and not is_heuristic(variant)


@dataclass(frozen=True, eq=False)
class Position:
    """Every choice of the player to move, each with the expected final total after it.

    ``rolls`` is the number of rolls made in this turn (0 before the first
    one); dice given without a roll (physical dice) count as the last roll.
    """

    player: str
    rolls: int
    dice: Dice | None
    total: int  # the points on the player's sheet now
    choices: tuple[Choice, ...]  # every legal choice, best first
    turn: _Turn

    @property
    def expected(self) -> float:
        """The expected final total with the best choice from here."""
        return self.choices[0].expected

    def entry(self, cell: Cell) -> float:
        """The expected final total after entering the dice into ``cell``."""
        for choice in self.choices:
            if choice.action == EnterAction(cell):
                return choice.expected
        raise KniffelError(f"{cell} cannot take these dice now")

    def keep(self, keep: tuple[int, ...]) -> float:
        """The expected final total after keeping ``keep`` (any sub-multiset) and rolling."""
        if self.dice is None or not 1 <= self.rolls < MAX_ROLLS:
            raise KniffelError("there is no roll to keep dice from")
        ahead = self.turn.keeps_after_one if self.rolls == 1 else self.turn.keeps_after_two
        return self.total + float(ahead[KEEP_INDEX[tuple(sorted(keep))]])

    def value(self, action: Action | AnnounceAction) -> float:
        """The expected final total after ``action``."""
        if isinstance(action, EnterAction):
            return self.entry(action.cell)
        if isinstance(action, AnnounceAction):
            for choice in self.choices:
                if choice.action == action:
                    return choice.expected
            raise KniffelError(f"{action.cell} cannot be announced now")
        if self.dice is None:
            return self.expected
        return self.keep(action.keep)

    def advice(self, top: int | None = 5) -> Advice:
        """The best ``top`` choices (all with ``None``) as :class:`Advice`."""
        return Advice(self.player, self.rolls, self.expected, self.choices[:top])


def evaluate(game: Game, dice: Dice | None = None, rolls: int = MAX_ROLLS) -> Position:
    """Every choice of the player to move, valued (see the module docstring).

    Without ``dice``: the player's rolled dice, or, before the first roll of the
    turn, the one choice to roll. ``dice`` are dice thrown at the table and not
    recorded as a roll (physical dice); ``rolls`` says how many rolls made them
    (the default 3 leaves only the entries). Raises :class:`KniffelError` for a
    finished game, and for ``dice`` while the player has rolled dice pending.
    """
    p = game.current_player()
    if p is None:
        raise KniffelError("the game is finished; there is nothing to advise")
    name = game.players[p]
    pending = game.pending(p)
    if dice is not None:
        if pending is not None:
            raise KniffelError(f"{name} has rolled {pending[0]}; those dice count")
        if not 1 <= rolls <= MAX_ROLLS:
            raise KniffelError(f"rolls must be 1 to {MAX_ROLLS}, got {rolls}")
    elif pending is not None:
        dice, rolls = pending
    else:
        rolls = 0
    if is_heuristic(game.variant):
        return _family_position(game, p, dice, rolls)
    turn = _turn(game, p)
    total = game.total(p)
    if dice is None:
        start = total + turn.start
        return Position(name, 0, None, total, (Choice(RollAction(), start),), turn)
    roll = ROLL_INDEX[dice]
    # The engine says which entries are legal; the turn says what each is worth.
    choices = [
        Choice(
            EnterAction(option.cell),
            total + float(turn.worth[turn.slots[option.cell], roll]),
            option.points + option.kniffel_bonus,
        )
        for option in game.entry_options(p, dice)
    ]
    if rolls < MAX_ROLLS:
        ahead = turn.keeps_after_one if rolls == 1 else turn.keeps_after_two
        choices.extend(
            Choice(RollAction(KEEPS[k]), total + float(ahead[k]))
            for k in sorted(set(ROLL_KEEPS[roll].tolist()))
            if len(KEEPS[k]) < 5  # keeping all five is stopping: the entries
        )
    if not choices:
        raise KniffelError(f"{dice} fits no cell of {name}")
    choices.sort(key=lambda c: -c.expected)
    return Position(name, rolls, dice, total, tuple(choices), turn)


def _family_position(game: Game, p: int, dice: Dice | None, rolls: int) -> Position:
    """Jamb and Yams sheets without tables: the ``best`` family bot's values (:mod:`.family`),
    held in a turn of the same shape as the solver's (points still to come)."""
    found, valued = family_choices(game, p, dice, rolls)
    total = game.total(p)
    keeps = np.zeros(len(KEEPS))
    turn = _Turn(
        {},
        np.zeros((0, len(P_FIRST))),
        found.keeps(1) - total if dice is not None and rolls < MAX_ROLLS else keeps,
        found.keeps(2) - total if dice is not None and rolls < MAX_ROLLS else keeps,
        found.start() - total if dice is None else 0.0,
    )
    choices = sorted((Choice(a, v, points) for a, v, points in valued), key=lambda c: -c.expected)
    return Position(
        game.players[p], rolls if dice is not None else 0, dice, total, tuple(choices), turn
    )


def advise(
    game: Game, top: int | None = 5, dice: Dice | None = None, rolls: int = MAX_ROLLS
) -> Advice:
    """The best action for the player to move and the ``top`` best choices, in any preset.

    ``dice`` and ``rolls`` are as in :func:`evaluate`; ``top=None`` keeps every choice.
    """
    return evaluate(game, dice, rolls).advice(top)
