"""Many solitaire sheets of one variant as arrays, for bots and fast simulation.

A :class:`SheetBatch` holds what the rules engine's :class:`~kniffel.rules.Game`
holds for one player, for ``B`` sheets at once: which cells are filled, the
upper and lower sums and the extra-Kniffel bonuses per column. Its
:meth:`~SheetBatch.entries` states every legal entry of every roll with what it
scores, by the same rules as ``Game.entry_options`` (joker, bonus and
``zero_only_upper`` included); the tests replay simulated games through the
engine to keep the two in step.

The entries of a turn are laid out as *slots*: one per arrow column (its due
cell) and one per row of each free column.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    FIXED_SCORES,
    Discipline,
    Game,
    Joker,
    Options,
    Row,
    Variant,
    rows_for,
)
from kniffel.rules import (
    UPPER_BONUS as BONUS_POINTS,
)
from kniffel.rules import (
    UPPER_BONUS_THRESHOLD as BONUS_THRESHOLD,
)
from kniffel.solver.roll_scores import IS_KNIFFEL, KNIFFEL_FACE, raw_scores

__all__ = ["Entries", "SheetBatch", "SlotLayout"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Int32Array = npt.NDArray[np.int32]

_KNIFFEL_ROLLS = np.flatnonzero(IS_KNIFFEL)  # the six Kniffel rolls
_N_UPPER = 6


@dataclass(frozen=True)
class SlotLayout:
    """Where a turn's entries may go: ``column[k]`` and, for free columns, ``row[k]``."""

    variant: Variant

    @cached_property
    def n_rows(self) -> int:
        return len(rows_for(self.variant.options))

    @cached_property
    def column(self) -> IntArray:
        cols: list[int] = []
        for c, spec in enumerate(self.variant.columns):
            cols.extend([c] * (self.n_rows if spec.discipline is Discipline.FREE else 1))
        return np.array(cols, dtype=np.int64)

    @cached_property
    def free_row(self) -> IntArray:
        """The row of a free-column slot, -1 for an arrow column's slot."""
        rows: list[int] = []
        for spec in self.variant.columns:
            if spec.discipline is Discipline.FREE:
                rows.extend(range(self.n_rows))
            else:
                rows.append(-1)
        return np.array(rows, dtype=np.int64)

    @cached_property
    def factor(self) -> IntArray:
        return np.array([spec.factor for spec in self.variant.columns], dtype=np.int64)

    @property
    def size(self) -> int:
        return len(self.column)


@dataclass(frozen=True)
class Entries:
    """Every slot's entry of every roll: ``[sheet, slot, roll]`` arrays.

    ``points`` is what the cell receives, ``gain`` what the player's total
    gains (upper bonus and extra-Kniffel bonus included, times the factor),
    ``upper_after`` the column's upper sum after the entry.
    """

    row: IntArray  # [B, K], -1 where the slot is closed
    legal: BoolArray  # [B, K, R]
    points: Int32Array
    gain: Int32Array
    kniffel_bonus: Int32Array
    upper_after: Int32Array


class SheetBatch:
    """``B`` sheets of one player each, all of ``variant``."""

    def __init__(self, variant: Variant, size: int) -> None:
        self.variant = variant
        self.options = variant.options
        self.layout = SlotLayout(variant)
        self.rows: tuple[Row, ...] = rows_for(variant.options)
        n_cols = len(variant.columns)
        self.filled = np.zeros((size, n_cols), dtype=np.int64)  # bit i: row i filled
        self.upper = np.zeros((size, n_cols), dtype=np.int64)
        self.lower = np.zeros((size, n_cols), dtype=np.int64)
        self.kniffel_bonus = np.zeros((size, n_cols), dtype=np.int64)
        self.bonus_kniffels = np.zeros(size, dtype=np.int64)  # extra Kniffels credited
        self.fifty = np.zeros((size, n_cols), dtype=np.bool_)  # the Kniffel cell holds 50
        self._kniffel_bit = 1 << self.rows.index(Row.KNIFFEL)
        self._full = (1 << len(self.rows)) - 1

    @property
    def size(self) -> int:
        return len(self.filled)

    @classmethod
    def of_game(cls, game: Game, player: int) -> SheetBatch:
        """The sheet of ``player`` in ``game`` as a batch of one."""
        sheets = cls(game.variant, 1)
        for c, spec in enumerate(game.columns):
            for i, row in enumerate(game.rows):
                cell = game.cell(f"{spec.id}.{row.value}")
                value = game.points(player, cell)
                if value is None:
                    continue
                sheets.filled[0, c] |= 1 << i
                if row.is_upper:
                    sheets.upper[0, c] += value
                else:
                    sheets.lower[0, c] += value
                if row is Row.KNIFFEL and value == 50:
                    sheets.fifty[0, c] = True
                sheets.kniffel_bonus[0, c] += game.cell_bonus(player, cell)
        return sheets

    # ------------------------------------------------------------ the sheet

    def filled_count(self) -> IntArray:
        return np.asarray(np.bitwise_count(self.filled).sum(axis=1), dtype=np.int64)

    def column_totals(self) -> IntArray:
        """``[B, C]``: each column's total, factor and bonuses included."""
        bonus = np.where(self.upper >= BONUS_THRESHOLD, BONUS_POINTS, 0)
        return (self.upper + bonus + self.lower + self.kniffel_bonus) * self.layout.factor

    def totals(self) -> IntArray:
        return np.asarray(self.column_totals().sum(axis=1), dtype=np.int64)

    def due_rows(self) -> IntArray:
        """``[B, C]``: each arrow column's due row; -1 when full or for a free column."""
        due = np.full(self.filled.shape, -1, dtype=np.int64)
        for c, spec in enumerate(self.variant.columns):
            empty = ~self.filled[:, c] & self._full
            if spec.discipline is Discipline.DOWN:
                lowest = empty & -empty
                due[:, c] = np.where(empty > 0, _bit_index(lowest), -1)
            elif spec.discipline is Discipline.UP:
                due[:, c] = np.where(empty > 0, _bit_index(_highest_bit(empty)), -1)
        return due

    def slot_rows(self) -> IntArray:
        """``[B, K]``: the row each slot would fill now, -1 where it is closed."""
        layout = self.layout
        due = self.due_rows()[:, layout.column]
        free = layout.free_row[None, :]
        filled = (self.filled[:, layout.column] >> np.maximum(free, 0)) & 1
        free_rows = np.where(filled == 1, -1, free)
        return np.where(free >= 0, free_rows, due)

    # -------------------------------------------------------------- entries

    def entries(self) -> Entries:
        """Every slot's legal entries of every roll, scored as the engine scores them."""
        options = self.options
        layout = self.layout
        row = self.slot_rows()  # [B, K]
        is_open = row >= 0
        # int32 halves the memory traffic of these [B, K, 252] arrays: the bots' hot loop
        points = _scores32(options)[np.maximum(row, 0)]
        legal = np.repeat(is_open[:, :, None], points.shape[2], axis=2)
        extra = np.asarray(
            np.all(self.filled & self._kniffel_bit, axis=1), dtype=np.bool_
        )  # every Kniffel cell filled
        kniffel_bonus = np.zeros(points.shape, dtype=np.int32)
        if extra.any():
            self._apply_joker(extra, row, points, legal, kniffel_bonus)
        is_upper_slot = is_open & (row < _N_UPPER)
        if options.zero_only_upper:
            any_upper = np.asarray(is_upper_slot.any(axis=1), dtype=np.bool_)
            refused = (points == 0) & ~is_upper_slot[:, :, None] & any_upper[:, None, None]
            legal &= ~refused
        upper_now = self.upper[:, layout.column].astype(np.int32)[:, :, None]
        upper_after = upper_now + points * is_upper_slot[:, :, None]
        reached = (upper_after >= BONUS_THRESHOLD) & (upper_now < BONUS_THRESHOLD)
        gain = points + BONUS_POINTS * reached
        if options.kniffel_bonus:
            gain += kniffel_bonus
        if (layout.factor != 1).any():
            gain *= layout.factor[layout.column].astype(np.int32)[None, :, None]
        return Entries(row, legal, points, gain, kniffel_bonus, upper_after)

    def _apply_joker(
        self,
        extra: BoolArray,
        row: IntArray,
        points: Int32Array,
        legal: BoolArray,
        kniffel_bonus: Int32Array,
    ) -> None:
        """A further Kniffel: the joker and the bonus (RULES.md section 5), in place."""
        options = self.options
        games = np.flatnonzero(extra)
        rolls = _KNIFFEL_ROLLS
        sub_row = row[games]  # [G, K]
        is_open = sub_row >= 0
        face = KNIFFEL_FACE[rolls]  # [6]
        full = np.array([FIXED_SCORES.get(r, 0) for r in self.rows], dtype=np.int64)
        has_full = np.array([r in FIXED_SCORES for r in self.rows])
        safe = np.maximum(sub_row, 0)
        sub_points = points[games][:, :, rolls]  # [G, K, 6]
        sub_legal = legal[games][:, :, rolls]
        joker_points = np.where(has_full[safe][:, :, None], full[safe][:, :, None], sub_points)
        if options.joker is Joker.FREE:
            sub_points = joker_points
        elif options.joker is Joker.FORCED:
            matching = is_open[:, :, None] & (sub_row[:, :, None] == face[None, None, :] - 1)
            lower = is_open & (sub_row >= _N_UPPER)
            any_matching: BoolArray = np.asarray(matching.any(axis=1))  # [G, 6]
            any_lower: BoolArray = np.asarray(lower.any(axis=1))  # [G]
            to_lower = ~any_matching & any_lower[:, None]
            sub_legal = np.where(
                any_matching[:, None, :],
                matching,
                np.where(to_lower[:, None, :], lower[:, :, None], is_open[:, :, None]),
            )
            sub_points = np.where(to_lower[:, None, :], joker_points, sub_points)
        if options.kniffel_bonus > 0:
            armed: BoolArray = np.asarray(self.fifty[games].any(axis=1))
            paid = armed[:, None, None] & is_open[:, :, None]
            bonus = np.where(paid, options.kniffel_bonus, 0)
            kniffel_bonus[np.ix_(games, np.arange(row.shape[1]), rolls)] = bonus
        points[np.ix_(games, np.arange(row.shape[1]), rolls)] = sub_points
        legal[np.ix_(games, np.arange(row.shape[1]), rolls)] = sub_legal

    # ---------------------------------------------------------------- enter

    def enter(self, entries: Entries, slot: IntArray, roll: IntArray, where: BoolArray) -> None:
        """Make the entries ``entries[b, slot[b], roll[b]]`` for the sheets in ``where``."""
        games = np.flatnonzero(where)
        s, r = slot[games], roll[games]
        row = entries.row[games, s]
        column = self.layout.column[s]
        points = entries.points[games, s, r]
        self.filled[games, column] |= np.left_shift(1, row)
        is_upper = row < _N_UPPER
        self.upper[games, column] += np.where(is_upper, points, 0)
        self.lower[games, column] += np.where(is_upper, 0, points)
        paid = entries.kniffel_bonus[games, s, r]
        self.kniffel_bonus[games, column] += paid
        self.bonus_kniffels[games] += paid > 0
        kniffel_row = self.rows.index(Row.KNIFFEL)
        self.fifty[games, column] |= (row == kniffel_row) & (points == 50)


@cache
def _scores32(options: Options) -> npt.NDArray[np.int32]:
    return raw_scores(options).astype(np.int32)


def _bit_index(single_bits: IntArray) -> IntArray:
    """The index of the one set bit of each value (values are powers of two or 0)."""
    return np.log2(np.maximum(single_bits, 1)).astype(np.int64)


def _highest_bit(values: IntArray) -> IntArray:
    return np.left_shift(1, np.log2(np.maximum(values, 1)).astype(np.int64))
