"""The exact chances of the upper bonus and of a Kniffel in one column, under optimal play.

The solved values (:mod:`kniffel.solver.exact.column`) say what to keep and where to
enter; following those choices, two probabilities are carried back through the same
recursion (docs/solver.md, "Exact chances"):

- ``bonus[s]``: the chance that the column's upper sum reaches 63 by the end, from the
  start of a turn in state ``s`` (1 once the capped upper sum is 63, 0 for a full
  sheet below it);
- ``kniffel[s]``: the chance that the still empty ``kniffel`` row gets its 50 (0 once
  the row is filled: whether it holds 50 then is read off the sheet, not the state).

A full sheet holds 0 (bonus: 1 where the capped upper sum is 63). A state with ``n``
filled rows: the best entry of each final roll carries the chance of the state it
leads to (plus 1 for a 50 in the ``kniffel`` row), a keep the mean over its outcomes,
each roll the chance of its best keep, exactly as the values' maxima pick them. Ties
in value go to the first candidate, as in the solver.

The table is built once per options and discipline, from the solved values, and kept
on disk beside them (``chances-….npz``, :mod:`kniffel.solver.exact.cache`'s directory).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options, Row, holds_fifty
from kniffel.solver.exact import cache
from kniffel.solver.exact.column import ColumnTable, solve_column
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.exact.entries import row_values
from kniffel.solver.exact.keep_lattice import (
    CHILDREN,
    CHILDREN_OF_ROLLS,
    P_FIRST_INNER,
    PARENTS,
    ROLL_ORDER,
    TurnWorkspace,
    expectations,
)
from kniffel.solver.exact.roll_scores import raw_scores
from kniffel.solver.exact.sheet_space import UPPER_CAP, SheetSpace, SheetState, StateBatch

__all__ = [
    "FORMAT",
    "ChanceTable",
    "build_chances",
    "chance_path",
    "column_chances",
    "entry_chances",
    "load_chances",
]

Array = npt.NDArray[np.float64]
_Index = npt.NDArray[np.intp]

#: Bumped whenever the meaning of the stored chances changes.
FORMAT = "kniffel-chances/1"
#: States per numpy batch (three arrays of this width travel through the keep lattice).
BATCH = 512

#: A choice must be worth this much more than the one before it to be taken (ties go
#: to the first, as the bots' argmax over values rounded to 1e-9 does).
_TIE = 1e-9

_FACE_COUNT: _Index = np.array([[d.counts[f] for d in ROLLS] for f in range(6)], dtype=np.intp)


@dataclass(frozen=True, eq=False)
class ChanceTable:
    """``bonus`` and ``kniffel`` per flat state index of ``table.space`` (NaN: unreachable)."""

    table: ColumnTable
    bonus: Array
    kniffel: Array
    seconds: float
    cached: bool = False

    @property
    def space(self) -> SheetSpace:
        return self.table.space

    def at(self, state: SheetState) -> tuple[float, float]:
        """``(bonus, kniffel)`` from the start of a turn in ``state``."""
        i = self.space.flat_index(state)
        if np.isnan(self.bonus[i]):
            raise ValueError(f"the chance table has no value for {state}")
        return float(self.bonus[i]), float(self.kniffel[i])


def entry_chances(space: SheetSpace, bonus: Array, kniffel: Array, batch: StateBatch) -> Array:
    """``(2, rows, 252, S)``: bonus and Kniffel chance after entering roll ``r`` into row ``j``.

    The state an entry leads to: the row filled, an upper row's dice added to the
    (capped) upper sum, a 50 in the ``kniffel`` row arming the extra-Kniffel bonus
    (and counting 1 for the Kniffel chance). Legal or not is the values' business.
    """
    mask, upper, armed = batch
    size = len(batch)
    raw = raw_scores(space.options)
    out = np.empty((2, space.n_rows, len(ROLLS), size))
    for j, row in enumerate(space.rows):
        after = mask | (1 << j)
        face = row.face
        if face is not None:
            ahead = np.stack(
                [
                    space.index(after, np.minimum(UPPER_CAP, upper + n * face), armed)
                    for n in range(6)
                ]
            )  # (6, S)
            index = ahead[_FACE_COUNT[face - 1]]  # (252, S)
            out[0, j] = bonus[index]
            out[1, j] = kniffel[index]
            continue
        plain = space.index(after, upper, armed)
        out[0, j] = bonus[plain][None, :]
        out[1, j] = kniffel[plain][None, :]
        if row is Row.KNIFFEL:
            fifty = np.flatnonzero(holds_fifty(True, raw[j]))
            armed_index = space.index(after, upper, armed + space.armed_values - 1)
            out[0, j, fifty] = bonus[armed_index][None, :]
            out[1, j, fifty] = 1.0 + kniffel[armed_index][None, :]
    return out


def _final(
    space: SheetSpace, values: Array, bonus: Array, kniffel: Array, batch: StateBatch
) -> Array:
    """``(252, 3S)``: per final roll the best entry's value, then its two chances."""
    size = len(batch)
    chances = entry_chances(space, bonus, kniffel, batch)
    best = np.full((len(ROLLS), size), -np.inf)
    carried = np.zeros((2, len(ROLLS), size))
    for j, worth in enumerate(row_values(space, values, batch)):
        better = worth > best + _TIE
        np.copyto(best, worth, where=better)
        np.copyto(carried, chances[:, j], where=better[None])
    return np.concatenate([best, carried[0], carried[1]], axis=1)


def _best_keeps(
    levels: list[Array], rolls_in_order: bool, work: TurnWorkspace, out: Array, size: int
) -> None:
    """As :func:`kniffel.solver.exact.keep_lattice._best_keeps`, carrying the chances.

    Columns ``[:size]`` are values, ``[size:2size]`` and ``[2size:]`` the two chances:
    where a sub-keep is worth more, its chances replace the keep's.
    """
    best = levels[0]
    for n_dice in range(1, 6):
        current = out if n_dice == 5 else work.best[n_dice]
        if n_dice == 5 and rolls_in_order:
            np.take(levels[5], ROLL_ORDER, axis=0, out=current, mode="clip")
        else:
            np.copyto(current, levels[n_dice])
        for parents, n in PARENTS[n_dice]:
            gathered = work.gathered[:n]
            np.take(best, parents, axis=0, out=gathered, mode="clip")
            better = gathered[:, :size] > current[:n, :size] + _TIE
            np.copyto(
                current[:n].reshape(n, 3, size),
                gathered.reshape(n, 3, size),
                where=better[:, None, :],
            )
        best = current


def _turn(final: Array, work: TurnWorkspace, size: int) -> Array:
    """``(3S,)``: value, bonus and Kniffel chance at the start of the turn."""
    _best_keeps(expectations(final, CHILDREN_OF_ROLLS, work), True, work, work.after_two, size)
    levels = expectations(work.after_two, CHILDREN[4], work)
    _best_keeps(levels, False, work, final, size)
    return np.asarray(P_FIRST_INNER @ final)


def _padded(batch: StateBatch, width: int) -> StateBatch:
    missing = width - len(batch)
    if missing == 0:
        return batch
    return StateBatch(*(np.concatenate([a, np.repeat(a[-1:], missing)]) for a in batch))


def build_chances(
    table: ColumnTable, *, progress: Callable[[int, int], None] | None = None
) -> tuple[Array, Array]:
    """Both chance arrays of every reachable state of ``table``'s space."""
    space = table.space
    values = table.values
    bonus = np.full(space.size, np.nan)
    kniffel = np.full(space.size, np.nan)
    levels = [space.states(n) for n in range(space.n_rows + 1)]
    total = sum(len(b) for b in levels)
    full = levels[space.n_rows]
    index = space.index(*full)
    bonus[index] = (full.upper >= UPPER_CAP).astype(float)
    kniffel[index] = 0.0
    done = len(full)
    work = TurnWorkspace(3 * BATCH)
    for filled in range(space.n_rows - 1, -1, -1):
        level = levels[filled]
        for start in range(0, len(level), BATCH):
            part = level.part(start, start + BATCH)
            padded = _padded(part, BATCH)
            final = _final(space, values, bonus, kniffel, padded)
            result = _turn(final, work, BATCH)
            at = space.index(*padded)
            bonus[at] = result[BATCH : 2 * BATCH]
            kniffel[at] = result[2 * BATCH :]
            done += len(part)
            if progress:
                progress(done, total)
    return bonus, kniffel


# ------------------------------------------------------------------------ disk


def _key(space: SheetSpace) -> dict[str, object]:
    return {"format": FORMAT, "discipline": space.discipline.value, **space.options.as_dict()}


def chance_path(space: SheetSpace) -> Path:
    """The file of ``space``'s chances: the value table's name with ``chances-`` before it
    (:func:`kniffel.solver.builds` names it so too)."""
    path = cache.column_path(space.options, space.discipline)
    return path.with_name("chances-" + path.name)


def load_chances(table: ColumnTable) -> ChanceTable | None:
    """The stored chances of ``table``'s space, or ``None`` when there is no usable file."""
    space = table.space
    start = time.perf_counter()
    stored = cache.read_arrays(chance_path(space), _key(space), ("bonus", "kniffel"))
    if stored is None or any(a.shape != (space.size,) for a in stored.values()):
        return None
    bonus, kniffel = stored["bonus"], stored["kniffel"]
    return ChanceTable(table, bonus, kniffel, time.perf_counter() - start, cached=True)


def _save(chances: ChanceTable) -> None:
    arrays = {"bonus": chances.bonus, "kniffel": chances.kniffel}
    cache.write_arrays(chance_path(chances.space), _key(chances.space), arrays)


def column_chances(
    options: Options,
    discipline: Discipline = Discipline.FREE,
    *,
    progress: Callable[[int, int], None] | None = None,
    use_cache: bool = True,
) -> ChanceTable:
    """The chance table under ``options`` (built from the solved values when not on disk)."""
    table = solve_column(options, discipline, use_cache=use_cache)
    if use_cache:
        stored = load_chances(table)
        if stored is not None:
            return stored
    start = time.perf_counter()
    bonus, kniffel = build_chances(table, progress=progress)
    chances = ChanceTable(table, bonus, kniffel, time.perf_counter() - start)
    if use_cache:
        _save(chances)
    return chances
