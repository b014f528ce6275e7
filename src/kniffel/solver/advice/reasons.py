"""Why the Tipp ranks its choices: each choice's chances of the upper bonus and of a Kniffel.

For the player to move, :func:`reasons` gives, now and after each choice, when the
player plays on like the best bot (docs/solver.md, "The Tipp's reasons"):

- ``bonus``: per column, the chance that its upper sum reaches 63 by the end;
- ``kniffel``: the chance that a ``kniffel`` cell that is open now gets its 50
  (``None`` when none is open).

They are properties of the position (the sheet, the dice, the rolls made), never of
sampling noise. One-column presets read them exactly off the chance table
(:mod:`kniffel.solver.exact.chance_table`) when it is built; elsewhere (and until it
is) :mod:`.turn_ends` carries this turn exactly and simulates what follows from each
end state in seeded streams, with enough games for a 95 % interval of at most ±2
points of percentage. Both are cached by the position, so a page and its JSON ask
once; :func:`start` computes the simulated ones in a background thread, so that a
page need not wait for them (:func:`pending` says how far it is), and :func:`ahead` lets
that thread work out the start of a player's turn while the others play: the end states'
streams it plays are the ones the turn's first Tipp reads (docs/solver.md, "The Tipp's
reasons"), so that Tipp mostly reads games already played.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import overload

import numpy as np
import numpy.typing as npt

from kniffel.kept import Kept
from kniffel.priority import lower_this_thread
from kniffel.rules import (
    MAX_ROLLS,
    UPPER_BONUS_THRESHOLD,
    Action,
    Cell,
    Discipline,
    Enter,
    EnterAction,
    Game,
    Options,
    Roll,
    RollAction,
    Row,
    holds_fifty,
)
from kniffel.solver.advice import turn_ends
from kniffel.solver.advice.position import column_table
from kniffel.solver.advice.turn_ends import HALF_WIDTH, estimate
from kniffel.solver.chances.distribution import turns_left
from kniffel.solver.exact.chance_table import ChanceTable, entry_chances, load_chances
from kniffel.solver.exact.dice_tables import KEEP_INDEX, P_FIRST, P_KEEP, ROLL_KEEPS, ROLLS
from kniffel.solver.exact.sheet_space import SheetState, StateBatch
from kniffel.solver.play.bots import best_index
from kniffel.solver.play.sheets import SheetBatch

__all__ = [
    "AHEAD_HALF_WIDTH",
    "AHEAD_WORK",
    "HALF_WIDTH",
    "Chances",
    "Reasons",
    "ahead",
    "exact_chances",
    "first_reasons",
    "pending",
    "reasons",
    "start",
]

Array = npt.NDArray[np.float64]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Chances:
    """Per column the chance of the upper bonus; the chance of a Kniffel still to come."""

    bonus: dict[str, float]
    kniffel: float | None
    #: The figures the sheet settles already (the column ids, and ``kniffel``): only these
    #: may be 0 or 1 on the board (a bonus is settled once reached, or out of reach even
    #: with five of each open face; a Kniffel once the cells open now are filled).
    decided: frozenset[str] = frozenset()

    def as_dict(self) -> dict[str, object]:
        return {"bonus": self.bonus, "kniffel": self.kniffel}


@dataclass(frozen=True)
class Reasons:
    """The chances now (playing on like the best bot) and after each choice, in order."""

    method: str  # "exact" | "simulation"
    samples: int  # simulated games behind the figures, over every end state (0 when exact)
    now: Chances
    after: tuple[Chances | None, ...]
    half_width: float = 0.0  # the widest 95 % half-width of a figure (0 when exact)
    #: ``None``: the figures are final. Else a first answer, within a small bound of work
    #: (:data:`.turn_ends.FIRST_WORK`) and with its wider interval, while the final figures
    #: are worked out: this far (0 to 1).
    refining: float | None = None


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
    row = best_index(worth.T)
    final = worth[row, rolls]
    after_three = entries[:, row, rolls]
    last_values = P_KEEP @ final
    keeps_last = after_three @ P_KEEP.T
    pick = ROLL_KEEPS[rolls, best_index(last_values[ROLL_KEEPS])]
    two_values = last_values[pick]
    after_two = keeps_last[:, pick]
    first_values = P_KEEP @ two_values
    keeps_first = after_two @ P_KEEP.T
    after_one = keeps_first[:, ROLL_KEEPS[rolls, best_index(first_values[ROLL_KEEPS])]]
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


class _Cache:
    """Reasons by position (the player's sheet, dice, rolls and choices), least recent out:
    the final ones, and apart from them the first answers of those still being worked out."""

    def __init__(self, size: int = 256) -> None:
        self._kept: Kept[object, Reasons] = Kept(size)
        self._first: Kept[object, Reasons] = Kept(size)

    def get(self, key: object) -> Reasons | None:
        return self._kept.find(key)

    def put(self, key: object, value: Reasons) -> None:
        self._kept.put(key, value)
        self._first.pop(key)

    def first(self, key: object) -> Reasons | None:
        return self._first.find(key)

    def put_first(self, key: object, value: Reasons) -> None:
        self._first.put(key, value)


_CACHE = _Cache()


def _sheet_key(game: Game, player: int) -> bytes:
    sheets = SheetBatch.of_game(game, player)
    parts = [sheets.filled, sheets.upper, sheets.lower, sheets.kniffel_bonus, sheets.fifty]
    return b"".join(np.ascontiguousarray(p, dtype=np.int64).tobytes() for p in parts)


@overload
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
) -> Reasons: ...
@overload
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    compute: bool,
) -> Reasons | None: ...
def reasons(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    compute: bool = True,
) -> Reasons | None:
    """The chances now and after each of ``actions`` for the player to move.

    ``dice_index`` is the roll on the table (an index into ``ROLLS``; ``None`` before
    the first roll) after ``rolls`` rolls. ``exact`` asks for the chance table (one
    column only; when it is not on disk, or in several columns, the chances are
    simulated, :mod:`.turn_ends`). Without ``compute``: only what is kept already
    (else ``None``).
    """
    key, table = _key(game, dice_index, rolls, actions, exact)
    found = _CACHE.get(key)
    if found is not None or not compute:
        return found
    return _compute(key, table, game, dice_index, rolls, actions)


def _key(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    exact: bool,
    player: int | None = None,
) -> tuple[tuple[object, ...], ChanceTable | None]:
    """The position's key: what its reasons depend on (the player's sheet, not who moves)."""
    if player is None:
        player = game.current_player()
    if player is None:
        raise ValueError("the game is finished")
    one_column = exact and len(game.columns) == 1
    table = exact_chances(game.options, game.columns[0].discipline) if one_column else None
    key = (
        game.variant,
        _sheet_key(game, player),
        dice_index,
        rolls,
        tuple(actions),
        table is not None,
    )
    return key, table


def _compute(
    key: object,
    table: ChanceTable | None,
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    progress: _Progress | None = None,
    player: int | None = None,
    *,
    first: bool = False,
) -> Reasons:
    """``player``: only for the start of a turn of a player not to move (the work ahead).
    ``first``: the position's first answer, within :data:`.turn_ends.FIRST_WORK`; kept as
    final when its rounds were not cut short (the full ones would read the same games)."""
    if table is not None:
        now, exact_after = _exact(game, table, dice_index, rolls, actions)
        result = Reasons("exact", 0, now, tuple(exact_after))
        complete = True
    else:
        found = estimate(game, dice_index, rolls, actions, progress, player=player, first=first)
        chances = [Chances(b, k) for b, k in zip(found.bonus, found.kniffel, strict=True)]
        result = Reasons(
            "simulation", found.games, chances[0], tuple(chances[1:]), found.half_width
        )
        complete = found.complete or not first
    result = _settled(game, dice_index, actions, result, player)
    if complete:
        _CACHE.put(key, result)
        return result
    result = replace(result, refining=0.0)
    _CACHE.put_first(key, result)
    return result


def _decided(game: Game, player: int, open_now: list[Cell]) -> frozenset[str]:
    """What ``game``'s sheet of ``player`` settles (see :attr:`Chances.decided`)."""
    settled = set()
    for spec in game.columns:
        upper = game.column_totals(player, spec.id).upper
        most = sum(
            5 * (row.face or 0)
            for row in game.rows
            if row.is_upper and game.points(player, game.cell(f"{spec.id}.{row.value}")) is None
        )
        if upper >= UPPER_BONUS_THRESHOLD or upper + most < UPPER_BONUS_THRESHOLD:
            settled.add(spec.id)
    held = [game.points(player, cell) for cell in open_now]
    if any(p is not None and holds_fifty(True, p) for p in held) or all(
        p is not None for p in held
    ):
        settled.add(Row.KNIFFEL.value)
    return frozenset(settled)


def _settled(
    game: Game,
    dice_index: int | None,
    actions: Sequence[Action],
    result: Reasons,
    player: int | None = None,
) -> Reasons:
    """``result`` with what the sheet settles now, and after each entry."""
    if player is None:
        player = game.current_player()
    assert player is not None
    open_now = [
        game.cell(f"{spec.id}.{Row.KNIFFEL.value}")
        for spec in game.columns
        if game.points(player, game.cell(f"{spec.id}.{Row.KNIFFEL.value}")) is None
    ]
    now = _decided(game, player, open_now)
    after: list[Chances | None] = []
    for action, found in zip(actions, result.after, strict=True):
        settled = now
        if isinstance(action, EnterAction) and dice_index is not None:
            entered = game.copy()
            name = game.players[player]
            if entered.pending(player) is None:
                entered.push(Roll(name, ROLLS[dice_index], ()))
            entered.push(Enter(name, action.cell))
            settled = _decided(entered, player, open_now)
        after.append(None if found is None else replace(found, decided=settled))
    return replace(result, now=replace(result.now, decided=now), after=tuple(after))


_Progress = Callable[[float], None]


#: Positions waiting for the background at most (a page that asks again queues its own anew).
_QUEUED = 4
#: Starts of turns waiting to be worked out ahead at most (the latest first): one per seat.
_AHEAD = 8
#: How far the work ahead goes beyond the start's own figures: every end state to
#: ±:data:`AHEAD_HALF_WIDTH` at the start's weights (at most the 2,401 games a position ever
#: reads from one state), within :data:`AHEAD_WORK` times the bound of work. Measured, the
#: turn's Tipps after a roll then read what they need (docs/solver.md, "The Tipp's reasons").
AHEAD_HALF_WIDTH = HALF_WIDTH / 2
AHEAD_WORK = 2


class _Preempted(Exception):
    """A Tipp was asked while the background worked ahead, or one without its first answer
    while it worked out another's final figures: the asked one goes first."""


class _Background:
    """One thread that works out simulated reasons, the latest asked first; how far each is.
    Each asked position gets its first answer (:data:`.turn_ends.FIRST_WORK`), then its final
    figures; a position asked meanwhile stops those at the next round of games until its own
    first answer is there (the games played stay; asked again, the stopped one goes on).
    When nothing is asked it works ahead (:func:`ahead`), and stops that at the next round of
    games when something is asked."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Positions asked for, the latest served first; the oldest fall out.
        self._wanted: Kept[object, tuple[Game, int | None, int, tuple[Action, ...]]] = Kept(_QUEUED)
        self._progress: dict[object, float] = {}
        #: Asked positions still without their first answer: they stop final figures.
        self._firstless: set[object] = set()
        #: Starts of turns to work out ahead, when nothing is asked; the oldest fall out.
        self._ahead: Kept[object, tuple[Game, tuple[Action, ...], int]] = Kept(_AHEAD)
        self._working_ahead = False
        #: Starts of turns worked out ahead, and those stopped for an asked Tipp; final
        #: figures stopped for another's first answer (the tests).
        self.worked_ahead = 0
        self.stopped_ahead = 0
        self.stopped = 0
        self._done = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def start(
        self,
        key: object,
        game: Game,
        dice_index: int | None,
        rolls: int,
        actions: tuple[Action, ...],
    ) -> None:
        with self._lock:
            if key in self._progress:
                return
            self._progress[key] = 0.0
            if _CACHE.first(key) is None:
                self._firstless.add(key)
            # Positions long left behind are dropped.
            for dropped, _ in self._wanted.put(key, (game.copy(), dice_index, rolls, actions)):
                self._progress.pop(dropped, None)
                self._firstless.discard(dropped)
            self._ensure_thread()

    def work_ahead(self, key: object, game: Game, actions: tuple[Action, ...], player: int) -> None:
        """Work out the start of ``player``'s next turn (no dice yet) when nothing is asked;
        the latest wish first."""
        with self._lock:
            if key in self._progress or key in turn_ends.STREAMS.ahead:
                return
            self._ahead.put(key, (game.copy(), actions, player))
            self._ensure_thread()

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._work, name="tipp-reasons", daemon=True)
            self._thread.start()

    def progress(self, key: object) -> float | None:
        with self._lock:
            return self._progress.get(key)

    def wait(self, key: object, seconds: float, *, first: bool = False) -> None:
        """Wait up to ``seconds`` until ``key`` is worked out or left off, or (``first``)
        until its first answer is there."""

        def done() -> bool:
            return key not in self._progress or (first and _CACHE.first(key) is not None)

        with self._done:
            self._done.wait_for(done, timeout=seconds)

    def wait_idle(self, seconds: float) -> bool:
        """Wait up to ``seconds`` until nothing is asked, worked out or waiting to be worked
        out ahead; whether so."""

        def idle() -> bool:
            return not self._progress and not self._working_ahead and not len(self._ahead)

        with self._done:
            return self._done.wait_for(idle, timeout=seconds)

    def _work(self) -> None:
        # Below the requests (issue 21): a busy background never slows an entry down.
        lower_this_thread()
        while True:
            with self._lock:
                newest = self._wanted.pop_newest()
                upcoming = None if newest is not None else self._ahead.pop_newest()
                if newest is None and upcoming is None:
                    self._thread = None
                    return
                self._working_ahead = upcoming is not None
            if upcoming is not None:
                self._work_ahead(upcoming[0], *upcoming[1])
                continue
            assert newest is not None
            key, (game, dice_index, rolls, actions) = newest

            def told(done: float, key: object = key) -> None:
                with self._lock:
                    self._progress[key] = done
                    if self._firstless:
                        raise _Preempted

            try:
                _first_answer(key, game, dice_index, rolls, actions)
                with self._done:
                    self._firstless.discard(key)
                    self._done.notify_all()
                if _CACHE.get(key) is None:
                    _compute(key, None, game, dice_index, rolls, actions, told)
            except _Preempted:
                self.stopped += 1  # asked again, it goes on from the games played
            finally:
                with self._done:
                    self._progress.pop(key, None)
                    self._firstless.discard(key)
                    self._done.notify_all()

    def _work_ahead(
        self, key: object, game: Game, actions: tuple[Action, ...], player: int
    ) -> None:
        def unless_asked(_done: float) -> None:
            if len(self._wanted):
                raise _Preempted

        try:
            if _CACHE.get(key) is None:  # the Tipp before the first roll: its own figures
                _compute(key, None, game, None, 0, actions, unless_asked, player)
            # Then more games, for the Tipps after a roll; nothing kept but the games.
            estimate(
                game,
                None,
                0,
                actions,
                unless_asked,
                half_width=AHEAD_HALF_WIDTH,
                work=AHEAD_WORK * turn_ends.WORK,
                player=player,
            )
            turn_ends.STREAMS.ahead.put(key, True)
            self.worked_ahead += 1
        except _Preempted:
            self.stopped_ahead += 1  # the games it played stay in the streams
        except Exception:  # working ahead is a courtesy: it must never stop the thread
            _log.exception("working out the reasons ahead failed")
        finally:
            with self._done:
                self._working_ahead = False
                self._done.notify_all()


_BACKGROUND = _Background()


def ahead(game: Game, player: int) -> None:
    """Let the background work out the start of ``player``'s next turn (no dice yet) when
    nothing is asked. A player's sheet stays as it is until their turn, so this can start as
    soon as their last entry is stored, while the others play. Where the reasons are
    simulated (several columns), the games it plays from the turn's end states are those the
    turn's Tipps read, whatever the dice then are, so they come in a fraction of the time
    (docs/solver.md, "The Tipp's reasons"). The figures stay those of each position: a
    position reads the first chunks of each stream whether played ahead or not. Nothing for
    a player whose turn has begun (dice rolled), who has no turn left, or in one column."""
    if len(game.columns) == 1 or game.pending(player) is not None or not turns_left(game, player):
        return
    actions = (RollAction(),)  # the one choice before the first roll: what its Tipp asks
    key, _ = _key(game, None, 0, actions, exact=False, player=player)
    _BACKGROUND.work_ahead(key, game, actions, player)


def start(
    game: Game, dice_index: int | None, rolls: int, actions: Sequence[Action], *, exact: bool
) -> Reasons | float:
    """The reasons when they are kept (or exact), else, having asked the background to work
    them out, their first answer when it is there (``refining`` says how far the final ones
    are), else how far the background is (0 to 1)."""
    key, table = _key(game, dice_index, rolls, actions, exact)
    found = _CACHE.get(key)
    if found is not None:
        return found
    if table is not None:
        return _compute(key, table, game, dice_index, rolls, actions)
    _BACKGROUND.start(key, game, dice_index, rolls, tuple(actions))
    return _so_far(key)


def _so_far(key: object) -> Reasons | float:
    """The final reasons, else the first answer with how far the final ones are, else how far."""
    progress = _BACKGROUND.progress(key) or 0.0
    first = _CACHE.first(key)
    # Read after the first answer: the final one is kept before the first answer is dropped,
    # so a position never goes back from its first answer to none.
    found = _CACHE.get(key)
    if found is not None:
        return found
    return progress if first is None else replace(first, refining=progress)


def pending(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    *,
    exact: bool,
    seconds: float,
) -> Reasons | float:
    """As :func:`start`, waiting up to ``seconds`` for the background: for the final figures,
    or, when not even the first answer was there, for that."""
    found = start(game, dice_index, rolls, actions, exact=exact)
    if isinstance(found, Reasons) and found.refining is None:
        return found
    key, _ = _key(game, dice_index, rolls, actions, exact)
    _BACKGROUND.wait(key, seconds, first=isinstance(found, float))
    return _so_far(key)


def first_reasons(
    game: Game, dice_index: int | None, rolls: int, actions: Sequence[Action]
) -> Reasons:
    """The simulated reasons as the background gives them first: the final ones when kept,
    else the first answer (computed here when not kept; ``refining`` 0 unless final). What
    the board shows within a second (benchmarks/tipp.py times it)."""
    key, _ = _key(game, dice_index, rolls, actions, exact=False)
    return _first_answer(key, game, dice_index, rolls, actions)


def _first_answer(
    key: object, game: Game, dice_index: int | None, rolls: int, actions: Sequence[Action]
) -> Reasons:
    """The final reasons of ``key`` when kept, else its first answer, computed once."""
    found = _CACHE.get(key) or _CACHE.first(key)
    if found is not None:
        return found
    return _compute(key, None, game, dice_index, rolls, actions, first=True)
