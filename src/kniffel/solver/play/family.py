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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    JAMB_UPPER_BONUS,
    JAMB_UPPER_BONUS_THRESHOLD,
    MAX_ROLLS,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
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
    Sheet,
    Variant,
    jamb_sum1,
    jamb_sum2,
    keeps_of,
    rows_for,
    sheet_score,
    upper_bonus,
)
from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST, P_KEEP, ROLL_INDEX, ROLL_KEEPS, ROLLS

__all__ = [
    "FAMILY_BOTS",
    "BestEstimate",
    "FamilyBot",
    "FamilyRandomBot",
    "GreedyEstimate",
    "SheetEstimate",
    "make_family_bot",
    "play_game",
    "row_expectations",
]

Array = npt.NDArray[np.float64]

#: The worth of a roll that no cell may take (finite: the keep matrix multiplies it by 0).
_NOWHERE = -1e9
_ROLLS = range(1, MAX_ROLLS + 1)
#: Rounding before comparing worths, so that ties go to stopping and to the first cell.
_DIGITS = 9

Cells = Sequence[int | None]


@cache
def score_table(options: Options) -> Array:
    """``[row, roll number − 1, roll]``: what each roll scores in each row (``sheet_score``)."""
    rows = rows_for(options)
    table = np.empty((len(rows), MAX_ROLLS, len(ROLLS)))
    for i, row in enumerate(rows):
        for j in _ROLLS:
            table[i, j - 1] = [sheet_score(row, dice, options, j) for dice in ROLLS]
    return table


def _best_keep(worth: Array) -> Array:
    """Each roll's best keep, given what each roll is worth after the next throw."""
    return np.asarray((worth @ P_KEEP.T)[..., ROLL_KEEPS].max(axis=-1))


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


@cache
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


@dataclass(frozen=True)
class GreedyEstimate:
    """The column's total as the rules add it up now: open cells count nothing."""

    options: Options

    def column(self, discipline: Discipline, cells: Cells) -> float:
        return float(_rules_total(self.options, cells))


def _rules_total(options: Options, cells: Cells) -> int:
    if options.sheet is Sheet.JAMB:
        upper = sum(v or 0 for v in cells[:6])
        lower = sum(v or 0 for v in cells[8:])
        return (
            jamb_sum1(upper) + jamb_sum2(cells[6], cells[7], cells[0], options.sum2_bonus) + lower
        )
    upper = sum(v or 0 for v in cells[:6])
    return upper + upper_bonus(upper) + sum(v or 0 for v in cells[6:])


@dataclass(frozen=True)
class BestEstimate:
    """Filled cells as they are, open cells at their row's expectation (first roll only in a
    first-roll column), the upper bonus times a normal guess of its chance, Σ2 from the
    expected Max, Min and ones."""

    options: Options

    def column(self, discipline: Discipline, cells: Cells) -> float:
        rows = row_expectations(self.options, discipline is Discipline.HAND)
        jamb = self.options.sheet is Sheet.JAMB
        upper = var = 0.0
        for value, row in zip(cells[:6], rows, strict=False):
            if value is None:
                upper += row.mean
                var += row.variance
            else:
                upper += value
        threshold, bonus = (
            (JAMB_UPPER_BONUS_THRESHOLD, JAMB_UPPER_BONUS)
            if jamb
            else (UPPER_BONUS_THRESHOLD, UPPER_BONUS)
        )
        if var > 0:
            chance = 0.5 * (1 + math.erf((upper - threshold + 0.5) / math.sqrt(2 * var)))
        else:
            chance = float(upper >= threshold)
        total = upper + bonus * chance
        lower_from = 8 if jamb else 6
        total += sum(
            row.mean if value is None else value
            for value, row in zip(cells[lower_from:], rows[lower_from:], strict=True)
        )
        if jamb:
            maximum, minimum, ones = (
                rows[i].mean if cells[i] is None else float(cells[i] or 0) for i in (6, 7, 0)
            )
            if None in (cells[6], cells[7], cells[0]):
                total += max(0.0, maximum - minimum) * ones
            else:
                total += jamb_sum2(cells[6], cells[7], cells[0], self.options.sum2_bonus)
        return total


@dataclass(frozen=True)
class _Plan:
    """One turn's worths: ``final[j-1, r]`` without and, per announceable cell, with an
    announcement."""

    final: Array
    announced: dict[Cell, Array]


class FamilyBot:
    """A bot for Jamb and Yams sheets that plays through ``Game`` (see the module docstring)."""

    def __init__(self, name: str, variant: Variant, estimate: SheetEstimate) -> None:
        self.name = name
        self.variant = variant
        self.estimate = estimate
        self._scores = score_table(variant.options)
        self._row_index = {row: i for i, row in enumerate(rows_for(variant.options))}
        self._cache: tuple[object, _Plan] | None = None

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

    def _decide(
        self, game: Game, player: int, dice: Dice, rolls: int
    ) -> RollAction | EnterAction | AnnounceAction:
        """What to do with ``dice`` after ``rolls`` rolls: keep and roll, announce or enter."""
        r = ROLL_INDEX[dice]
        plan = self._plan(game, player)
        announced = game.announced(player)
        final = plan.final if announced is None else self._announce_final(game, player, announced)
        if rolls == 1 and announced is None and game.announce_options(player):
            after_one, _ = holding_worth(final)
            best, worth = None, after_one[r]
            for cell, announce_final in plan.announced.items():
                value = holding_worth(announce_final)[0][r]
                if round(value, _DIGITS) > round(worth, _DIGITS):
                    best, worth = cell, value
            if best is not None:
                return AnnounceAction(best)
        if rolls < MAX_ROLLS:
            after_two = holding_worth(final)[1] if rolls == 1 else final[2]
            keep_worth = after_two @ P_KEEP.T
            candidates = ROLL_KEEPS[r]
            keep = int(candidates[np.argmax(np.round(keep_worth[candidates], _DIGITS))])
            if round(keep_worth[keep], _DIGITS) > round(final[rolls - 1, r], _DIGITS):
                return RollAction(KEEPS[keep])
        return EnterAction(self._entry(game, player))

    # ------------------------------------------------- what the Tipp reads

    def turn_worths(self, game: Game, player: int) -> tuple[Array, dict[Cell, Array]]:
        """The turn's worths as the bot plays it: ``final[j-1, r]`` (the sheet's worth after
        the best entry of roll ``r`` on roll ``j``; announced: that cell's alone) and, while
        an announcement is open, each announceable cell's (the Tipp and the review value
        every choice by them: :mod:`kniffel.solver.advice.family`)."""
        plan = self._plan(game, player)
        announced = game.announced(player)
        if announced is not None:
            return self._announce_final(game, player, announced), {}
        return plan.final, plan.announced

    def entry_worth(self, game: Game, player: int, cell: Cell, points: int) -> float:
        """The sheet's worth after ``points`` go into ``cell``."""
        return self._after(game, player, cell, points)

    def _entry(self, game: Game, player: int) -> Cell:
        """The best of the rules' own entries for the pending dice."""
        best: tuple[float, Cell] | None = None
        for option in game.entry_options(player):
            value = self._after(game, player, option.cell, option.points + option.kniffel_bonus)
            if best is None or round(value, _DIGITS) > round(best[0], _DIGITS):
                best = (value, option.cell)
        if best is None:
            raise IllegalMoveError("the rules leave the bot no entry", code="no_entry")
        return best[1]

    # ----------------------------------------------------------------- worths

    def _sheet(self, game: Game, player: int) -> list[list[int | None]]:
        return [list(game.column_points(player, spec.id)) for spec in game.columns]

    def _after(self, game: Game, player: int, cell: Cell, points: int) -> float:
        """The worth of the player's sheet after ``points`` go into ``cell``."""
        sheet = self._sheet(game, player)
        total = 0.0
        for spec, cells in zip(game.columns, sheet, strict=True):
            if spec.id == cell.column:
                cells[self._row_index[cell.row]] = points
            total += self.estimate.column(spec.discipline, cells)
        return total

    def _cell_worth(
        self, sheet: list[list[int | None]], c: int, discipline: Discipline, i: int
    ) -> Array:
        """``[j-1, r]``: the column's worth after roll ``r`` on roll ``j`` goes into row ``i``."""
        points = self._scores[i]
        values, inverse = np.unique(points, return_inverse=True)
        cells = list(sheet[c])
        worths = np.empty(len(values))
        for n, value in enumerate(values.tolist()):
            cells[i] = int(value)
            worths[n] = self.estimate.column(discipline, cells)
        return np.asarray(worths[inverse].reshape(points.shape))

    def _plan(self, game: Game, player: int) -> _Plan:
        sheet = self._sheet(game, player)
        key = (player, tuple(tuple(cells) for cells in sheet))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        columns = game.columns
        base = [
            self.estimate.column(spec.discipline, cells)
            for spec, cells in zip(columns, sheet, strict=True)
        ]
        whole = sum(base)
        final = np.full((MAX_ROLLS, len(ROLLS)), _NOWHERE)
        announced: dict[Cell, Array] = {}
        column_index = {spec.id: c for c, spec in enumerate(columns)}
        for cell in game.allowed_cells(player):
            c = column_index[cell.column]
            discipline = columns[c].discipline
            worth = (
                whole - base[c] + self._cell_worth(sheet, c, discipline, self._row_index[cell.row])
            )
            if discipline in (Discipline.HAND, Discipline.ANNOUNCE):
                final[0] = np.maximum(final[0], worth[0])  # unannounced: the first roll only
                if discipline is Discipline.ANNOUNCE:
                    announced[cell] = worth
            else:
                final = np.maximum(final, worth)
        plan = _Plan(final, announced)
        self._cache = (key, plan)
        return plan

    def _announce_final(self, game: Game, player: int, cell: Cell) -> Array:
        plan = self._plan(game, player)
        if cell in plan.announced:
            return plan.announced[cell]
        # announced before the plan saw it (a person announced for the bot): value it now
        sheet = self._sheet(game, player)
        c = next(n for n, spec in enumerate(game.columns) if spec.id == cell.column)
        discipline = game.columns[c].discipline
        others = sum(
            self.estimate.column(spec.discipline, cells)
            for n, (spec, cells) in enumerate(zip(game.columns, sheet, strict=True))
            if n != c
        )
        return others + self._cell_worth(sheet, c, discipline, self._row_index[cell.row])


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
