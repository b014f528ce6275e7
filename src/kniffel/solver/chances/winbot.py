"""The ``win`` bot: play for the chance to finish first, not for points.

:class:`WinBot` plays the turn exactly like the best bot (the same keep
optimisation over three rolls over a worth of each final roll and entry), but
late in the game the worth is the chance to finish ahead of the opponents
instead of points:

- **Far from the end** (more than ``late`` entries left to the player or an
  opponent) it plays the best bot's points: there the chance to win hardly
  depends on anything but the expected points.
- **Late** the worth of entering roll ``r`` in slot ``k`` is the exact chance to
  win if the player then plays on like the best bot: the entry leaves the sheet
  ``s'`` with ``total + g`` points, and the points still to come from ``s'``
  have the exact distribution ``D`` of :class:`~kniffel.solver.chances.finals.LateFinals`;
  every opponent's final total likewise (their sheet at the start of their next
  turn, playing the best bot; a full sheet: its total). With ``u(x)`` the chance
  that a final total ``x`` beats every opponent (a tie counting half against
  each), the worth is ``sum_t D(t) u(total + g + t)``. The keeps maximise its
  expectation, so they gamble when behind and play safe when ahead.

This is one step of policy improvement over the best bot: each turn's choices
are the best for the win given that the rest is played for points, so it
wins at least as often as the best bot against the same opponents (with one
opponent exactly; with several ``u`` treats the opponents' ties approximately).
A hundred-millionth of the points is added so that where every choice is (all
but) sure to win or to lose, the bot still takes the points.

:func:`win_choices` gives the same numbers for a position of a real game (the
"Auf Sieg" Tipp); far from the end, where the bot plays for points, it shows the
normal model's chance of each choice's expected total (calibrated spread,
:mod:`~kniffel.solver.chances.calibration`), which ranks the choices as points do. Where the
variant's finals table is on disk (:mod:`~kniffel.solver.chances.finals_table`, ``kniffel``)
every position is late: each distribution is read off the table, so the chances are exact
from the first turn on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    Action,
    Cell,
    Dice,
    EnterAction,
    Game,
    KniffelError,
    RollAction,
    Variant,
    rows_for,
)
from kniffel.solver.advice.analysis import choice_label
from kniffel.solver.advice.position import Choice
from kniffel.solver.chances.calibration import Calibration, load_calibration
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.finals import LateFinals
from kniffel.solver.chances.finals_table import FinalsTable, TableFinals, stored_finals
from kniffel.solver.chances.win import normal_cdf
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values, turn_value
from kniffel.solver.per_variant import per_variant
from kniffel.solver.play.bots import ValueBot
from kniffel.solver.play.sheets import Entries, SheetBatch

__all__ = ["LATE", "WinBot", "WinChoice", "win_choices"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Entries left (to the player and to every opponent) from which the bot plays for the win.
LATE = 5
_TIE_BREAK = 1e-8  # per point


def _take(sheets: SheetBatch, which: IntArray) -> SheetBatch:
    part = SheetBatch(sheets.variant, len(which))
    for name in ("filled", "upper", "lower", "kniffel_bonus", "bonus_kniffels", "fifty"):
        setattr(part, name, getattr(sheets, name)[which].copy())
    return part


def _take_entries(entries: Entries, which: IntArray) -> Entries:
    return Entries(
        entries.row[which],
        entries.legal[which],
        entries.points[which],
        entries.gain[which],
        entries.kniffel_bonus[which],
        entries.upper_after[which],
    )


class WinBot(ValueBot):
    """The best bot's turn, maximising the chance to finish ahead of the opponents late."""

    def __init__(
        self, variant: Variant, late: int = LATE, table: FinalsTable | None = None
    ) -> None:
        best = best_bot(variant)
        super().__init__("win", best.value)
        self.variant = variant
        self.late = late
        self.finals = (
            LateFinals(variant, best) if table is None else TableFinals(variant, best, table)
        )
        self.cells = len(variant.columns) * len(rows_for(variant.options))
        self.opponents: list[SheetBatch] = []

    def against(self, *opponents: SheetBatch) -> None:
        """The opponents' sheets (each aligned with the sheets of the next turns to play)."""
        self.opponents = list(opponents)

    def choose(self, game: Game) -> Action:
        """The next action in ``game`` against every other player."""
        player = game.current_player()
        if player is not None:
            others = [p for p in range(len(game.players)) if p != player]
            if not others:
                raise KniffelError("the win bot needs an opponent")
            self.against(*(SheetBatch.of_game(game, p) for p in others))
        return super().choose(game)

    def distinct(self, sheets: SheetBatch) -> tuple[SheetBatch, IntArray]:
        # Against opponents a sheet's worth depends on the opponents' sheets of the same game,
        # which are aligned with ``sheets``: equal sheets of different games are not alike.
        if self.opponents:
            return sheets, np.arange(sheets.size, dtype=np.int64)
        return super().distinct(sheets)

    def is_late(self, sheets: SheetBatch) -> BoolArray:
        """Which sheets are played for the win: few entries left to them and to every opponent."""
        late = self.cells - sheets.filled_count() <= self.late
        for other in self.opponents:
            late &= self.cells - other.filled_count() <= self.late
        return np.asarray(late, dtype=np.bool_)

    def worth(self, sheets: SheetBatch) -> tuple[Entries, Array]:
        entries, points = super().worth(sheets)
        if not self.opponents:
            return entries, points
        late = np.flatnonzero(self.is_late(sheets))
        if not len(late):
            return entries, points
        chance = self.win_worth(
            _take(sheets, late),
            _take_entries(entries, late),
            [_take(o, late) for o in self.opponents],
        )
        worth = points.copy()
        worth[late] = np.where(entries.legal[late], chance + _TIE_BREAK * points[late], -np.inf)
        return entries, worth

    def beating(self, opponents: list[SheetBatch], low: IntArray, size: int) -> Array:
        """``u[b, i]``: the chance that a final total ``low[b] + i`` beats every opponent."""
        u = np.ones((len(low), size))
        x = low[:, None] + np.arange(size)[None, :]
        for other in opponents:
            dists = self.finals.of(self.finals.keys(other))
            totals = other.totals()
            for b, d in enumerate(dists):
                below = np.concatenate([[0.0], np.cumsum(d), [1.0]])  # below[i]: P(X < i)
                i = np.clip(x[b] - totals[b], 0, len(d))
                level = np.concatenate([d, [0.0]])[np.minimum(i, len(d))]
                level = np.where(x[b] >= totals[b], level, 0.0)
                u[b] *= below[i] + 0.5 * level
        return u

    def win_worth(self, sheets: SheetBatch, entries: Entries, opponents: list[SheetBatch]) -> Array:
        """``[B, K, 252]``: the chance to win after each entry, then playing like the best bot."""
        child = self.finals.child_keys(sheets, entries)
        legal = entries.legal
        gain = np.where(legal, entries.gain, 0).astype(np.int64)
        child = np.where(legal, child, child[legal][0] if legal.any() else 0)
        children, which = np.unique(child, return_inverse=True)
        which = which.reshape(child.shape)
        dists = self.finals.of(children)
        width = max(len(d) for d in dists)
        table = np.zeros((len(children), width))
        for i, d in enumerate(dists):
            table[i, : len(d)] = d
        top = int(gain.max()) + 1
        size = len(sheets.filled)
        u = self.beating(opponents, sheets.totals(), top + width)
        code = (np.arange(size)[:, None, None] * len(children) + which) * top + gain
        triples, inverse = np.unique(code, return_inverse=True)
        sheet, rest = np.divmod(triples, len(children) * top)
        kid, moved = np.divmod(rest, top)
        values = np.empty(len(triples))
        span = np.arange(width)
        for start in range(0, len(triples), 4096):
            part = slice(start, start + 4096)
            window = u[sheet[part][:, None], moved[part][:, None] + span[None, :]]
            values[part] = (table[kid[part]] * window).sum(axis=1)
        return np.asarray(values[inverse].reshape(child.shape), dtype=np.float64)


@dataclass(frozen=True)
class WinChoice:
    """A choice of the player to move and their chance to finish first after it."""

    action: Action
    label: str
    win: float
    points: int | None = None

    def as_dict(self) -> dict[str, Any]:
        if isinstance(self.action, EnterAction):
            described: dict[str, Any] = {
                "action": "enter",
                "cell": str(self.action.cell),
                "points": self.points,
            }
        else:
            assert isinstance(self.action, RollAction)
            described = {"action": "roll", "keep": list(self.action.keep)}
        return {**described, "label": self.label, "win": round(self.win, 4)}


def _clipped(value: Array) -> Array:
    return np.asarray(np.clip(value, 0.0, 1.0))


_SHARED = threading.Lock()


@per_variant
def _late_win_bot(variant: Variant) -> WinBot:
    """One win bot per variant for the Tipp: it keeps the distributions it solved."""
    return WinBot(variant)


@per_variant
def _table_win_bot(variant: Variant, table: FinalsTable) -> WinBot:
    """With the variant's finals table every position is late: every distribution is there."""
    return WinBot(variant, late=len(rows_for(variant.options)), table=table)


def _win_bot(variant: Variant) -> WinBot:
    table = stored_finals(variant)
    return _late_win_bot(variant) if table is None else _table_win_bot(variant, table)


def _normal_chance(game: Game, player: int, others: list[int]) -> Callable[[Array], Array]:
    """Far from the end: the normal model's chance of a choice worth ``v`` points (best bot's
    value, calibrated level and spread) against the strongest other player."""
    calibration = load_calibration(game.variant)
    if calibration is None:
        raise KniffelError(
            "the chances far from the end need the measured spread, "
            "which exists only for the presets' options"
        )
    outlooks = [_outlook(game.variant, SheetBatch.of_game(game, p), calibration) for p in others]
    mean_o, std_o = max(outlooks, key=lambda o: float(o[0][0]))
    cells = game.cells_per_player
    left = cells - game.filled_count(player) - 1  # entries left after this turn's
    offset = 0.0 if len(game.variant.columns) == 1 else calibration.offset[left]
    total = float(SheetBatch.of_game(game, player).totals()[0])
    spread = max(float(np.hypot(calibration.std[left], std_o[0])), 1e-9)

    def chance(value: Array) -> Array:
        lead = total + value + offset - float(mean_o[0])
        return np.where(np.abs(lead) < 1e-9, 0.5, normal_cdf(np.asarray(lead / spread)))

    return chance


def _outlook(variant: Variant, sheets: SheetBatch, calibration: Calibration) -> tuple[Array, Array]:
    """Each sheet's expected final total (best bot, calibrated) and its spread."""
    cells = len(variant.columns) * len(rows_for(variant.options))
    left = cells - sheets.filled_count()
    totals = sheets.totals().astype(np.float64)
    mean = totals.copy()
    std = np.zeros(sheets.size)
    playing = left > 0
    if playing.any():
        _, worth = best_bot(variant).worth(sheets)
        expected = turn_value(worth[playing].max(axis=1))
        offset = 0.0 if len(variant.columns) == 1 else np.asarray(calibration.offset)[left[playing]]
        mean[playing] = totals[playing] + expected + offset
        std[playing] = np.asarray(calibration.std)[left[playing]]
    return mean, std


def win_choices(game: Game, dice: Dice | None = None, rolls: int = MAX_ROLLS) -> list[WinChoice]:
    """Every choice of the player to move, valued by the chance to finish ahead of the
    other players (all playing on like the best bot), best first: the "Auf Sieg" Tipp.
    ``dice``: dice thrown at the table (else the rolled dice pending, else the turn before
    its first roll), ``rolls`` how many rolls made them. Late (see :class:`WinBot`) the
    chances are exact; earlier they are the normal model's, ranked as the points rank."""
    player = game.current_player()
    if player is None:
        raise KniffelError("the game is finished; there is nothing to advise")
    others = [p for p in range(len(game.players)) if p != player]
    if not others:
        raise KniffelError("playing for the win needs an opponent")
    bot = _win_bot(game.variant)
    sheets = SheetBatch.of_game(game, player)
    shown: Callable[[Array], Array]
    with _SHARED:  # one bot (and its cache) serves every request: one position at a time
        bot.against(*(SheetBatch.of_game(game, p) for p in others))
        late = bool(bot.is_late(sheets)[0])
        if late:
            entries, worth = bot.worth(sheets)
    if late:
        shown = _clipped
    else:
        entries, worth = best_bot(game.variant).worth(sheets)
        shown = _normal_chance(game, player, others)
    final = worth.max(axis=1)  # [1, 252]
    pending = game.pending(player)
    if dice is None and pending is not None:
        dice, rolls = pending
    one_column = len(game.variant.columns) == 1
    if dice is None:
        start = float(shown(turn_value(final))[0])
        return [WinChoice(RollAction(), "roll all dice", start)]
    roll = ROLL_INDEX[dice]
    slots = {}
    for k, column in enumerate(sheets.layout.column.tolist()):
        row = int(entries.row[0, k])
        if row >= 0:
            slots[Cell(game.variant.columns[column].id, sheets.rows[row])] = k
    choices = []
    entry_chances = shown(worth[0, :, roll])
    for option in game.entry_options(player, dice):
        win = float(entry_chances[slots[option.cell]])
        label = choice_label(Choice(EnterAction(option.cell), win, option.points), one_column)
        choices.append(WinChoice(EnterAction(option.cell), label, win, option.points))
    if rolls < MAX_ROLLS:
        last = keep_values(final)[0]
        after_two = np.maximum(final, keep_values(final)[:, ROLL_KEEPS].max(axis=-1))
        ahead = shown(keep_values(after_two)[0] if rolls == 1 else last)
        for k in sorted(set(ROLL_KEEPS[roll].tolist())):
            if len(KEEPS[k]) < 5:
                action = RollAction(KEEPS[k])
                label = choice_label(Choice(action, float(ahead[k])), one_column)
                choices.append(WinChoice(action, label, float(ahead[k])))
    choices.sort(key=lambda c: -c.win)
    return choices
