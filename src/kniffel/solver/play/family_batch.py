"""Many light games of one Jamb or Yams sheet in step: each turn's array work done once for all.

:func:`~kniffel.solver.play.family_fast.play_light` plays one game at a time, and a turn of it
is some forty small array operations on 252 to 4,368 numbers plus the Python between them:
the interpreter's and NumPy's cost per call, not the arithmetic, is most of a game's time
(docs/benchmarks.md, "A cheaper bot turn"). :func:`play_light_batch` plays ``n`` games from
one sheet turn by turn together, as :class:`~kniffel.solver.play.sheets.SheetBatch` does for
the one-column bots: a turn's new column states are valued in one pass
(:meth:`~kniffel.solver.play.family.BestEstimate.column_values_many`), the turn's worths, the
keep products and the keeps of every game are array operations over the games, and only what
a game alone decides (an announcement near the best, its entry) is a Python loop.

Every game is the game :func:`play_light` plays on the same dice, decision for decision: the
sums are the same sums in the same order element for element (a keep product over the games
equals one game's to the bit), and the worths are rounded as the bot rounds them, NumPy's
rounding where the bot rounds NumPy numbers and Python's where it rounds Python's;
``tests/solver/test_family_batch.py`` compares the cells game by game.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Discipline,
    KniffelError,
    first_roll_only,
    open_indices,
    rows_for,
)
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_KEEPS, ROLLS
from kniffel.solver.play.family import (
    DIGITS,
    NOWHERE,
    BestEstimate,
    FamilyBot,
    FamilyRandomBot,
    SheetCells,
    best_of,
    keep_worth,
)
from kniffel.solver.play.family_fast import ROLL_OF_FACES, supported

__all__ = ["BLOCK", "play_light_batch"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Index = npt.NDArray[np.intp]

#: Games played in step at most (more are played block by block): a block holds each game's
#: column worths, ``BLOCK × columns × 756`` numbers (some 15 MB for Yams' five columns).
BLOCK = 512
_N_ROLLS = len(ROLLS)
_N_KEEPS = len(KEEPS)


#: Rows of a keep product at a time: its 4,368 terms a row stay in the processor's cache (a
#: product over 512 rows at once took three times as long a row).
_CHUNK = 32


def _keeps_and_holding(worth: Array, stop: Array) -> tuple[Array, Array]:
    """``keep_worth(worth)`` and ``np.maximum(stop, best_of(it))`` row by row (each row's the
    same sums as one game's), a few rows at a time."""
    keeps = np.empty((len(worth), _N_KEEPS))
    holding = np.empty((len(worth), _N_ROLLS))
    for first in range(0, len(worth), _CHUNK):
        part = slice(first, first + _CHUNK)
        keeps[part] = keep_worth(worth[part])
        np.maximum(stop[part], best_of(keeps[part]), out=holding[part])
    return keeps, holding


def _keep_products(worth: Array) -> Array:
    """``keep_worth(worth)`` row by row, a few rows at a time."""
    keeps = np.empty((len(worth), _N_KEEPS))
    for first in range(0, len(worth), _CHUNK):
        keeps[first : first + _CHUNK] = keep_worth(worth[first : first + _CHUNK])
    return keeps


def _holding_after_one(final: Array) -> Array:
    """:func:`~kniffel.solver.play.family.holding_worth`'s first part for each of ``final[k]``."""
    after_two = _keeps_and_holding(final[:, 2], final[:, 1])[1]
    return _keeps_and_holding(after_two, final[:, 0])[1]


class _State:
    """One column state met this turn: its open rows, its worth and, for an announce column,
    each open row's ``[roll number − 1, roll]`` worths and holding worths after the first roll
    (``[roll, row]``, −∞ where not open)."""

    __slots__ = ("cell", "held", "rows", "worth")

    def __init__(self, rows: tuple[int, ...], worth: float) -> None:
        self.rows = rows
        self.worth = worth
        self.cell: dict[int, Array] = {}
        self.held: Array | None = None


def play_light_batch(
    bot: FamilyBot,
    faces: IntArray,
    player: str = "Bot",
    *,
    start: SheetCells | None = None,
) -> IntArray:
    """Game ``g`` of :func:`~kniffel.solver.play.family_fast.play_light` on ``faces[g]``
    (``[game, turn, roll, die]``) for every ``g``, played in step: every game's cells,
    ``[game, column, row]`` (a full sheet). ``start``: played on from these cells (column
    by column, ``None`` where empty), turn ``t`` counting the filled cells as there."""
    variant = bot.variant
    if not supported(variant):
        raise KniffelError(f"the light sheet plays no {variant.label} with a joker or bonus")
    if isinstance(bot, FamilyRandomBot):
        raise KniffelError("the light sheet plays the greedy and the best bot, not random")
    del player  # the games log no events; the name is play_light's
    rows = rows_for(variant.options)
    columns = len(variant.columns)
    if start is None:
        start = tuple((None,) * len(rows) for _ in range(columns))
    cells = np.zeros((len(faces), columns, len(rows)), dtype=np.int64)
    for first in range(0, len(faces), BLOCK):
        block = _Block(bot, start, len(rows))
        cells[first : first + BLOCK] = block.play(faces[first : first + BLOCK])
    return cells


class _Block:
    """Up to :data:`BLOCK` games from one sheet, played turn by turn."""

    def __init__(self, bot: FamilyBot, start: SheetCells, n_rows: int) -> None:
        self.bot = bot
        self.start = start
        self.n_rows = n_rows
        self.disciplines = bot.disciplines
        self.first_roll = [first_roll_only(d) for d in self.disciplines]
        self.announce = [c for c, d in enumerate(self.disciplines) if d is Discipline.ANNOUNCE]
        self.best_estimate = isinstance(bot.estimate, BestEstimate)
        #: ``[roll number − 1][roll][row]``: the points (``bot.points``), as Python ints
        self.points = [
            [[int(v) for v in roll] for roll in table]
            for table in bot._scores.transpose(1, 2, 0).tolist()
        ]
        #: ``[row, roll number × roll]``: where each row's score stands among its distinct values
        self.inverse = np.stack([inverse for _, inverse in bot._distinct])

    # ------------------------------------------------------------ column states

    def _states(
        self, keys: list[tuple[Discipline, tuple[int | None, ...]]]
    ) -> tuple[list[_State], Array]:
        """Value the column states ``keys``: every open row's worths in one pass; the states
        and each one's best cell (``[state, roll number − 1, roll]``, −∞ where no row is open:
        no worth beats none). Only an announce column keeps its rows' worths (an announcement
        reads them), so that a turn's worths are not held for the turns after."""
        bot = self.bot
        states = []
        tasks: list[tuple[Discipline, tuple[int | None, ...], int, list[int]]] = []
        for discipline, column in keys:
            rows = open_indices(discipline, [value is not None for value in column])
            states.append(_State(rows, bot._column(discipline, column)))
            tasks.extend((discipline, column, i, bot._distinct[i][0]) for i in rows)
        bests = np.full((len(keys), MAX_ROLLS, _N_ROLLS), -np.inf)
        if not tasks:
            return states, bests
        if self.best_estimate:
            assert isinstance(bot.estimate, BestEstimate)
            flat = bot.estimate.column_values_many(tasks)
        else:
            flat = np.concatenate([bot.estimate.column_values(*task) for task in tasks])
        # every task's [roll number, roll] worths by one gather: row i reads its distinct
        # values where its task's start
        counts = [len(bot._distinct[i][0]) for _, _, i, _ in tasks]
        starts = np.cumsum([0, *counts[:-1]])
        row_of = np.asarray([i for _, _, i, _ in tasks], dtype=np.intp)
        cells = flat[self.inverse[row_of] + starts[:, None]].reshape(
            len(tasks), MAX_ROLLS, _N_ROLLS
        )
        # each state's best cell: the maximum over its rows (exact in any order)
        firsts = []
        held_tasks: list[tuple[_State, int, int]] = []
        t = 0
        for state, (discipline, _column) in zip(states, keys, strict=True):
            if state.rows:
                firsts.append(t)
            for i in state.rows:
                if discipline is Discipline.ANNOUNCE:
                    state.cell[i] = cells[t].copy()
                    held_tasks.append((state, i, t))
                t += 1
        opened = [k for k, state in enumerate(states) if state.rows]
        bests[opened] = np.maximum.reduceat(cells, np.asarray(firsts, dtype=np.intp), axis=0)
        if held_tasks:
            held = _holding_after_one(cells[[t for _, _, t in held_tasks]])
            for (state, i, _), worths in zip(held_tasks, held, strict=True):
                if state.held is None:
                    state.held = np.full((_N_ROLLS, self.n_rows), -np.inf)
                state.held[:, i] = worths
        return states, bests

    # ------------------------------------------------------------------ the games

    def play(self, faces: IntArray) -> IntArray:
        disciplines = self.disciplines
        n = len(faces)
        columns = len(disciplines)
        games = np.arange(n, dtype=np.intp)
        sheets = [[list(column) for column in self.start] for _ in range(n)]
        tuples = [list(self.start) for _ in range(n)]
        filled = sum(value is not None for column in self.start for value in column)
        # each game's column states: their worths and open rows; at first the start's for all
        first_states, first_bests = self._states(list(zip(disciplines, self.start, strict=True)))
        states = [list(first_states) for _ in range(n)]
        # each game's columns' best worths (−∞ where no row is open: no worth beats none)
        best = np.empty((n, columns, MAX_ROLLS, _N_ROLLS))
        best[:] = first_bests
        final = np.empty((n, MAX_ROLLS, _N_ROLLS))
        beside = np.empty((n, MAX_ROLLS, _N_ROLLS))
        changed = [-1] * n
        for turn in range(filled, self.n_rows * columns):
            if turn > filled:
                self._revalue(tuples, states, best, changed)
            base = [[state.worth for state in game] for game in states]
            # the plan: each game's worth of the other columns beside each column's best
            others = np.asarray(
                [[whole - worth for worth in game] for game in base for whole in [sum(game)]]
            )
            # the turn's worths: the best of every column's beside the others' (the bot's
            # _plan; a first-roll column's and an unannounced announce column's first roll only)
            final.fill(NOWHERE)
            for c in range(columns):
                if self.first_roll[c]:
                    np.add(best[:, c, 0], others[:, c, None], out=beside[:, 0])
                    np.maximum(final[:, 0], beside[:, 0], out=final[:, 0])
                else:
                    np.add(best[:, c], others[:, c, None, None], out=beside)
                    np.maximum(final, beside, out=final)
            after_two, holding = _keeps_and_holding(final[:, 2], final[:, 1])
            thrown = faces[:, turn].tolist()
            dice = [sorted(game[0]) for game in thrown]
            r = np.asarray([ROLL_OF_FACES[tuple(d)] for d in dice], dtype=np.intp)
            rolls = np.ones(n, dtype=np.intp)
            announced: list[tuple[int, int] | None] = [None] * n
            # each distinct keep of the roll held, valued as the bot values them after roll 1
            worths = self._roll_keeps(_keep_products(holding), r)
            # announcements, right after the first roll while an announce cell is open
            can = [g for g in range(n) if any(None in tuples[g][c] for c in self.announce)]
            if can:
                chosen = self._announce(can, states, others, final, worths, r)
                if chosen:
                    who = np.asarray([g for g, _ in chosen], dtype=np.intp)
                    for g, (c, i) in chosen:
                        announced[g] = (c, i)
                        final[g] = others[g, c] + states[g][c].cell[i]
                    after_two[who], holding[who] = _keeps_and_holding(final[who, 2], final[who, 1])
                    worths[who] = self._roll_keeps(_keep_products(holding[who]), r[who])
            # the keeps after the first roll: the first best distinct keep, if it beats stopping
            going = self._keeps(worths, final, games, r, 0)
            for g, keep in going:
                kept = KEEPS[keep]
                dice[g] = sorted([*kept, *thrown[g][1][: 5 - len(kept)]])
                r[g] = ROLL_OF_FACES[tuple(dice[g])]
                rolls[g] = 2
            if going:
                who = np.asarray([g for g, _ in going], dtype=np.intp)
                worths = self._roll_keeps(after_two[who], r[who])
                for g, keep in self._keeps(worths, final, who, r[who], 1):
                    kept = KEEPS[keep]
                    dice[g] = sorted([*kept, *thrown[g][2][: 5 - len(kept)]])
                    r[g] = ROLL_OF_FACES[tuple(dice[g])]
                    rolls[g] = 3
            # the entries
            for g in range(n):
                c, i = self._entry(
                    g, tuples[g], states[g], base[g], int(r[g]), int(rolls[g]), announced[g]
                )
                sheets[g][c][i] = self.points[int(rolls[g]) - 1][int(r[g])][i]
                tuples[g][c] = tuple(sheets[g][c])
                changed[g] = c
        return np.asarray(
            [[[value or 0 for value in column] for column in sheet] for sheet in sheets],
            dtype=np.int64,
        ).reshape(n, columns, self.n_rows)

    def _revalue(
        self,
        tuples: list[list[tuple[int | None, ...]]],
        states: list[list[_State]],
        best: Array,
        changed: list[int],
    ) -> None:
        """Value the column each game's last entry changed, once per distinct state."""
        found: dict[tuple[Discipline, tuple[int | None, ...]], int] = {}
        which = []
        for g, c in enumerate(changed):
            key = (self.disciplines[c], tuples[g][c])
            which.append(found.setdefault(key, len(found)))
        new, worths = self._states(list(found))
        for g, c in enumerate(changed):
            states[g][c] = new[which[g]]
        best[np.arange(len(changed)), np.asarray(changed)] = worths[np.asarray(which)]

    def _announce(
        self,
        can: list[int],
        states: list[list[_State]],
        others: Array,
        final: Array,
        worths: Array,
        r: Index,
    ) -> list[tuple[int, tuple[int, int]]]:
        """The games of ``can`` that announce and what: as
        :meth:`FamilyBot._best_announcement` with the bar of :meth:`FamilyBot.decide`."""
        best_keep = worths.max(axis=1)
        chosen = []
        for g in can:
            rg = int(r[g])
            bar = round(float(max(final[g, 0, rg], best_keep[g])), DIGITS)
            place = None
            for c in self.announce:
                held = states[g][c].held
                if held is None:
                    continue
                values = others[g, c] + held[rg]
                for k in np.flatnonzero(values > bar - 1e-6).tolist():
                    if (rounded := round(float(values[k]), DIGITS)) > bar:
                        place, bar = (c, k), rounded
            if place is not None:
                chosen.append((g, place))
        return chosen

    @staticmethod
    def _roll_keeps(keeps: Array, r: Index) -> Array:
        """``[game, k]``: what keep ``ROLL_KEEPS[r[game], k]`` is worth by ``keeps[game]``
        (a roll's distinct keeps in order, padded by a repeat: the first best is the same)."""
        worths: Array = np.take_along_axis(keeps, ROLL_KEEPS[r], axis=1)
        return worths

    def _keeps(
        self, worths: Array, final: Array, games: Index, r: Index, j: int
    ) -> list[tuple[int, int]]:
        """Which of ``games`` roll again after roll ``j + 1`` and with which keep: the first
        best of their keeps (rounded as NumPy rounds), if it beats stopping (rounded so)."""
        rounded = np.round(worths, DIGITS)
        first = rounded.argmax(axis=1)
        best = np.take_along_axis(rounded, first[:, None], axis=1)[:, 0]
        go = np.flatnonzero(best > np.round(final[games, j, r], DIGITS))
        keeps = ROLL_KEEPS[r[go], first[go]]
        return list(zip(games[go].tolist(), keeps.tolist(), strict=True))

    def _entry(
        self,
        g: int,
        sheet: list[tuple[int | None, ...]],
        states: list[_State],
        base: list[float],
        r: int,
        rolls: int,
        announced: tuple[int, int] | None,
    ) -> tuple[int, int]:
        """:meth:`FamilyBot.entry`: the best place for roll ``r`` on roll ``rolls``."""
        bot = self.bot
        points = self.points[rolls - 1][r]
        before = []
        total = 0.0
        for worth in base:
            before.append(total)
            total += worth
        if announced is not None:
            places = [announced]
        else:
            places = [(c, i) for c, state in enumerate(states) for i in state.rows]
        best: tuple[float, tuple[int, int]] | None = None
        for place in places:
            c, i = place
            if rolls != 1 and first_roll_only(self.disciplines[c], announced=announced == place):
                continue
            column = sheet[c]
            changed = (*column[:i], points[i], *column[i + 1 :])
            value = before[c] + bot._column(self.disciplines[c], changed)
            for worth in base[c + 1 :]:
                value += worth
            rounded = round(value, DIGITS)
            if best is None or rounded > best[0]:
                best = (rounded, place)
        assert best is not None, "the rules leave the bot no entry"
        return best[1]
