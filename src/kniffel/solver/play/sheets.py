"""Many solitaire sheets of one variant as arrays, for bots and fast simulation.

A :class:`SheetBatch` holds what the rules engine's :class:`~kniffel.rules.Game`
holds for one player, for ``B`` sheets at once: which cells are filled, the
upper and lower sums and the extra-Kniffel bonuses per column. Its
:meth:`~SheetBatch.entries` states every legal entry of every roll with what it
scores, by the same rules as ``Game.entry_options`` (joker, bonus and
``zero_only_upper`` included): it looks them up in the tables of
:mod:`kniffel.rules.scoring` (``due_table``, ``joker_table``, ``zero_table``)
and sums with its functions, and the tests replay simulated games through the
engine to keep the two in step.

The entries of a turn are laid out as *slots*: one per arrow column (its due
cell) and one per row of each free column.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    UPPER_BONUS_THRESHOLD,
    Discipline,
    Game,
    Options,
    Row,
    Variant,
    column_total,
    entry_gain,
    extra_kniffel_bonus,
    holds_fifty,
    joker_index,
    rows_for,
)
from kniffel.solver.exact.roll_scores import (
    IS_KNIFFEL,
    KNIFFEL_FACE,
    due_array,
    joker_arrays,
    joker_matters,
    raw_scores,
    row_faces,
    zero_array,
)
from kniffel.solver.per_variant import per_variant

__all__ = ["Entries", "SheetBatch", "SlotLayout"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Int32Array = npt.NDArray[np.int32]

_KNIFFEL_ROLLS = np.flatnonzero(IS_KNIFFEL)  # the six Kniffel rolls


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
        self._is_upper = np.array([row.is_upper for row in self.rows])

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
                if holds_fifty(row is Row.KNIFFEL, value):
                    sheets.fifty[0, c] = True
                sheets.kniffel_bonus[0, c] += game.cell_bonus(player, cell)
        return sheets

    # ------------------------------------------------------------ the sheet

    def filled_count(self) -> IntArray:
        return np.asarray(np.bitwise_count(self.filled).sum(axis=1), dtype=np.int64)

    def column_totals(self) -> IntArray:
        """``[B, C]``: each column's total, factor and bonuses included."""
        return column_total(self.upper, self.lower, self.kniffel_bonus, self.layout.factor)

    def totals(self) -> IntArray:
        return np.asarray(self.column_totals().sum(axis=1), dtype=np.int64)

    def due_rows(self) -> IntArray:
        """``[B, C]``: each arrow column's due row; -1 when full or for a free column."""
        due = np.full(self.filled.shape, -1, dtype=np.int64)
        for c, spec in enumerate(self.variant.columns):
            if spec.discipline is not Discipline.FREE:
                due[:, c] = due_array(spec.discipline, len(self.rows))[self.filled[:, c]]
        return due

    def slot_rows(self) -> IntArray:
        """``[B, K]``: the row each slot would fill now, -1 where it is closed."""
        layout = self.layout
        due = self.due_rows()[:, layout.column]
        free = layout.free_row[None, :]
        filled = (self.filled[:, layout.column] >> np.maximum(free, 0)) & 1
        free_rows = np.where(filled == 1, -1, free)
        return np.where(free >= 0, free_rows, due)

    def distinct(self) -> tuple[SheetBatch, IntArray]:
        """The distinct sheets of the batch as far as a turn's entries and their values can
        tell them apart (filled rows, upper sums capped at 63, which Kniffel cells hold 50),
        and for each sheet the index of its own among them. Above 63 an upper sum changes
        nothing: the bonus is paid, and every table reads the sum capped."""
        capped = np.minimum(self.upper, UPPER_BONUS_THRESHOLD)
        fields = np.concatenate([self.filled, capped, self.fifty.astype(np.int64)], axis=1)
        if self.size <= 1:
            return self, np.zeros(self.size, dtype=np.int64)
        _, first, of = np.unique(fields, axis=0, return_index=True, return_inverse=True)
        if len(first) == self.size:
            return self, np.arange(self.size, dtype=np.int64)
        return self.take(first), np.asarray(of, dtype=np.int64).reshape(-1)

    def take(self, index: IntArray) -> SheetBatch:
        """A new batch of copies of the sheets at ``index``."""
        taken = SheetBatch(self.variant, len(index))
        for name in ("filled", "upper", "lower", "kniffel_bonus", "bonus_kniffels", "fifty"):
            setattr(taken, name, getattr(self, name)[index].copy())
        return taken

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
        if extra.any() and joker_matters(options, self.rows):
            self._apply_joker(extra, row, points, legal, kniffel_bonus)
        safe_row = np.maximum(row, 0)
        is_upper_slot = is_open & self._is_upper[safe_row]
        zero = zero_array(options)
        if zero.any():
            upper_open = np.asarray(is_upper_slot.any(axis=1), dtype=np.intp)
            refused = (points == 0) & zero[safe_row, upper_open[:, None]][:, :, None]
            legal &= ~refused
        upper_now = self.upper[:, layout.column].astype(np.int32)[:, :, None]
        upper_points = points * is_upper_slot[:, :, None]
        upper_after = upper_now + upper_points
        bonus = kniffel_bonus if extra_kniffel_bonus(options, True) else 0
        factor = layout.factor[layout.column].astype(np.int32)[None, :, None]
        gain = entry_gain(
            upper_now, upper_after, points, bonus, factor if (factor != 1).any() else 1
        )
        return Entries(row, legal, points, gain, kniffel_bonus, upper_after)

    def _apply_joker(
        self,
        extra: BoolArray,
        row: IntArray,
        points: Int32Array,
        legal: BoolArray,
        kniffel_bonus: Int32Array,
    ) -> None:
        """A further Kniffel: the joker and the bonus (docs/rules.md §5), in place.

        Each slot's ruling is looked up in ``kniffel.rules.joker_table`` by its row,
        the Kniffel's face, and whether the matching upper row and the lower block
        have an open slot.
        """
        options = self.options
        games = np.flatnonzero(extra)
        rolls = _KNIFFEL_ROLLS
        sub_row = row[games]  # [G, K]
        is_open = sub_row >= 0
        face = KNIFFEL_FACE[rolls]  # [6]
        safe = np.maximum(sub_row, 0)
        sub_points = points[games][:, :, rolls]  # [G, K, 6]
        row_face = row_faces(self.rows)[safe]  # [G, K]: 0 for a lower row
        matching = is_open[:, :, None] & (row_face[:, :, None] == face[None, None, :])
        matching_open = np.asarray(matching.any(axis=1), dtype=np.intp)  # [G, 6]
        lower_open = np.asarray((is_open & ~self._is_upper[safe]).any(axis=1), dtype=np.intp)
        permitted, full, full_points = joker_arrays(options.joker, self.rows)
        at = joker_index(
            safe[:, :, None],
            face[None, None, :],
            matching_open[:, None, :],
            lower_open[:, None, None],
        )  # [G, K, 6]
        sub_legal = is_open[:, :, None] & permitted[at]
        sub_points = np.where(full[at], full_points[at], sub_points).astype(np.int32)
        if extra_kniffel_bonus(options, True):
            armed: BoolArray = np.asarray(self.fifty[games].any(axis=1))
            paid = np.where(
                armed, extra_kniffel_bonus(options, True), extra_kniffel_bonus(options, False)
            )
            bonus = np.where(is_open[:, :, None], paid[:, None, None], 0)
            kniffel_bonus[np.ix_(games, np.arange(row.shape[1]), rolls)] = bonus
        points[np.ix_(games, np.arange(row.shape[1]), rolls)] = sub_points
        legal[np.ix_(games, np.arange(row.shape[1]), rolls)] = sub_legal

    # ---------------------------------------------------------------- enter

    def enter(
        self,
        entries: Entries,
        slot: IntArray,
        roll: IntArray,
        where: BoolArray,
        of: IntArray | None = None,
    ) -> None:
        """Make the entries ``entries[b, slot[b], roll[b]]`` for the sheets in ``where``
        (``entries[of[b], …]`` where the entries are those of :meth:`distinct` sheets)."""
        games = np.flatnonzero(where)
        at = games if of is None else of[games]
        s, r = slot[games], roll[games]
        row = entries.row[at, s]
        column = self.layout.column[s]
        points = entries.points[at, s, r]
        self.filled[games, column] |= np.left_shift(1, row)
        is_upper = self._is_upper[row]
        self.upper[games, column] += np.where(is_upper, points, 0)
        self.lower[games, column] += np.where(is_upper, 0, points)
        paid = entries.kniffel_bonus[at, s, r]
        self.kniffel_bonus[games, column] += paid
        self.bonus_kniffels[games] += paid > 0
        kniffel_row = self.rows.index(Row.KNIFFEL)
        self.fifty[games, column] |= holds_fifty(row == kniffel_row, points)


@per_variant
def _scores32(options: Options) -> npt.NDArray[np.int32]:
    return raw_scores(options).astype(np.int32)
