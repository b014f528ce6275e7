"""The Tipp's reasons where they are simulated: this turn exactly, what follows by seeded games.

Where no chance table holds them (several columns, or a one-column house rule until its
table is built), the chances of the upper bonus per column and of a Kniffel come in two
parts (docs/solver.md, "The Tipp's reasons"):

- **this turn, exactly.** However the turn goes, it ends in one of a few *end states*:
  the sheet with one more cell filled, told apart by what matters for what follows (the
  filled cells, each column's upper sum, which Kniffel cells hold 50). The best bot's
  keeps and entry are read off its values for the sheet at the start of the turn, so the
  probability of each end state, from the start, after each roll and after each keep or
  entry, is carried through the dice's probabilities exactly;
- **what follows, by simulation.** From each end state the best bot plays the remaining
  turns in seeded games. Each end state's games are one stream seeded by that state (and
  the cells open now), taken in chunks of :data:`CHUNK`: every request, every roll and
  every option of the turn that reaches the state reads the same games.

A figure is the sum over end states of its probability times the share of games. How many
games each state needs is chosen so that every figure's 95 % interval is at most
±:data:`HALF_WIDTH` (Neyman allocation from a first chunk each, then rounds until it
holds), within a bound of work (:data:`WORK`): early in a long game the bound may come
first, and the figures then carry their wider interval. A position reads only the first
chunks its own rounds chose, so it always gets the same numbers, whatever was asked
before. A column whose bonus is decided in an end state (reached, or out of reach even
with five of each open face) needs no games there; it counts exactly 1 or 0.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.kept import Kept
from kniffel.rules import (
    MAX_ROLLS,
    UPPER_BONUS_THRESHOLD,
    Action,
    Cell,
    EnterAction,
    Game,
    Row,
    holds_fifty,
)
from kniffel.solver.chances.distribution import best_bot, roller, turns_left
from kniffel.solver.chances.interval import Z95
from kniffel.solver.exact.dice_tables import KEEP_INDEX, P_FIRST, P_KEEP, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values
from kniffel.solver.play.bots import best_index
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["CHUNK", "FIRST_WORK", "HALF_WIDTH", "STREAMS", "WORK", "Estimate", "estimate"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Games per chunk of an end state's stream (small, so that a first answer within its
#: bound of work (:data:`FIRST_WORK`) reaches many end states).
CHUNK = 4
#: The widest 95 % interval a simulated figure may have (±2 points of percentage).
HALF_WIDTH = 0.02
#: The bound of one position's work: games times turns still to play after this one.
#: Enough for ±2 points at the earliest positions measured in Rauf-Runter and Dreifach
#: (about 4,700 games 31 turns before the end: 13 to 19 s in Rauf-Runter, 45 s in Dreifach
#: on the quiet development machine; the first answer shows meanwhile). Where it is spent
#: before every figure is within ±2 points, the figures say how sure they are
#: (``half_width``). 60,000 until 5 December 2026, when the earliest figures stopped at ±6.
WORK = 180_000
#: The bound of a position's first answer: games times turns still to play times the bot's
#: slots (the cells a sheet of the variant may have open to it at once: 15 in Rauf-Runter,
#: the free column and each arrow's due cell; 39 in Dreifach's three free columns; a bot's
#: turn costs about in proportion). About 0.4 s on the quiet development machine early in a
#: game, where the final figures take seconds. Its figures carry their own, wider interval;
#: the final ones follow from the same streams (docs/solver.md, "The Tipp's reasons").
FIRST_WORK = 60_000
#: Enough games for any figure: with all its weight on one state and a share of 1/2,
#: 1.96² / 4 / 0.02² = 2401 games give ±2 points.
_MOST_CHUNKS = math.ceil(Z95**2 / 4 / HALF_WIDTH**2 / CHUNK)


@dataclass(frozen=True)
class Estimate:
    """Per figure (now, then after each action): per column the bonus chance, the Kniffel
    chance (``None``: no Kniffel cell open now); the games behind them and the widest
    95 % half-width among them; ``half_widths``: each figure's own, per column then the
    Kniffel (0 where the end states settle it; what the calibration benchmark checks)."""

    bonus: tuple[dict[str, float], ...]
    kniffel: tuple[float | None, ...]
    games: int
    half_width: float
    half_widths: tuple[tuple[float, ...], ...] = ()
    #: Whether every figure reached its interval (or its most games); ``False``: the bound
    #: of work came first, so a larger bound would read more games.
    complete: bool = True


# ------------------------------------------------------------------ this turn


@dataclass(frozen=True, eq=False)
class _Turn:
    """The end states of one turn (a sheet each) and the bot's play towards them."""

    ends: SheetBatch  # one sheet per end state
    end_of: IntArray  # [slots, 252]: the end state of entering roll r into slot k (-1: illegal)
    slots: list[Cell | None]  # the cell of each slot (None: closed)
    final: Array  # [252, S]: each final roll's end state, as the bot enters it
    keeps_last: Array  # [462, S]: each keep with one roll left
    after_two: Array  # [252, S]: each roll with one roll left
    keeps_first: Array  # [462, S]
    after_one: Array  # [252, S]
    start: Array  # [S]


def _state_keys(sheets: SheetBatch) -> list[bytes]:
    """What decides how a sheet plays on and ends: the filled cells, the upper sums, the 50s."""
    parts = (sheets.filled, sheets.upper, sheets.fifty.astype(np.int64))
    joined = np.concatenate(parts, axis=1)
    return [row.tobytes() for row in np.ascontiguousarray(joined)]


def _turn(game: Game, player: int) -> _Turn:
    one = SheetBatch.of_game(game, player)
    bot = best_bot(game.variant)
    entries, worth = bot.worth(one)
    n_slots, n_rolls = worth.shape[1], worth.shape[2]
    slot_grid, roll_grid = np.divmod(np.arange(n_slots * n_rolls), n_rolls)
    legal = entries.legal[0].reshape(-1)
    slot, roll = slot_grid[legal], roll_grid[legal]
    # Each legal entry's sheet: only what decides the rest (see _state_keys) is kept.
    every = SheetBatch(game.variant, len(slot))
    every.filled = np.repeat(one.filled, len(slot), axis=0)
    every.upper = np.repeat(one.upper, len(slot), axis=0)
    every.fifty = np.repeat(one.fifty, len(slot), axis=0)
    row = entries.row[0, slot]
    column = one.layout.column[slot]
    points = entries.points[0, slot, roll].astype(np.int64)
    games = np.arange(len(slot))
    every.filled[games, column] |= np.left_shift(1, row)
    is_upper = np.array([r.is_upper for r in one.rows])[row]
    every.upper[games, column] += np.where(is_upper, points, 0)
    every.fifty[games, column] |= holds_fifty(row == one.rows.index(Row.KNIFFEL), points)
    keys = _state_keys(every)
    first_of: dict[bytes, int] = {}
    index = np.array([first_of.setdefault(k, len(first_of)) for k in keys], dtype=np.int64)
    _, representative = np.unique(index, return_index=True)
    ends = SheetBatch(game.variant, len(first_of))
    for name in ("filled", "upper", "fifty"):
        setattr(ends, name, getattr(every, name)[representative])
    end_of = np.full(n_slots * n_rolls, -1, dtype=np.int64)
    end_of[legal] = index
    end_of = end_of.reshape(n_slots, n_rolls)
    size = len(first_of)
    rolls = np.arange(n_rolls)
    best_slot = best_index(worth[0].T)  # [252]
    final = np.zeros((n_rolls, size))
    final[rolls, end_of[best_slot, rolls]] = 1.0
    best_worth = worth[0].max(axis=0)  # [252]
    last = keep_values(best_worth[None])[0]  # [462]
    after_two_worth = np.maximum(best_worth, last[ROLL_KEEPS].max(axis=-1))
    first = keep_values(after_two_worth[None])[0]
    keeps_last = P_KEEP @ final
    after_two = keeps_last[ROLL_KEEPS[rolls, best_index(last[ROLL_KEEPS])]]
    keeps_first = P_KEEP @ after_two
    after_one = keeps_first[ROLL_KEEPS[rolls, best_index(first[ROLL_KEEPS])]]
    slots: list[Cell | None] = []
    for k in range(n_slots):
        row = int(entries.row[0, k])
        column = game.variant.columns[int(one.layout.column[k])].id
        slots.append(None if row < 0 else Cell(column, one.rows[row]))
    return _Turn(
        ends, end_of, slots, final, keeps_last, after_two, keeps_first, after_one,
        np.asarray(P_FIRST @ after_one),
    )  # fmt: skip


def _distributions(
    turn: _Turn, dice_index: int | None, rolls: int, actions: Sequence[Action]
) -> Array:
    """``[1 + actions, S]``: the end states' probabilities now and after each action."""
    if dice_index is None:
        return np.stack([turn.start] * (1 + len(actions)))
    stage = {1: turn.after_one, 2: turn.after_two, MAX_ROLLS: turn.final}[rolls]
    rows = [stage[dice_index]]
    for action in actions:
        if isinstance(action, EnterAction):
            slot = turn.slots.index(action.cell)
            onehot = np.zeros(len(turn.start))
            onehot[turn.end_of[slot, dice_index]] = 1.0
            rows.append(onehot)
        else:
            keeps = turn.keeps_first if rolls == 1 else turn.keeps_last
            rows.append(keeps[KEEP_INDEX[tuple(sorted(action.keep))]])
    return np.stack(rows)


# ------------------------------------------------------------ what follows


@dataclass
class _Stream:
    """The chunks played so far from one end state, in order: after each chunk and per
    column how many of the games so far reached the bonus, and how many gave a Kniffel cell
    open now its 50. A position reads the first chunks it needs, whatever others played
    beyond them."""

    totals: list[IntArray]  # after chunk i [C + 1]: the columns' bonus, then the Kniffel


class _Streams:
    """Every end state's stream, by state (and the Kniffel cells open at the turn's start);
    ``lock`` guards the chunks appended to them."""

    def __init__(self, size: int = 4096) -> None:
        self.lock = threading.Lock()
        self.kept: Kept[bytes, _Stream] = Kept(size)
        #: Chunks played so far (what the tests count).
        self.played = 0
        #: The starts of turns whose games were played ahead into these streams
        #: (:func:`kniffel.solver.advice.reasons.ahead`), so that none is played twice.
        self.ahead: Kept[object, bool] = Kept(256)

    def get(self, key: bytes) -> _Stream:
        return self.kept.get(key, lambda: _Stream([]))


STREAMS = _Streams()


def _decided(ends: SheetBatch, open_now: BoolArray) -> tuple[Array, Array]:
    """``[S, C]`` bonus and ``[S]`` Kniffel: 1 or 0 where the end state decides it, else NaN."""
    rows = ends.rows
    upper_rows = [(i, r.face) for i, r in enumerate(rows) if r.face is not None]
    most = np.zeros(ends.upper.shape, dtype=np.int64)  # five of each open face
    for i, face in upper_rows:
        most += np.where((ends.filled >> i) & 1, 0, 5 * face)
    reached = ends.upper >= UPPER_BONUS_THRESHOLD
    out_of_reach = ends.upper + most < UPPER_BONUS_THRESHOLD
    bonus = np.where(reached, 1.0, np.where(out_of_reach, 0.0, np.nan))
    kniffel_bit = 1 << rows.index(Row.KNIFFEL)
    scored = (ends.fifty & open_now[None, :]).any(axis=1)
    still_open = ((ends.filled & kniffel_bit) == 0) & open_now[None, :]
    kniffel = np.where(scored, 1.0, np.where(still_open.any(axis=1), np.nan, 0.0))
    return bonus, kniffel


def _seed(key: bytes) -> list[int]:
    digest = hashlib.blake2b(key, digest_size=16).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]


def _play(
    game: Game,
    ends: SheetBatch,
    streams: list[_Stream],
    keys: list[bytes],
    upto: dict[int, int],
    left: int,
    open_now: BoolArray,
) -> None:
    """Plays the chunks of end state ``s``'s stream up to ``upto[s]`` that are not played
    yet, all in one batch; chunk ``i`` of a state is seeded by the state and ``i``."""
    states, faces, chunks = [], [], []
    for s, last in sorted(upto.items()):
        for chunk in range(len(streams[s].totals), last):
            rng = np.random.default_rng([*_seed(keys[s]), chunk])
            faces.append(rng.integers(1, 7, size=(CHUNK, left, 3, 5)))
            states.append(s)
            chunks.append(chunk)
    if not states:
        return
    picked = np.repeat(np.array(states, dtype=np.int64), CHUNK)
    sheets = SheetBatch(game.variant, len(picked))
    for name in ("filled", "upper", "fifty"):
        setattr(sheets, name, getattr(ends, name)[picked].copy())
    dice = np.concatenate(faces)
    bot = best_bot(game.variant)
    choices = np.zeros((sheets.size, 3))
    for turn in range(left):
        bot.play_turns(sheets, roller(dice, turn), choices)
    reached = sheets.upper >= UPPER_BONUS_THRESHOLD
    scored: BoolArray = np.asarray((sheets.fifty & open_now[None, :]).any(axis=1))
    outcome = np.concatenate([reached, scored[:, None]], axis=1).astype(np.int64)
    per_chunk = outcome.reshape(len(states), CHUNK, -1).sum(axis=1)
    with STREAMS.lock:
        for s, chunk, hits in zip(states, chunks, per_chunk, strict=True):
            totals = streams[s].totals
            if len(totals) == chunk:  # another thread may have played it meanwhile
                totals.append(hits + totals[-1] if totals else hits)
                STREAMS.played += 1


def _shares(
    streams: list[_Stream], have: IntArray, bonus: Array, kniffel: Array
) -> tuple[Array, Array]:
    """``[S, C + 1]`` shares over the first ``have[s]`` chunks (settled: exact), and the
    variance of one game's outcome."""
    decided = np.concatenate([bonus, kniffel[:, None]], axis=1)
    hits = np.zeros(decided.shape)
    for s, (stream, n) in enumerate(zip(streams, have.tolist(), strict=True)):
        if n:
            hits[s] = stream.totals[n - 1]
    games = (have * CHUNK).astype(np.float64)[:, None]
    share = np.where(games > 0, hits / np.maximum(games, 1), 0.5)
    careful = (hits + 2) / (games + 4)  # Agresti–Coull: never a variance of 0 from few games
    variance = careful * (1 - careful)
    known = ~np.isnan(decided)
    return np.where(known, decided, share), np.where(known, 0.0, variance)


def estimate(
    game: Game,
    dice_index: int | None,
    rolls: int,
    actions: Sequence[Action],
    progress: Callable[[float], None] | None = None,
    *,
    half_width: float = HALF_WIDTH,
    work: int | None = None,
    player: int | None = None,
    first: bool = False,
) -> Estimate:
    """The chances now and after each of ``actions`` for the player to move (see the module),
    or, before the first roll of their next turn, for ``player``.

    ``first``: the position's first answer, within :data:`FIRST_WORK` (else ``work``,
    default :data:`WORK`). ``half_width`` and a larger ``work`` are for the work ahead
    (:func:`kniffel.solver.advice.reasons.ahead`): more games into the streams than the
    position needs. A position's figures are those of its rounds within the bound: the
    first answer's rounds are the first rounds of the full ones, on the same chunks."""
    if player is None:
        player = game.current_player()
    if player is None or turns_left(game, player) == 0:
        raise ValueError("the game is finished")
    turn = _turn(game, player)
    weights = _distributions(turn, dice_index, rolls, actions)  # [G, S]
    one = SheetBatch.of_game(game, player)
    kniffel_bit = 1 << one.rows.index(Row.KNIFFEL)
    open_now: BoolArray = (one.filled[0] & kniffel_bit) == 0
    bonus, kniffel = _decided(turn.ends, open_now)
    variant = game.variant
    salt = variant.name.encode() + repr(variant.options).encode() + open_now.tobytes()
    keys = [salt + k for k in _state_keys(turn.ends)]
    streams = [STREAMS.get(k) for k in keys]
    left = turns_left(game, player) - 1
    undecided = np.isnan(np.concatenate([bonus, kniffel[:, None]], axis=1)).any(axis=1)
    needed = undecided & (weights.max(axis=0) > 0) & (left > 0)
    target = (half_width / Z95) ** 2
    have = np.zeros(len(streams), dtype=np.int64)  # the chunks this position reads
    bound = WORK if work is None else work
    if first:
        bound = FIRST_WORK // len(turn.slots)
    most = max(1, bound // max(left, 1) // CHUNK)  # chunks within the bound of work
    complete = True
    while True:
        share, variance = _shares(streams, have, bonus, kniffel)
        spread = variance / np.maximum(have * CHUNK, 1)[:, None]  # [S, C+1]
        spread[needed & (have == 0)] = 0.25  # not played yet: as unsure as can be
        figure_var = (weights**2) @ spread  # [G, C+1]
        if (figure_var <= target * (1 + 1e-9)).all():
            break
        # Neyman: games in proportion to weight times spread, enough for each figure.
        root = np.sqrt(np.where(have[:, None] > 0, variance, 0.25))  # [S, C+1]
        want = np.zeros(len(streams))
        for g, c in zip(*np.nonzero(figure_var > target), strict=True):
            part = weights[g] * root[:, c]
            want = np.maximum(want, part * part.sum() / target)
        chunks = np.minimum(np.ceil(want / CHUNK), _MOST_CHUNKS).astype(np.int64)
        more = np.where(have == 0, 1, np.minimum(chunks - have, have))  # at most doubling
        more = np.where(needed, np.maximum(more, 0), 0)
        spare = most - int(have.sum())
        if not more.any():
            break  # at its most: the interval holds by construction
        complete = complete and spare >= more.sum()  # once cut short, never the full rounds
        if spare <= 0:
            break  # the work is spent
        if not complete:  # the last round within the bound: the most wanted first
            order = np.argsort(-np.where(more > 0, want, -1.0), kind="stable")
            fits = np.cumsum(more[order]) <= spare
            more[order[~fits]] = 0
            if not more.any():
                break
        upto = have + more
        _play(
            game,
            turn.ends,
            streams,
            keys,
            {int(s): int(upto[s]) for s in np.flatnonzero(more)},
            left,
            open_now,
        )
        have = upto
        if progress is not None:
            progress(min(1.0, float(have.sum()) / max(float(np.ceil(want / CHUNK).sum()), 1.0)))
    figures = np.round(weights @ share, 12)  # [G, C+1]; settled: exactly 0 or 1
    half = float(Z95 * np.sqrt(figure_var.max()))
    columns = [spec.id for spec in variant.columns]
    has_kniffel = bool(open_now.any())
    return Estimate(
        tuple({c: float(f[i]) for i, c in enumerate(columns)} for f in figures),
        tuple(float(f[-1]) if has_kniffel else None for f in figures),
        int(have.sum()) * CHUNK,
        half,
        tuple(tuple(float(h) for h in row) for row in Z95 * np.sqrt(figure_var)),
        complete,
    )
