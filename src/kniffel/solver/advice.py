"""Exact advice in one-column games: what to keep or where to enter, and what it is worth.

Every number is the expected final total of the player to move (the points
on the sheet plus the points still to come), playing optimally from then on
as if alone: the one-column solver maximises the player's own score.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Action,
    Discipline,
    EnterAction,
    Game,
    KniffelError,
    Options,
    RollAction,
)
from kniffel.solver.column import ColumnTable, solve_column
from kniffel.solver.dice_tables import KEEPS, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.sheet_space import SheetState
from kniffel.solver.turn import keep_values, stage_values

__all__ = ["Advice", "Choice", "advise", "column_table"]

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Choice:
    """One action and the expected final total after it (with optimal play)."""

    action: Action
    expected: float
    points: int | None = None  # what an entry scores now (extra-Kniffel bonus included)

    @property
    def label(self) -> str:
        """Plain English, e.g. ``keep 6 6``, ``roll all dice``, ``enter sixes (18)``."""
        action = self.action
        if isinstance(action, EnterAction):
            return f"enter {action.cell.row.value} ({self.points})"
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
    def best(self) -> Action:
        return self.choices[0].action


@lru_cache(maxsize=16)
def column_table(options: Options, discipline: Discipline) -> ColumnTable:
    """The solved table, kept in memory once loaded (advice must answer in milliseconds)."""
    return solve_column(options, discipline)


@lru_cache(maxsize=64)
def _turn(table: ColumnTable, state: SheetState) -> tuple[Array, Array, Array]:
    """A turn's entry values, its final vector and the value of each roll with one roll left.

    Kept for the few calls of one turn (and of players in the same state).
    """
    worth = table.entries(state)
    final = worth.max(axis=0)
    return worth, final, stage_values(final)[1]


def advise(game: Game, top: int = 5) -> Advice:
    """Exact advice for the player to move in a one-column game (``kniffel``, ``yahtzee``).

    ``choices`` holds the ``top`` best keeps and entries (after a roll) or the
    one choice to roll (before it). Raises :class:`KniffelError` for other
    variants and for a finished game.
    """
    if len(game.columns) != 1:
        raise KniffelError(
            "exact advice covers one-column variants (kniffel, yahtzee); "
            f"{game.variant.name} has {len(game.columns)} columns"
        )
    p = game.current_player()
    if p is None:
        raise KniffelError("the game is finished; there is nothing to advise")
    spec = game.columns[0]
    table = column_table(game.options, spec.discipline)
    state = table.space.state_of(game, p, spec.id)
    so_far = game.total(p)
    pending = game.pending(p)
    name = game.players[p]
    if pending is None:
        expected = so_far + table.value(state)
        return Advice(name, 0, expected, (Choice(RollAction(), expected),))
    dice, rolls = pending
    roll = ROLL_INDEX[dice]
    worth, final, after_two = _turn(table, state)
    row_of = {row: j for j, row in enumerate(table.space.rows)}
    # The engine says which entries are legal; the table says what each is worth.
    choices = [
        Choice(
            EnterAction(entry.cell),
            so_far + float(worth[row_of[entry.cell.row], roll]),
            entry.points + entry.kniffel_bonus,
        )
        for entry in game.entry_options(p)
    ]
    if rolls < MAX_ROLLS:
        ahead = keep_values(after_two if rolls == 1 else final)
        choices.extend(
            Choice(RollAction(KEEPS[k]), so_far + float(ahead[k]))
            for k in sorted(set(ROLL_KEEPS[roll].tolist()))
            if len(KEEPS[k]) < 5  # keeping all five is stopping, listed as the entries
        )
    choices.sort(key=lambda c: -c.expected)
    return Advice(name, rolls, choices[0].expected, tuple(choices[:top]))
