"""The exact solver for one column: retrograde dynamic programming over sheet states.

The value of a state is the expected number of points still to come under
optimal play. A full sheet is worth 0; a state with ``n`` filled rows is
worth the three-roll turn (:mod:`kniffel.solver.exact.keep_lattice`) over the best
entry of each final roll (:mod:`kniffel.solver.exact.entries`) into states with
``n + 1`` filled rows. So the states are solved from the full sheet back to
the empty one, one level of filled rows at a time, in batches of states.

>>> from kniffel.rules import Discipline, get_variant
>>> options = get_variant("kniffel", {"chance": False}).options
>>> table = solve_column(options, Discipline.DOWN, use_cache=False)
>>> round(table.ev, 4)
106.8478
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options
from kniffel.solver.exact import cache, forking
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.exact.entries import entry_values, final_values
from kniffel.solver.exact.keep_lattice import TurnWorkspace, turn_values
from kniffel.solver.exact.sheet_space import SheetSpace, SheetState, StateBatch

__all__ = ["ColumnTable", "Progress", "load_table", "save_table", "solve_column"]

Array = npt.NDArray[np.float64]

#: ``progress(done, total)``: states solved so far out of all states.
Progress = Callable[[int, int], None]

#: States per numpy batch: big enough to drown the per-call overhead, small
#: enough that a batch's (252, S) arrays stay near the caches.
BATCH = 1024


@dataclass(frozen=True, eq=False)
class ColumnTable:
    """The solved values of every reachable state of one column.

    ``values[space.index(mask, upper, armed)]`` is the expected number of
    points still to come from the start of a turn; unreachable states are NaN.
    ``seconds`` is what getting the table took (building it, or loading it
    when ``cached``); ``build_seconds`` what building it took. Tables compare
    (and hash) by identity.
    """

    space: SheetSpace
    values: Array
    seconds: float
    build_seconds: float
    cached: bool = False

    @property
    def options(self) -> Options:
        return self.space.options

    @property
    def discipline(self) -> Discipline:
        return self.space.discipline

    @property
    def ev(self) -> float:
        """The expected final score of an empty sheet under optimal play."""
        return self.value(SheetState(0, 0, 0))

    def value(self, state: SheetState) -> float:
        """Expected points still to come from the start of a turn in ``state``."""
        return float(self.values[self._index(state)])

    def final(self, state: SheetState) -> Array:
        """``final[r]``: points still to come when the turn in ``state`` ends with roll ``r``.

        The vector that :mod:`kniffel.solver.exact.turn` takes.
        """
        return np.asarray(self.entries(state).max(axis=0))

    def entries(self, state: SheetState) -> Array:
        """``(rows, 252)``: points still to come when roll ``r`` is entered into row ``j``.

        ``-inf`` where the row may not take the roll.
        """
        self._index(state)
        return entry_values(self.space, self.values, state)

    def _index(self, state: SheetState) -> int:
        index = self.space.flat_index(state)
        if not 0 <= index < len(self.values) or np.isnan(self.values[index]):
            raise ValueError(f"the table has no value for {state}")
        return index


class _Workspace:
    """Scratch arrays for batches of ``width`` states, reused from batch to batch."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.final = np.empty((len(ROLLS), width))
        self.worth = np.empty((len(ROLLS), width))
        self.turn = TurnWorkspace(width)


def _padded(batch: StateBatch, width: int) -> StateBatch:
    """The batch filled up to ``width`` states by repeating its last state."""
    missing = width - len(batch)
    if missing == 0:
        return batch
    return StateBatch(*(np.concatenate([a, np.repeat(a[-1:], missing)]) for a in batch))


def build_values(space: SheetSpace, *, progress: Progress | None = None, workers: int = 1) -> Array:
    """Solve every reachable state of ``space``; the flat value array.

    ``workers`` processes share each level's batches: a state's value reads only the level
    below it (one more row filled), which is solved before. The values live in memory that
    the processes share, and the further workers are forked once per build (where the
    system cannot fork, the build runs in this process alone). The values are the same
    whatever the number of workers (each batch is solved alone and written to its own
    states).
    """
    full = space.states(space.n_rows)
    levels = [space.distinct(n) for n in range(space.n_rows)]
    total = len(full) + sum(len(b) + len(to) for b, to, _ in levels)
    workers = forking.workers_here(workers)
    values = forking.shared_array(space.size) if workers > 1 else np.empty(space.size)
    values.fill(np.nan)
    values[space.index(*full)] = 0.0
    done = len(full)
    if progress:
        progress(done, total)
    build = _Build(space, values, [b for b, _, _ in levels], workers)
    with forking.forked(build, workers) as pool:
        for filled in range(space.n_rows - 1, -1, -1):
            level, to, source = levels[filled]
            if pool is None:
                for start in range(0, len(level), BATCH):
                    done += build.solve(level.part(start, start + BATCH))
                    if progress:
                        progress(done, total)
            else:
                done += sum(forking.shares(pool, build, filled, workers))
            values[to] = values[source]
            done += len(to)
            if progress:
                progress(done, total)
    return values if workers == 1 else values.copy()


class _Build:
    """One build's states and values, and this process's scratch arrays."""

    def __init__(
        self, space: SheetSpace, values: Array, levels: list[StateBatch], workers: int
    ) -> None:
        self.space, self.values, self.levels, self.workers = space, values, levels, workers
        self.work = _Workspace(min(BATCH, max(len(b) for b in levels)))

    def solve(self, batch: StateBatch) -> int:
        padded = _padded(batch, self.work.width)
        final = final_values(self.space, self.values, padded, self.work.final, self.work.worth)
        self.values[self.space.index(*padded)] = turn_values(final, self.work.turn)
        return len(batch)

    def share(self, filled: int, share: int) -> int:
        """Every ``workers``-th batch of level ``filled`` from the ``share``-th on."""
        level = self.levels[filled]
        step = self.workers * BATCH
        return sum(
            self.solve(level.part(at, at + BATCH)) for at in range(share * BATCH, len(level), step)
        )


def solve_column(
    options: Options,
    discipline: Discipline = Discipline.FREE,
    *,
    progress: Progress | None = None,
    use_cache: bool = True,
    workers: int = 1,
) -> ColumnTable:
    """The solved one-column game under ``options``, from the cache when it is there; a build
    shares its work among ``workers`` processes (:func:`build_values`)."""
    space = SheetSpace(options, discipline)
    if use_cache:
        table = load_table(space)
        if table is not None:
            return table
    start = time.perf_counter()
    values = build_values(space, progress=progress, workers=workers)
    seconds = time.perf_counter() - start
    table = ColumnTable(space, values, seconds, seconds)
    if use_cache:
        save_table(table)
    return table


def load_table(space: SheetSpace) -> ColumnTable | None:
    """The cached table of ``space``, or ``None`` when there is no usable file."""
    start = time.perf_counter()
    stored = cache.read_arrays(
        cache.path_for(space), cache.column_key(space), ("values", "build_seconds")
    )
    if stored is None or stored["values"].shape != (space.size,):
        return None
    values, built = stored["values"], float(stored["build_seconds"])
    return ColumnTable(space, values, time.perf_counter() - start, built, cached=True)


def save_table(table: ColumnTable) -> Path | None:
    """Write ``table`` atomically to the cache; ``None`` when the cache dir cannot be written."""
    path = cache.path_for(table.space)
    arrays = {"values": table.values, "build_seconds": np.array(table.build_seconds)}
    return path if cache.write_arrays(path, cache.column_key(table.space), arrays) else None
