"""Why the Tipp ranks its choices: each choice's chances of the upper bonus and of a Kniffel.

For the player to move, :func:`reasons` gives, now and after each choice, when the
player plays on like the best bot (docs/solver.md, "Exact chances"):

- ``bonus``: per column, the chance that its upper sum reaches 63 by the end;
- ``kniffel``: the chance that a ``kniffel`` cell that is open now gets its 50
  (``None`` when none is open).

One-column presets read them exactly off the chance table
(:mod:`kniffel.solver.exact.chance_table`) when it is built; elsewhere (and until it
is) they are shares of seeded games of the best bot
(:func:`kniffel.solver.chances.outlook.choice_outlooks`). Both are cached by the
position, so a page and its JSON ask once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Action,
    Discipline,
    EnterAction,
    Game,
    Options,
    Row,
)
from kniffel.solver.advice.position import column_table
from kniffel.solver.chances.distribution import turns_left
from kniffel.solver.chances.outlook import ChoiceOutlook, choice_outlooks
from kniffel.solver.exact.chance_table import ChanceTable, entry_chances, load_chances
from kniffel.solver.exact.dice_tables import KEEP_INDEX, P_FIRST, P_KEEP, ROLL_KEEPS, ROLLS
from kniffel.solver.exact.sheet_space import SheetState, StateBatch
from kniffel.solver.play.sheets import SheetBatch

__all__ = [
    "BUDGET",
    "Chances",
    "Reasons",
    "exact_chances",
    "reasons",
    "samples_for",
]

Array = npt.NDArray[np.float64]

#: The simulation's bound: games times turns left, over the position and every choice
#: (about half a millisecond each on the development machine).
BUDGET = 6000
#: Where the chances are simulated: for this many choices at most (the best first); the
#: others have none (``None``).
SIMULATED = 6
#: Simulated games per choice: at least (early in a long game the budget gives fewer) and
#: at most (late, where the budget would give more).
MIN_SAMPLES, MAX_SAMPLES = 20, 400


@dataclass(frozen=True)
class Chances:
    """Per column the chance of the upper bonus; the chance of a Kniffel still to come."""

    bonus: dict[str, float]
    kniffel: float | None

    def as_dict(self) -> dict[str, object]:
        return {"bonus": self.bonus, "kniffel": self.kniffel}


@dataclass(frozen=True)
class Reasons:
    """The chances now (playing on like the best bot) and after each choice, in order."""

    method: str  # "exact" | "simulation"
    samples: int  # simulated games per choice (0 when exact)
    now: Chances
    after: tuple[Chances | None, ...]  # None: not simulated (beyond the first SIMULATED)


_LOADED: dict[tuple[Options, Discipline], ChanceTable] = {}


def exact_chances(options: Options, discipline: Discipline) -> ChanceTable | None:
    """The chance table read from disk and kept in memory; ``None`` when it is not there
    (never built here: the board's table builder builds it)."""
    key = (options, discipline)
    found = _LOADED.get(key)
    if found is None:
        found = load_chances(column_table(options, discipline))
        if found is not None:
            _LOADED[key] = found
    return found


def _best(values: Array) -> npt.NDArray[np.int64]:
    return np.asarray(np.argmax(np.round(values, 9), axis=-1), dtype=np.int64)


@dataclass(frozen=True, eq=False)
class _ExactTurn:
    """One state's turn: chances ``[2, ...]`` (bonus, Kniffel) at every stage, as the
    best bot plays it (its argmax over values rounded to 1e-9)."""

    entries: Array  # [2, rows, 252]
    after_three: Array  # [2, 252]: the best entry of each final roll
    after_two: Array  # [2, 252]: each roll with one roll left
    after_one: Array  # [2, 252]: each roll with two rolls left
    keeps_last: Array  # [2, 462]: each keep with one roll left
    keeps_first: Array  # [2, 462]: each keep with two rolls left
    start: Array  # [2]


def _exact_turn(chances: ChanceTable, state: SheetState) -> _ExactTurn:
    table = chances.table
    worth = table.entries(state)  # [rows, 252]
    batch = StateBatch(*(np.array([x], dtype=np.int64) for x in state))
    entries = entry_chances(table.space, chances.bonus, chances.kniffel, batch)[..., 0]
    rolls = np.arange(worth.shape[1])
    row = _best(worth.T)
    final = worth[row, rolls]
    after_three = entries[:, row, rolls]
    last_values = P_KEEP @ final
    keeps_last = after_three @ P_KEEP.T
    pick = ROLL_KEEPS[rolls, _best(last_values[ROLL_KEEPS])]
    two_values = last_values[pick]
    after_two = keeps_last[:, pick]
    first_values = P_KEEP @ two_values
    keeps_first = after_two @ P_KEEP.T
    after_one = keeps_first[:, ROLL_KEEPS[rolls, _best(first_values[ROLL_KEEPS])]]
    return _ExactTurn(
        entries, after_three, after_two, after_one, keeps_last, keeps_first, after_one @ P_FIRST
    )


def _exact(
    game: Game,
    chances: ChanceTable,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
) -> tuple[Chances, list[Chances]]:
    player = game.current_player()
    assert player is not None
    spec = game.columns[0]
    space = chances.space
    state = space.state_of(game, player, spec.id)
    turn = _exact_turn(chances, state)
    kniffel_cell = game.cell(f"{spec.id}.{Row.KNIFFEL.value}")
    is_open = game.points(player, kniffel_cell) is None

    def of(pair: Array) -> Chances:
        # Rounded to 1e-12: a certain bonus is 1, not 0.9999999999999992.
        bonus, kniffel = (round(float(p), 12) for p in pair)
        return Chances({spec.id: bonus}, kniffel if is_open else None)

    if dice_index is None:
        return of(turn.start), [of(turn.start) for _ in actions]
    stage = {1: turn.after_one, 2: turn.after_two, MAX_ROLLS: turn.after_three}[rolls]
    after = []
    for action in actions:
        if isinstance(action, EnterAction):
            pair = turn.entries[:, space.rows.index(action.cell.row), dice_index]
        else:
            keeps = turn.keeps_first if rolls == 1 else turn.keeps_last
            pair = keeps[:, KEEP_INDEX[tuple(sorted(action.keep))]]
        after.append(of(pair))
    return of(stage[:, dice_index]), after


def _of_outlook(outlook: ChoiceOutlook) -> Chances:
    return Chances(outlook.bonus, outlook.kniffel)


class _Cache:
    """Reasons by position (the player's sheet, dice, rolls and choices), least recent out."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._done: OrderedDict[object, Reasons] = OrderedDict()

    def get(self, key: object) -> Reasons | None:
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
            return found

    def put(self, key: object, value: Reasons) -> None:
        with self._lock:
            self._done[key] = value
            while len(self._done) > self.size:
                self._done.popitem(last=False)


_CACHE = _Cache()


def _sheet_key(game: Game, player: int) -> bytes:
    sheets = SheetBatch.of_game(game, player)
    parts = [sheets.filled, sheets.upper, sheets.lower, sheets.kniffel_bonus, sheets.fifty]
    return b"".join(np.ascontiguousarray(p, dtype=np.int64).tobytes() for p in parts)


def samples_for(game: Game, choices: int, budget: int = BUDGET) -> int:
    """Simulated games per choice (and for the position) within ``budget``."""
    player = game.current_player()
    left = 1 if player is None else max(1, turns_left(game, player))
    return min(MAX_SAMPLES, max(MIN_SAMPLES, budget // ((choices + 1) * left)))


@overload
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    samples: int | None = None,
    seed: int = 0,
) -> Reasons: ...
@overload
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    samples: int | None = None,
    seed: int = 0,
    compute: bool,
) -> Reasons | None: ...
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    samples: int | None = None,
    seed: int = 0,
    compute: bool = True,
) -> Reasons | None:
    """The chances now and after each of ``actions`` for the player to move.

    ``dice_index`` is the roll on the table (an index into ``ROLLS``; ``None`` before
    the first roll) after ``rolls`` rolls. ``exact`` asks for the chance table (one
    column only; when it is not on disk, or in several columns, the chances are
    simulated); otherwise ``samples`` seeded games of the best bot per choice (by
    default as many as :data:`BUDGET` allows).
    """
    player = game.current_player()
    if player is None:
        raise ValueError("the game is finished")
    one_column = exact and len(game.columns) == 1
    table = exact_chances(game.options, game.columns[0].discipline) if one_column else None
    exact = table is not None
    if samples is None:
        samples = samples_for(game, min(len(actions), SIMULATED))
    key = (
        game.variant,
        _sheet_key(game, player),
        dice_index,
        rolls,
        tuple(actions),
        exact,
        samples,
        seed,
    )
    found = _CACHE.get(key)
    if found is not None or not compute:
        return found
    if table is not None:
        now, exact_after = _exact(game, table, dice_index, rolls, actions)
        result = Reasons("exact", 0, now, tuple(exact_after))
    else:
        dice = None if dice_index is None else ROLLS[dice_index]
        simulated = actions[:SIMULATED]
        base, outlooks = choice_outlooks(game, dice, rolls, simulated, samples, seed)
        after: list[Chances | None] = [_of_outlook(o) for o in outlooks]
        after += [None] * (len(actions) - len(simulated))
        result = Reasons("simulation", samples, _of_outlook(base), tuple(after))
    _CACHE.put(key, result)
    return result
