"""Bots for the sheets the solver's tables do not cover: Jamb, and Yams with sèche/annoncée.

These bots play through the rules' state machine (:class:`~kniffel.rules.Game`), one
decision at a time: a roll with the dice to keep, an announcement right after the
first roll, or an entry. Every turn they state what ending the turn with roll ``r`` on
roll number ``j`` is worth, ``final[j, r]``: the best value of the sheet after an entry
that the rules allow for that roll (a first-roll column takes only roll 1, an
announce column a later roll only when announced, Kenta scores by the roll), and pick
their keeps by the exact three-roll optimisation over it. The two bots differ only in
what a sheet is worth (docs/bot.md, "Jamb and Yams"):

- ``greedy``: the sheet's total as the rules add it up now: the most points this turn.
- ``best``: the total with every open cell counted at what a turn aimed at that row
  alone is expected to score there, the upper bonus at its chance and Σ2 with the
  expected Max, Min and ones: so an entry pays for the row it spends.

The final entry is always one of ``Game.entry_options`` (the rules' own list), so a bot
never makes an illegal move whatever its estimate says.

The decisions themselves (:meth:`FamilyBot.decide`, :meth:`FamilyBot.entry`) read plain
data, the cells as tuples and places as ``(column, row)`` indices, so that the light sheet
of :mod:`kniffel.solver.play.family_fast` plays the same games without ``Game``; what a turn
does not change (a column's worth, an open cell's worths, a column's best cell) is kept for
the next turns and games (docs/bot.md, "The light sheet").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Announce,
    AnnounceAction,
    Cell,
    Dice,
    Discipline,
    Enter,
    EnterAction,
    Game,
    IllegalMoveError,
    KniffelError,
    Options,
    Roll,
    RollAction,
    Row,
    SheetSums,
    Variant,
    column_sum,
    column_sum2,
    first_roll_only,
    keeps_of,
    rows_for,
    sheet_score,
    sheet_sums,
    sum2_product,
)
from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST, P_KEEP, ROLL_INDEX, ROLL_KEEPS, ROLLS
from kniffel.solver.per_variant import per_variant

__all__ = [
    "DIGITS",
    "FAMILY_BOTS",
    "NOWHERE",
    "BestEstimate",
    "FamilyBot",
    "FamilyRandomBot",
    "GreedyEstimate",
    "SheetEstimate",
    "best_of",
    "keep_worth",
    "make_family_bot",
    "play_game",
    "row_expectations",
]

Array = npt.NDArray[np.float64]

#: The worth of a roll that no cell may take (finite: the keep matrix multiplies it by 0).
NOWHERE = -1e9
_ROLLS = range(1, MAX_ROLLS + 1)
#: Rounding before comparing worths, so that ties go to stopping and to the first cell.
DIGITS = 9

Cells = Sequence[int | None]


@per_variant
def score_table(options: Options) -> Array:
    """``[row, roll number − 1, roll]``: what each roll scores in each row (``sheet_score``)."""
    rows = rows_for(options)
    table = np.empty((len(rows), MAX_ROLLS, len(ROLLS)))
    for i, row in enumerate(rows):
        for j in _ROLLS:
            table[i, j - 1] = [sheet_score(row, dice, options, j) for dice in ROLLS]
    return table


def _sparse_keeps() -> tuple[npt.NDArray[np.intp], Array, npt.NDArray[np.intp]]:
    """``P_KEEP`` by its nonzero entries, keep by keep (a keep reaches few rolls: 4,368
    of the 116,424 entries), for sums that skip the zeros."""
    keeps, rolls = np.nonzero(P_KEEP)
    return rolls, P_KEEP[keeps, rolls], np.searchsorted(keeps, np.arange(len(KEEPS)))


def _distinct_roll_keeps() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Each roll's keeps one after another (``ROLL_KEEPS`` without its padding) and where
    each roll's start."""
    flat: list[int] = []
    starts: list[int] = []
    for keeps in ROLL_KEEPS.tolist():
        starts.append(len(flat))
        flat.extend(dict.fromkeys(keeps))
    return np.asarray(flat, dtype=np.intp), np.asarray(starts, dtype=np.intp)


_KEEP_ROLLS, _KEEP_P, _KEEP_STARTS = _sparse_keeps()
_ROLL_KEEPS_FLAT, _ROLL_KEEPS_STARTS = _distinct_roll_keeps()


_Terms = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], Array, npt.NDArray[np.intp]]


def _candidate_terms() -> list[_Terms]:
    """Per roll: its distinct keeps (in ``ROLL_KEEPS`` order) and the terms of
    :func:`keep_worth` for those keeps alone (the rolls each reaches, their chances, where
    each keep's terms start), so that a roll's keeps are valued without the other 430."""
    ends = [*_KEEP_STARTS.tolist()[1:], len(_KEEP_ROLLS)]
    bounds = [*_ROLL_KEEPS_STARTS.tolist(), len(_ROLL_KEEPS_FLAT)]
    result = []
    for r in range(len(ROLLS)):
        keeps = _ROLL_KEEPS_FLAT[bounds[r] : bounds[r + 1]]
        spans = [np.arange(_KEEP_STARTS[k], ends[k]) for k in keeps.tolist()]
        starts = np.cumsum([0, *(len(span) for span in spans[:-1])]).astype(np.intp)
        terms = np.concatenate(spans)
        result.append((keeps, _KEEP_ROLLS[terms], _KEEP_P[terms], starts))
    return result


_CANDIDATE_TERMS = _candidate_terms()
_ROLL_KEEPS_ENDS = np.append(_ROLL_KEEPS_STARTS[1:], len(_ROLL_KEEPS_FLAT))


def candidate_worths(worth: Array, r: int) -> tuple[npt.NDArray[np.intp], Array]:
    """Roll ``r``'s distinct keeps (in ``ROLL_KEEPS[r]`` order) and what each is worth:
    ``keep_worth(worth)`` at those keeps, the same sums term for term (a keep's terms are
    added in the same order), for a fifteenth of the work."""
    keeps, rolls, chances, starts = _CANDIDATE_TERMS[r]
    terms = worth.take(rolls)
    terms *= chances
    return keeps, np.add.reduceat(terms, starts)


def keep_worth(worth: Array) -> Array:
    """``worth @ P_KEEP.T``: what each keep is worth, given what each roll is worth after
    the throw (``[..., roll]`` to ``[..., keep]``), summed over the rolls a keep reaches."""
    terms = np.take(worth, _KEEP_ROLLS, axis=-1)  # ``take``: some times faster than ``[..., i]``
    terms *= _KEEP_P
    return np.add.reduceat(terms, _KEEP_STARTS, axis=-1)


def best_of(keeps: Array) -> Array:
    """Each roll's best keep, given what each keep is worth."""
    return np.maximum.reduceat(
        np.take(keeps, _ROLL_KEEPS_FLAT, axis=-1), _ROLL_KEEPS_STARTS, axis=-1
    )


def _best_keep(worth: Array) -> Array:
    """Each roll's best keep, given what each roll is worth after the next throw."""
    return best_of(keep_worth(worth))


def _keep_worths(final: Array) -> tuple[Array, Array]:
    """What holding each roll after roll 2 is worth and what each keep is worth after roll 2
    (``final[j-1, r]``): a turn's keeps after roll 2 compare the second, its keeps after
    roll 1 :func:`candidate_worths` of the first (:func:`holding_worth`'s products)."""
    after_two_keeps = keep_worth(final[2])
    return np.maximum(final[1], best_of(after_two_keeps)), after_two_keeps


def holding_worth(final: Array) -> tuple[Array, Array]:
    """What holding each roll is worth after roll 1 and after roll 2 (``final[j-1, r]``)."""
    after_two = np.maximum(final[1], _best_keep(final[2]))
    after_one = np.maximum(final[0], _best_keep(after_two))
    return after_one, after_two


@dataclass(frozen=True)
class RowExpectation:
    """What a turn aimed at one row alone scores there: its mean and variance."""

    mean: float
    variance: float


@per_variant
def row_expectations(options: Options, first_roll_only: bool) -> tuple[RowExpectation, ...]:
    """Per row: the expected score of a turn that plays for that row alone (Min: the lowest
    expected sum), with only the first roll when ``first_roll_only``."""
    table = score_table(options)
    result = []
    for i, row in enumerate(rows_for(options)):
        sign = -1.0 if row is Row.MIN else 1.0
        if first_roll_only:
            mean = float(table[i, 0] @ P_FIRST)
            variance = float(((table[i, 0] - mean) ** 2) @ P_FIRST)
        else:
            mean = sign * float(holding_worth(sign * table[i])[0] @ P_FIRST)
            # the spread of the optimal play is not tracked; a face's count varies by about 1.1
            variance = 1.2 * (row.face or 0) ** 2
        result.append(RowExpectation(mean, variance))
    return tuple(result)


class SheetEstimate(Protocol):
    """What one column of a sheet is worth, its open cells included."""

    def column(self, discipline: Discipline, cells: Cells) -> float: ...

    def column_values(
        self, discipline: Discipline, cells: Cells, i: int, values: Sequence[int]
    ) -> Array:
        """:meth:`column` with row ``i`` holding each of ``values`` in turn."""
        ...


@dataclass(frozen=True)
class GreedyEstimate:
    """The column's total as the rules add it up now: open cells count nothing."""

    options: Options

    def column(self, discipline: Discipline, cells: Cells) -> float:
        return float(_rules_total(self.options, cells))

    def column_values(
        self, discipline: Discipline, cells: Cells, i: int, values: Sequence[int]
    ) -> Array:
        changed = list(cells)
        result = np.empty(len(values))
        for n, value in enumerate(values):
            changed[i] = value
            result[n] = _rules_total(self.options, changed)
        return result


def _rules_total(options: Options, cells: Cells) -> int:
    return column_sum(options, cells)


@dataclass(frozen=True)
class BestEstimate:
    """Filled cells as they are, open cells at their row's expectation (first roll only in a
    first-roll column), the upper bonus times a normal guess of its chance, Σ2 from the
    expected Max, Min and ones."""

    options: Options
    #: the row expectations with and without only the first roll, and the sheet's sums, read
    #: once (hashing the options at every column was a tenth of a bot's turn)
    _rows: tuple[tuple[RowExpectation, ...], tuple[RowExpectation, ...]] = field(
        init=False, repr=False, compare=False
    )
    _sums: SheetSums = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rows = (row_expectations(self.options, False), row_expectations(self.options, True))
        object.__setattr__(self, "_rows", rows)
        object.__setattr__(self, "_sums", sheet_sums(self.options))

    def column(self, discipline: Discipline, cells: Cells) -> float:
        rows = self._rows[discipline is Discipline.HAND]
        sums = self._sums
        upper = var = 0.0
        for value, row in zip(cells[sums.upper], rows[sums.upper], strict=True):
            if value is None:
                upper += row.mean
                var += row.variance
            else:
                upper += value
        threshold, bonus = sums.bonus_threshold, sums.bonus
        if var > 0:
            chance = 0.5 * (1 + math.erf((upper - threshold + 0.5) / math.sqrt(2 * var)))
        else:
            chance = float(upper >= threshold)
        total = upper + bonus * chance
        total += sum(
            row.mean if value is None else value
            for value, row in zip(cells[sums.lower], rows[sums.lower], strict=True)
        )
        if sums.sum2 is not None:
            held = [cells[i] for i in sums.sum2]
            if None in held:
                maximum, minimum, ones = (
                    rows[i].mean if value is None else float(value)
                    for i, value in zip(sums.sum2, held, strict=True)
                )
                total += sum2_product(maximum, minimum, ones, self.options.sum2_negative)
            else:
                total += column_sum2(self.options, cells)
        return total

    def column_values(
        self, discipline: Discipline, cells: Cells, i: int, values: Sequence[int]
    ) -> Array:
        """:meth:`column` for every value of row ``i`` at once: the other rows' parts summed
        once, then each value's sums as numbers (the operations of one element of the array
        sums this was before, some times faster for the ten or so values of a row; the
        bots' decisions read them at nine digits, so the last bits do not matter)."""
        rows = self._rows[discipline is Discipline.HAND]
        sums = self._sums
        # the other rows' parts as numbers, row i's 0 (it adds its value below)
        parts = [
            0.0 if k == i else rows[k].mean if value is None else float(value)
            for k, value in enumerate(cells)
        ]
        upper_rows = range(len(cells))[sums.upper]
        upper_parts: float = sum(parts[sums.upper])
        lower_parts: float = sum(parts[sums.lower])
        var = sum(rows[k].variance for k in upper_rows if k != i and cells[k] is None)
        in_upper = i in upper_rows
        in_lower = i in range(len(cells))[sums.lower]
        threshold, bonus = sums.bonus_threshold, sums.bonus
        scale = math.sqrt(2 * var) if var > 0 else 0.0
        sum2 = sums.sum2
        # Σ2: from the expected Max, Min and ones while one of them is open, else the rules'
        product = sum2 is not None and not all(cells[k] is not None or k == i for k in sum2)
        varies = sum2 is not None and not product and i in sum2
        fixed = 0 if sum2 is None or product or varies else column_sum2(self.options, cells)
        negative = self.options.sum2_negative
        result = np.empty(len(values))
        for n, value in enumerate(values):
            held = float(value)
            upper = upper_parts + held if in_upper else upper_parts
            if var > 0:
                chance = 0.5 * (1 + math.erf((upper - threshold + 0.5) / scale))
            else:
                chance = float(upper >= threshold)
            total = upper + bonus * chance + lower_parts
            if in_lower:
                total = total + held
            if product:
                assert sum2 is not None
                maximum, minimum, ones = (held if k == i else parts[k] for k in sum2)
                total = total + sum2_product(maximum, minimum, ones, negative)
            elif varies:
                changed = list(cells)
                changed[i] = value
                total = total + column_sum2(self.options, changed)
            else:
                total = total + fixed
            result[n] = total
        return result

    def column_values_many(
        self, tasks: Sequence[tuple[Discipline, Cells, int, Sequence[int]]]
    ) -> Array:
        """:meth:`column_values` of many ``(discipline, cells, i, values)`` at once, their
        values one after another: each task's parts as there, then every value's sums as
        array operations, element for element the same operations in the same order (the
        error function is ``math.erf`` itself, one value at a time), so the same numbers to
        the bit (``tests/solver/test_family_batch.py``). The batched games of
        :mod:`kniffel.solver.play.family_batch` value a turn's new column states so."""
        sums = self._sums
        threshold, bonus = sums.bonus_threshold, sums.bonus
        sum2 = sums.sum2
        negative = self.options.sum2_negative
        # per task: its parts as column_values states them
        counts: list[int] = []
        held_all: list[int] = []
        upper_parts_t: list[float] = []
        lower_parts_t: list[float] = []
        scale_t: list[float] = []
        in_upper_t: list[bool] = []
        in_lower_t: list[bool] = []
        mode_t: list[int] = []  # 0: a fixed Σ2, 1: the product of expectations, 2: the rules'
        fixed_t: list[float] = []
        sum2_t: list[tuple[float, float, float]] = []  # the parts of Max, Min, ones (NaN: row i)
        varies: list[tuple[int, Cells, int, Sequence[int]]] = []  # mode 2: where, cells, i, values
        sums2: dict[tuple[int | None, ...], float] = {}
        for discipline, cells, i, values in tasks:
            rows = self._rows[discipline is Discipline.HAND]
            parts = [
                0.0 if k == i else rows[k].mean if value is None else float(value)
                for k, value in enumerate(cells)
            ]
            upper_rows = range(len(cells))[sums.upper]
            upper_parts_t.append(sum(parts[sums.upper]))
            lower_parts_t.append(sum(parts[sums.lower]))
            var = sum(rows[k].variance for k in upper_rows if k != i and cells[k] is None)
            scale_t.append(math.sqrt(2 * var) if var > 0 else 0.0)
            in_upper_t.append(i in upper_rows)
            in_lower_t.append(i in range(len(cells))[sums.lower])
            product = sum2 is not None and not all(cells[k] is not None or k == i for k in sum2)
            varying = sum2 is not None and not product and i in sum2
            if product:
                assert sum2 is not None
                mode_t.append(1)
                fixed_t.append(0.0)
                a, b, c = (math.nan if k == i else parts[k] for k in sum2)
                sum2_t.append((a, b, c))
            elif varying:
                mode_t.append(2)
                fixed_t.append(0.0)
                varies.append((len(held_all), cells, i, values))
                sum2_t.append((0.0, 0.0, 0.0))
            else:
                mode_t.append(0)
                if sum2 is None:
                    fixed_t.append(0.0)
                else:  # the same for every row of the state: reckoned once
                    if (fixed := sums2.get(key := tuple(cells))) is None:
                        fixed = sums2[key] = float(column_sum2(self.options, cells))
                    fixed_t.append(fixed)
                sum2_t.append((0.0, 0.0, 0.0))
            counts.append(len(values))
            held_all.extend(values)
        if not held_all:
            return np.empty(0)
        repeat = np.asarray(counts)
        held = np.asarray(held_all, dtype=np.float64)

        def each(per_task: Sequence[object], dtype: type = np.float64) -> npt.NDArray[Any]:
            return np.repeat(np.asarray(per_task, dtype=dtype), repeat)

        upper_parts = each(upper_parts_t)
        upper = np.where(each(in_upper_t, np.bool_), upper_parts + held, upper_parts)
        scale = each(scale_t)
        chance = (upper >= threshold).astype(np.float64)
        spread = np.flatnonzero(scale > 0)
        if len(spread):
            z = (upper[spread] - threshold + 0.5) / scale[spread]
            chance[spread] = 0.5 * (1 + np.asarray([math.erf(x) for x in z.tolist()]))
        total = upper + bonus * chance + each(lower_parts_t)
        total = np.where(each(in_lower_t, np.bool_), total + held, total)
        mode = each(mode_t, np.int64)
        if (mode == 1).any():
            parts3 = np.repeat(np.asarray(sum2_t, dtype=np.float64), repeat, axis=0)
            own = np.isnan(parts3)
            maximum, minimum, ones = (np.where(own[:, k], held, parts3[:, k]) for k in range(3))
            total = np.where(
                mode == 1, total + sum2_product(maximum, minimum, ones, negative), total
            )
        total = np.where(mode == 0, total + each(fixed_t), total)
        for first, cells, i, values in varies:
            changed = list(cells)
            for n, value in enumerate(values, first):
                changed[i] = value
                total[n] = total[n] + column_sum2(self.options, changed)
        result: Array = total
        return result


#: A cell by its column's and its row's index in the sheet.
Place = tuple[int, int]
#: A player's cells, column by column in row order (``None`` where empty).
SheetCells = tuple[tuple[int | None, ...], ...]
#: How many cell worths a bot keeps between turns (then it starts afresh): the columns a
#: turn does not touch keep their worths, and the first turns of games repeat.
_WORTHS_KEPT = 4096
#: How many turns' plans a bot keeps (each some 20 kB), so that the games from one sheet share
#: their first turns' worths.
_PLANS_KEPT = 256


@dataclass(frozen=True)
class _Plan:
    """One turn's worths: ``final[j-1, r]`` without and, per announceable cell, with an
    announcement; ``base`` each column's worth as it stands, and the holding worths once
    asked (a turn asks them at every decision)."""

    final: Array
    #: each announceable place with what the other columns are worth beside it
    announced: dict[Place, float]
    base: list[float]
    sheet: SheetCells
    #: per announced place (``None``: unannounced) the worths of :func:`_keep_worths`
    keeps: dict[Place | None, tuple[Array, Array]] = field(default_factory=dict)
    #: ``announced`` column by column: the column, its announceable rows, the others' worth
    announceable: list[tuple[int, tuple[int, ...], float]] = field(default_factory=list)
    #: ``0.0 + base[0] + … + base[c - 1]`` for each ``c``, added up once asked
    _before: list[float] = field(default_factory=list)

    def before(self, c: int) -> float:
        """The worth of the columns before column ``c``, added one by one from 0.0."""
        if not self._before:
            total = 0.0
            for worth in self.base:
                self._before.append(total)
                total += worth
        return self._before[c]


#: What a bot does next: ``("roll", keep index)``, ``("announce", place)`` or
#: ``("enter", None)`` (which entry: :meth:`FamilyBot.entry`, or the engine's own list).
Choice = tuple[str, int | Place | None]


class FamilyBot:
    """A bot for Jamb and Yams sheets that plays through ``Game`` (see the module docstring).

    Its decisions are made on plain data (the cells as tuples, places as indices), so that
    :mod:`kniffel.solver.play.family_fast` plays the same games without the engine; the
    worths of a cell that a turn does not touch are kept for the next turns."""

    def __init__(self, name: str, variant: Variant, estimate: SheetEstimate) -> None:
        self.name = name
        self.variant = variant
        self.estimate = estimate
        self._scores = score_table(variant.options)
        self._rows = rows_for(variant.options)
        self._row_index = {row: i for i, row in enumerate(self._rows)}
        self._column_index = {spec.id: c for c, spec in enumerate(variant.columns)}
        self.disciplines = tuple(spec.discipline for spec in variant.columns)
        # each row's distinct scores and where each (roll number, roll) finds its own
        self._distinct: list[tuple[list[int], npt.NDArray[np.intp]]] = []
        for points in self._scores:
            values, inverse = np.unique(points, return_inverse=True)
            self._distinct.append(([int(v) for v in values.tolist()], inverse.reshape(-1)))
        self._cache: tuple[object, _Plan] | None = None
        # the plans of the last sheets: a sheet's games all start from it, and their next
        # turns often from the same few sheets
        self._plans: dict[object, _Plan] = {}
        self._worths: dict[tuple[Discipline, tuple[int | None, ...], int], Array] = {}
        self._held: dict[tuple[tuple[int | None, ...], int], Array] = {}
        self._held_rows: dict[tuple[tuple[int | None, ...], tuple[int, ...]], Array] = {}
        self._columns: dict[tuple[Discipline, tuple[int | None, ...]], float] = {}
        self._bests: dict[tuple[Discipline, tuple[int | None, ...], tuple[int, ...]], Array] = {}

    # ------------------------------------------------------------- decisions

    def choose(self, game: Game) -> RollAction | EnterAction | AnnounceAction:
        """The next action of the player to move: a roll, an announcement or an entry."""
        player = game.current_player()
        if player is None:
            raise IllegalMoveError("the game is finished", code="game_finished")
        pending = game.pending(player)
        if pending is None:
            return RollAction()  # no dice yet: the first roll is the only move
        dice, rolls = pending
        return self._decide(game, player, dice, rolls)

    def _places(self, game: Game, player: int) -> list[Place]:
        return [
            (self._column_index[cell.column], self._row_index[cell.row])
            for cell in game.allowed_cells(player)
        ]

    def _cell(self, place: Place) -> Cell:
        return Cell(self.variant.columns[place[0]].id, self._rows[place[1]])

    def _decide(
        self, game: Game, player: int, dice: Dice, rolls: int
    ) -> RollAction | EnterAction | AnnounceAction:
        """What to do with ``dice`` after ``rolls`` rolls: keep and roll, announce or enter."""
        sheet = self._sheet(game, player)
        announced = game.announced(player)
        if announced is not None:
            plan = self._plan(player, sheet, self._places(game, player))
            if (
                self._column_index[announced.column],
                self._row_index[announced.row],
            ) not in plan.announced:
                # announced before the plan saw it (a person announced for the bot)
                final = self._announce_final(game, player, announced)
                choice = self.decide(player, sheet, [], ROLL_INDEX[dice], rolls, None, final)
                return self._action(game, player, choice)
        choice = self.decide(
            player,
            sheet,
            self._places(game, player),
            ROLL_INDEX[dice],
            rolls,
            None
            if announced is None
            else (self._column_index[announced.column], self._row_index[announced.row]),
            can_announce=bool(game.announce_options(player)),
        )
        return self._action(game, player, choice)

    def _action(
        self, game: Game, player: int, choice: Choice
    ) -> RollAction | EnterAction | AnnounceAction:
        kind, what = choice
        if kind == "roll":
            assert isinstance(what, int)
            return RollAction(KEEPS[what])
        if kind == "announce":
            assert isinstance(what, tuple)
            return AnnounceAction(self._cell(what))
        return EnterAction(self._entry(game, player))

    def decide(
        self,
        player: int,
        sheet: SheetCells,
        allowed: Sequence[Place],
        r: int,
        rolls: int,
        announced: Place | None,
        final: Array | None = None,
        *,
        can_announce: bool = False,
    ) -> Choice:
        """What to do with roll ``r`` after ``rolls`` rolls: ``allowed`` are the places the
        rules open now (``Game.allowed_cells``), ``announced`` the announced place,
        ``final`` the turn's worths when not the plan's (an announcement the plan did not
        make)."""
        if final is None:
            plan = self._plan(player, sheet, allowed)
            final = plan.final if announced is None else self._announced_final(plan, announced)
            keeps = plan.keeps.get(announced)
            if keeps is None:
                keeps = plan.keeps[announced] = _keep_worths(final)
            if rolls == 1 and announced is None and can_announce:
                best = None
                worth = float(max(final[0, r], candidate_worths(keeps[0], r)[1].max()))
                best = self._best_announcement(plan, r, round(worth, DIGITS))
                if best is not None:
                    return ("announce", best)
        else:
            keeps = _keep_worths(final)
        if rolls < MAX_ROLLS:
            # a roll's distinct keeps: the first best of them is ROLL_KEEPS[r]'s first best
            if rolls == 1:
                candidates, worths = candidate_worths(keeps[0], r)
            else:
                candidates = _ROLL_KEEPS_FLAT[_ROLL_KEEPS_STARTS[r] : _ROLL_KEEPS_ENDS[r]]
                worths = keeps[1][candidates]
            best_keep = int(np.argmax(np.round(worths, DIGITS)))
            if round(worths[best_keep], DIGITS) > round(final[rolls - 1, r], DIGITS):
                return ("roll", int(candidates[best_keep]))
        return ("enter", None)

    def entry(
        self,
        player: int,
        sheet: SheetCells,
        allowed: Sequence[Place],
        r: int,
        rolls: int,
        announced: Place | None,
    ) -> Place:
        """The best entry of roll ``r`` made on roll ``rolls``: among ``allowed`` (after an
        announcement the announced place alone), a first-roll column and an unannounced
        announce cell only on the first roll, each scored by the rules' table."""
        plan = self._plan(player, sheet, allowed)
        points = self._scores[:, rolls - 1, r].tolist()  # each row's points, as ints below
        best: tuple[float, Place] | None = None  # the best worth rounded, and its place
        for place in [announced] if announced is not None else allowed:
            c, i = place
            if rolls != 1 and first_roll_only(self.disciplines[c], announced=announced == place):
                continue
            value = round(self._after_plan(plan, sheet, c, i, int(points[i])), DIGITS)
            if best is None or value > best[0]:
                best = (value, place)
        if best is None:
            raise IllegalMoveError("the rules leave the bot no entry", code="no_entry")
        return best[1]

    def points(self, i: int, rolls: int, r: int) -> int:
        """What roll ``r`` made on roll number ``rolls`` scores in row ``i`` (``sheet_score``)."""
        return int(self._scores[i, rolls - 1, r])

    # ------------------------------------------------- what the Tipp reads

    def turn_worths(self, game: Game, player: int) -> tuple[Array, dict[Cell, Array]]:
        """The turn's worths as the bot plays it: ``final[j-1, r]`` (the sheet's worth after
        the best entry of roll ``r`` on roll ``j``; announced: that cell's alone) and, while
        an announcement is open, each announceable cell's (the Tipp and the review value
        every choice by them: :mod:`kniffel.solver.advice.family`)."""
        plan = self._plan(player, self._sheet(game, player), self._places(game, player))
        announced = game.announced(player)
        if announced is not None:
            return self._announce_final(game, player, announced), {}
        return plan.final, {
            self._cell(place): self._announced_final(plan, place) for place in plan.announced
        }

    def entry_worth(self, game: Game, player: int, cell: Cell, points: int) -> float:
        """The sheet's worth after ``points`` go into ``cell``."""
        return self._after(game, player, cell, points)

    def _entry(self, game: Game, player: int) -> Cell:
        """The best of the rules' own entries for the pending dice."""
        sheet = self._sheet(game, player)
        plan = self._plan(player, sheet, self._places(game, player))
        best: tuple[float, Cell] | None = None
        for option in game.entry_options(player):
            c, i = self._column_index[option.cell.column], self._row_index[option.cell.row]
            value = self._after_plan(plan, sheet, c, i, option.points + option.kniffel_bonus)
            if best is None or round(value, DIGITS) > round(best[0], DIGITS):
                best = (value, option.cell)
        if best is None:
            raise IllegalMoveError("the rules leave the bot no entry", code="no_entry")
        return best[1]

    # ----------------------------------------------------------------- worths

    def _sheet(self, game: Game, player: int) -> SheetCells:
        return tuple(game.column_points(player, spec.id) for spec in game.columns)

    def _after(self, game: Game, player: int, cell: Cell, points: int) -> float:
        """The worth of the player's sheet after ``points`` go into ``cell``."""
        sheet = self._sheet(game, player)
        c, i = self._column_index[cell.column], self._row_index[cell.row]
        total = 0.0
        for n, cells in enumerate(sheet):
            if n == c:
                changed = list(cells)
                changed[i] = points
                total += self.estimate.column(self.disciplines[n], changed)
            else:
                total += self.estimate.column(self.disciplines[n], cells)
        return total

    def _after_plan(self, plan: _Plan, sheet: SheetCells, c: int, i: int, points: int) -> float:
        """:meth:`_after` with the untouched columns' worths from the plan (the same sums, in
        the same order: the columns before ``c`` summed once a plan)."""
        changed = list(sheet[c])
        changed[i] = points
        total = plan.before(c) + self._column(self.disciplines[c], tuple(changed))
        for worth in plan.base[c + 1 :]:
            total += worth
        return total

    def _cell_worth(self, cells: tuple[int | None, ...], discipline: Discipline, i: int) -> Array:
        """``[j-1, r]``: the column's worth after roll ``r`` on roll ``j`` goes into row ``i``."""
        key = (discipline, cells, i)
        kept = self._worths.get(key)
        if kept is not None:
            return kept
        values, inverse = self._distinct[i]
        worths = self.estimate.column_values(discipline, cells, i, values)
        result = np.asarray(worths[inverse].reshape(self._scores[i].shape))
        if len(self._worths) >= _WORTHS_KEPT:
            self._worths.clear()
        self._worths[key] = result
        return result

    def _plan(self, player: int, sheet: SheetCells, allowed: Sequence[Place]) -> _Plan:
        key: tuple[object, ...] = (player, sheet)
        # A plan of one place (after an announcement, the announced cell alone) is kept by that
        # place: it must not stand for the sheet's plan of every open place, which stands for it.
        alone = (player, sheet, allowed[0]) if len(allowed) == 1 else None
        cached = self._cache
        if cached is not None and (cached[0] == key or cached[0] == alone):
            return cached[1]
        for look in (key, alone):
            kept = self._plans.get(look)
            if kept is not None:
                self._cache = (look, kept)
                return kept
        if alone is not None:
            key = alone
        base = [
            self._column(discipline, cells)
            for discipline, cells in zip(self.disciplines, sheet, strict=True)
        ]
        whole = sum(base)
        final = np.full((MAX_ROLLS, len(ROLLS)), NOWHERE)
        announced: dict[Place, float] = {}
        by_column: dict[int, list[int]] = {}
        for c, i in allowed:
            by_column.setdefault(c, []).append(i)
        for c, rows in by_column.items():
            discipline = self.disciplines[c]
            others = whole - base[c]
            # the other columns add the same to every cell of this one: its best cell first
            worth = others + self._column_best(sheet[c], discipline, tuple(rows))
            if first_roll_only(discipline):
                final[0] = np.maximum(final[0], worth[0])  # unannounced: the first roll only
                if discipline is Discipline.ANNOUNCE:
                    announced.update(((c, i), others) for i in rows)
            else:
                final = np.maximum(final, worth)
        plan = _Plan(final, announced, base, sheet)
        for c, rows in by_column.items():
            if first_roll_only(self.disciplines[c]) and (c, rows[0]) in announced:
                plan.announceable.append((c, tuple(rows), announced[(c, rows[0])]))
        self._cache = (key, plan)
        if len(self._plans) >= _PLANS_KEPT:
            self._plans.clear()
        self._plans[key] = plan
        return plan

    def _announced_final(self, plan: _Plan, place: Place) -> Array:
        """The turn's worths with ``place`` announced: its column's worth beside the rest."""
        c, i = place
        return plan.announced[place] + self._cell_worth(plan.sheet[c], self.disciplines[c], i)

    def _column(self, discipline: Discipline, cells: tuple[int | None, ...]) -> float:
        """The estimate's worth of one column, kept between turns like the cell worths."""
        key = (discipline, cells)
        kept = self._columns.get(key)
        if kept is None:
            if len(self._columns) >= 16 * _WORTHS_KEPT:
                self._columns.clear()
            kept = self._columns[key] = self.estimate.column(discipline, cells)
        return kept

    def _column_best(
        self, cells: tuple[int | None, ...], discipline: Discipline, rows: tuple[int, ...]
    ) -> Array:
        """``[j-1, r]``: the column's worth after the best entry into one of ``rows``."""
        key = (discipline, cells, rows)
        kept = self._bests.get(key)
        if kept is None:
            if len(self._bests) >= _WORTHS_KEPT:
                self._bests.clear()
            kept = self._cell_worth(cells, discipline, rows[0])
            for i in rows[1:]:
                kept = np.maximum(kept, self._cell_worth(cells, discipline, i))
            self._bests[key] = kept
        return kept

    def _announce_holding(self, plan: _Plan, r: int) -> dict[Place, float]:
        """Each announceable place's worth of holding roll ``r`` after the first roll.

        The other columns add the same to every roll, and holding worths move with a
        constant added (each keep's chances sum to 1), so the holding worths of the
        announce column's own worths are kept until that column changes."""
        return {
            (c, i): others + float(self._holding(plan.sheet[c], c, i)[r])
            for (c, i), others in plan.announced.items()
        }

    def _best_announcement(self, plan: _Plan, r: int, bar: float) -> Place | None:
        """The first announceable place whose worth of holding roll ``r`` (as
        :meth:`_announce_holding` states it) beats ``bar`` (a worth rounded) and every place
        before it, or ``None``; a column's places are valued at once, and only those near
        ``bar`` are rounded one by one."""
        best = None
        for c, rows, others in plan.announceable:
            cells = plan.sheet[c]
            key = (cells, rows)
            held = self._held_rows.get(key)
            if held is None:
                if len(self._held_rows) >= _WORTHS_KEPT:
                    self._held_rows.clear()
                held = self._held_rows[key] = np.stack(
                    [self._holding(cells, c, i) for i in rows], axis=1
                )
            values = others + held[r]  # each place's others + float(held[r]), as numbers
            # a worth below bar - 1e-6 rounds below bar at nine digits (bar only grows)
            for k in np.flatnonzero(values > bar - 1e-6).tolist():
                if (rounded := round(float(values[k]), DIGITS)) > bar:
                    best, bar = (c, rows[k]), rounded
        return best

    def _holding(self, cells: tuple[int | None, ...], c: int, i: int) -> Array:
        """The announce column's own holding worths after the first roll for row ``i``."""
        key = (cells, i)
        held = self._held.get(key)
        if held is None:
            if len(self._held) >= _WORTHS_KEPT:
                self._held.clear()
            worths = self._cell_worth(cells, self.disciplines[c], i)
            held = self._held[key] = holding_worth(worths)[0]
        return held

    def _announce_final(self, game: Game, player: int, cell: Cell) -> Array:
        sheet = self._sheet(game, player)
        plan = self._plan(player, sheet, self._places(game, player))
        place = (self._column_index[cell.column], self._row_index[cell.row])
        if place in plan.announced:
            return self._announced_final(plan, place)
        # announced before the plan saw it (a person announced for the bot): value it now
        c = place[0]
        discipline = self.disciplines[c]
        others = sum(
            self.estimate.column(self.disciplines[n], cells)
            for n, cells in enumerate(sheet)
            if n != c
        )
        return others + self._cell_worth(sheet[c], discipline, place[1])


class FamilyRandomBot(FamilyBot):
    """Each decision uniformly among the legal ones: every entry the rules list, every
    announcement open, and every distinct keep while the rules let the player roll again."""

    def __init__(self, variant: Variant, seed: int = 0) -> None:
        super().__init__("random", variant, GreedyEstimate(variant.options))
        self.rng = np.random.default_rng(seed)

    def _decide(
        self, game: Game, player: int, dice: Dice, rolls: int
    ) -> RollAction | EnterAction | AnnounceAction:
        name = game.players[player]
        actions: list[RollAction | EnterAction | AnnounceAction] = [
            EnterAction(option.cell) for option in game.entry_options(player)
        ]
        actions.extend(game.announce_options(player))
        if rolls < MAX_ROLLS and game.check(Roll(name, dice, dice.faces)) is None:
            actions.extend(RollAction(keep) for keep in keeps_of(dice))
        return actions[int(self.rng.random() * len(actions))]


#: The bots of Jamb and Yams, by the names of kniffel.solver.play.bots.
FAMILY_BOTS = ("random", "greedy", "best")


def make_family_bot(name: str, variant: Variant, seed: int = 0) -> FamilyBot:
    """The ``random``, ``greedy`` or ``best`` bot for a Jamb or Yams variant."""
    if name == "random":
        return FamilyRandomBot(variant, seed)
    if name == "greedy":
        return FamilyBot(name, variant, GreedyEstimate(variant.options))
    if name == "best":
        return FamilyBot(name, variant, BestEstimate(variant.options))
    raise KniffelError(f"unknown bot {name!r}; the bots are {', '.join(FAMILY_BOTS)}")


def play_game(
    bot: FamilyBot, faces: npt.NDArray[np.int64], player: str = "Bot", game: Game | None = None
) -> Game:
    """A solitaire game of ``bot`` through the rules engine, with the dice drawn in advance:
    roll ``j`` of turn ``t`` keeps its dice and throws the first faces of ``faces[t, j]``
    (the scheme of :mod:`kniffel.solver.play.simulate`); ``game``: played on from there
    (``t`` counts the player's filled cells, so ``faces`` covers the whole sheet)."""
    game = Game(bot.variant, [player]) if game is None else game
    while not game.is_finished:
        action = bot.choose(game)
        if isinstance(action, RollAction):
            turn = game.filled_count(player)
            pending = game.pending(player)
            j = 0 if pending is None else pending[1]
            thrown = faces[turn, j, : 5 - len(action.keep)].tolist()
            game.push(Roll(player, Dice.of([*action.keep, *thrown]), action.keep))
        elif isinstance(action, AnnounceAction):
            game.push(Announce(player, action.cell))
        else:
            game.push(Enter(player, action.cell))
    return game
