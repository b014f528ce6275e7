"""Exact distributions of the points still to come when few entries are left.

For a sheet at the start of a turn, :class:`LateFinals` gives the exact
probability of every number of points the player still scores when they play
on like the best bot (its choices come from the bot itself:
:meth:`~kniffel.solver.play.bots.ValueBot.worth`, the keep with the best
worth after each roll, the entry with the best worth of the final roll). It
is the solver's recursion with a distribution carried in place of a value:

- after the turn's keeps the final roll ``r`` has a probability ``q[r]``: the
  first roll's probabilities carried through the keep the bot takes after each
  roll (a keep of all five dice stops the turn);
- the bot enters ``r`` where it is worth most, gaining ``g`` points and leaving
  the sheet ``s'``, so ``D(s) = sum_r q[r] * (D(s') moved up by g)``;
- a full sheet scores nothing more: ``D = [1]``.

Only what decides the future is kept of a sheet (its *key*): per column the
filled rows, the upper sum up to the bonus threshold and whether the Kniffel
cell holds 50. Each key is solved once and cached, so a late position costs
the few sheets reachable from it (docs/solver.md, "Playing for the win").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.rules import UPPER_BONUS_THRESHOLD, Row, Variant, holds_fifty
from kniffel.solver.exact.dice_tables import P_FIRST, P_KEEP, ROLL_KEEPS
from kniffel.solver.play.bots import KEEP_SIZE, ValueBot, best_index, keep_worth_per_roll
from kniffel.solver.play.sheets import Entries, SheetBatch

__all__ = ["FIFTY_SHIFT", "ROLL_RANGE", "UPPER_SHIFT", "LateFinals", "final_roll_chances"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_FIELD = 20  # bits per column in a key: 13 filled bits, 6 of the upper sum, 1 for a 50
UPPER_SHIFT = 13
FIFTY_SHIFT = 19
_MASK = (1 << _FIELD) - 1
ROLL_RANGE = np.arange(len(P_FIRST))
_N_KEEPS = P_KEEP.shape[0]


def _chosen_keeps(keep_worth: Array) -> IntArray:
    """``[S, 252]``: the keep with the best worth after each roll (the bot's own rule)."""
    best = best_index(keep_worth[:, ROLL_KEEPS])  # [S, 252] over the 32 candidates
    return np.asarray(ROLL_KEEPS[ROLL_RANGE[None, :], best], dtype=np.int64)


def _carry(mass: Array, keep: IntArray) -> Array:
    """Roll again from ``mass[s, r]`` with the keep ``keep[s, r]``; a five-dice keep stays."""
    size = mass.shape[0]
    stays = KEEP_SIZE[keep] == 5
    moving = np.where(stays, 0.0, mass)
    index = (np.arange(size)[:, None] * _N_KEEPS + keep).ravel()
    by_keep = np.bincount(index, moving.ravel(), minlength=size * _N_KEEPS)
    return np.where(stays, mass, 0.0) + by_keep.reshape(size, _N_KEEPS) @ P_KEEP


def final_roll_chances(worth: Array) -> Array:
    """``[S, 252]``: the chance that the turn ends with each roll, when the keeps maximise
    the expectation of ``worth.max(axis=1)`` as the bots do (``worth``: ``[S, K, 252]``)."""
    two_left, one_left = keep_worth_per_roll(worth.max(axis=1))
    after_first = np.broadcast_to(P_FIRST, (worth.shape[0], len(P_FIRST)))
    after_second = _carry(np.asarray(after_first), _chosen_keeps(two_left))
    return _carry(after_second, _chosen_keeps(one_left))


class LateFinals:
    """Exact distributions of the points still to come under the best bot, cached by key."""

    def __init__(self, variant: Variant, bot: ValueBot, limit: int = 200_000) -> None:
        if len(variant.columns) > 3:
            raise ValueError("a key holds at most three columns")
        self.variant = variant
        self.bot = bot
        self.cache: dict[int, Array] = {}
        self.limit = limit  # keys kept at most: beyond, the cache starts afresh
        self.kniffel_row = SheetBatch(variant, 0).rows.index(Row.KNIFFEL)

    # ------------------------------------------------------------------ keys

    def keys(self, sheets: SheetBatch) -> IntArray:
        """Each sheet's key."""
        return self.keys_of(self.variant, sheets)

    @classmethod
    def keys_of(cls, variant: Variant, sheets: SheetBatch) -> IntArray:
        """Each sheet's key in ``variant`` (up to three columns)."""
        key = np.zeros(sheets.size, dtype=np.int64)
        for c in range(len(variant.columns)):
            key |= cls._field(sheets.filled[:, c], sheets.upper[:, c], sheets.fifty[:, c]) << (
                _FIELD * c
            )
        return key

    @staticmethod
    def _field(filled: IntArray, upper: IntArray, fifty: npt.NDArray[np.bool_]) -> IntArray:
        capped = np.minimum(upper, UPPER_BONUS_THRESHOLD).astype(np.int64)
        return np.asarray(
            filled.astype(np.int64)
            | (capped << UPPER_SHIFT)
            | (fifty.astype(np.int64) << FIFTY_SHIFT),
            dtype=np.int64,
        )

    def sheets(self, keys: IntArray) -> SheetBatch:
        """Sheets with these keys (totals left at 0: only what follows is meant)."""
        sheets = SheetBatch(self.variant, len(keys))
        for c in range(len(self.variant.columns)):
            field = (keys >> (_FIELD * c)) & _MASK
            sheets.filled[:, c] = field & ((1 << UPPER_SHIFT) - 1)
            sheets.upper[:, c] = (field >> UPPER_SHIFT) & 63
            sheets.fifty[:, c] = ((field >> FIFTY_SHIFT) & 1).astype(np.bool_)
        return sheets

    def child_keys(self, sheets: SheetBatch, entries: Entries) -> IntArray:
        """``[S, K, 252]``: the key after entering roll ``r`` in slot ``k`` (junk where illegal)."""
        column = sheets.layout.column  # [K]
        row = np.maximum(entries.row, 0)[:, :, None]  # [S, K, 1]
        filled = sheets.filled[:, column][:, :, None] | np.left_shift(1, row)
        fifty = sheets.fifty[:, column][:, :, None] | holds_fifty(
            row == self.kniffel_row, entries.points
        )
        field = self._field(filled, entries.upper_after.astype(np.int64), fifty)
        base = self.keys(sheets)
        shift = (_FIELD * column)[None, :, None]
        old = (base[:, None, None] >> shift) & _MASK
        return np.asarray(base[:, None, None] + ((field - old) << shift), dtype=np.int64)

    # ------------------------------------------------------------ solving

    def of(self, keys: IntArray) -> list[Array]:
        """The distribution of the points still to come from each key (solved if need be)."""
        if len(self.cache) > self.limit:
            self.cache.clear()
        self.solve(keys)
        return [self.cache[int(k)] for k in keys.tolist()]

    def solve(self, keys: IntArray) -> None:
        """Solve every key not yet cached, and what they need, level by level."""
        todo = np.array(sorted({int(k) for k in keys.tolist()} - self.cache.keys()), np.int64)
        if not len(todo):
            return
        sheets = self.sheets(todo)
        cells = len(self.variant.columns) * len(sheets.rows)
        full = sheets.filled_count() == cells
        for k in todo[full].tolist():
            self.cache[int(k)] = np.ones(1)
        if full.all():
            return
        todo = todo[~full]
        sheets = self.sheets(todo)
        entries, worth = self.bot.worth(sheets)
        q = final_roll_chances(worth)  # [S, 252]
        slot = best_index(np.swapaxes(worth, 1, 2))  # [S, 252]: the entry of each final roll
        at = (np.arange(len(todo))[:, None], slot, ROLL_RANGE[None, :])
        gain = entries.gain[at].astype(np.int64)
        child = self.child_keys(sheets, entries)[at]
        self.solve(np.unique(child))
        self._assemble(todo, q, child, gain)

    def _assemble(self, todo: IntArray, q: Array, child: IntArray, gain: IntArray) -> None:
        """``D(s) = sum_r q[s, r] * (D(child[s, r]) moved up by gain[s, r])``."""
        children, which = np.unique(child, return_inverse=True)
        which = which.reshape(child.shape)
        dists = [self.cache[int(k)] for k in children.tolist()]
        width = max(len(d) for d in dists)
        table = np.zeros((len(children), width))
        for i, d in enumerate(dists):
            table[i, : len(d)] = d
        size, top = len(todo), int(gain.max()) + 1
        code = (np.arange(size)[:, None] * len(children) + which) * top + gain
        triples, inverse = np.unique(code, return_inverse=True)
        weight = np.bincount(inverse.ravel(), q.ravel(), minlength=len(triples))
        state, rest = np.divmod(triples, len(children) * top)
        kid, moved = np.divmod(rest, top)
        result = np.zeros((size, width + top))
        span = np.arange(width)
        for g in np.unique(moved).tolist():
            pick = moved == g
            np.add.at(
                result,
                (state[pick][:, None], g + span[None, :]),
                weight[pick][:, None] * table[kid[pick]],
            )
        for s, k in enumerate(todo.tolist()):
            d = result[s]
            self.cache[int(k)] = d[: int(np.flatnonzero(d > 0).max()) + 1].copy()
