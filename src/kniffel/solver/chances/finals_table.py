"""Exact distributions of the points still to come from every sheet of one column.

:class:`~kniffel.solver.chances.finals.LateFinals` solves the sheets reachable from one
position, which is cheap late in a game and minutes from its start. This table solves
every state of the column once, level by level from the full sheet back to the empty one,
with the same recursion and the same bot (the exact solver's choices):
``D(s) = sum_r q[s, r] * (D(s') moved up by g)`` (docs/solver.md, "Win chances").

- The states are the solver's own (:class:`~kniffel.solver.exact.sheet_space.SheetSpace`:
  the filled rows, the capped upper sum, whether a 50 arms the extra-Kniffel bonus where one
  is paid), so a game's sheet is looked up by the solver's flat index.
- A level's final-roll chances come from the bot in batches; the distributions of the level
  are assembled at once from the next level's (a weighted sum of shifted copies, one
  ``bincount``), computed in float64 and stored in float32: every probability to 7
  significant digits, a chance read from them within 1e-6 of the float64 one
  (tests/solver/chances/test_finals_table.py).
- On disk beside the solver's tables: ``finals-column-….npz`` (the key and where each
  state's distribution starts) and ``finals-column-….values.npy`` (every distribution one
  after the other, read memory-mapped, so processes share it). These files stay outside the
  cache's size bound (``cache_max_bytes``): the board builds only the ``kniffel`` preset's
  standard options' (:func:`kniffel.solver.builds.finals_tables`, 263 MB); an operator
  builds any other one-column variant's with ``kniffel solve --finals`` (:func:`finals_for`;
  ``yahtzee``'s takes 1.16 GB, its extra Yahtzees spreading every distribution over some
  1,500 points), and the board and ``kniffel chances`` read it from then on (docs/solver.md).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.rules import Discipline, Options, Variant
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.finals import (
    FIFTY_SHIFT,
    ROLL_RANGE,
    UPPER_SHIFT,
    LateFinals,
    final_roll_chances,
)
from kniffel.solver.exact import cache
from kniffel.solver.exact.sheet_space import SheetSpace, SheetState, StateBatch
from kniffel.solver.play.bots import ValueBot, best_index

__all__ = [
    "FORMAT",
    "FinalsTable",
    "TableFinals",
    "build_finals",
    "finals_for",
    "finals_path",
    "load_finals",
    "stored_finals",
]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: Bumped whenever the meaning of the stored distributions changes.
FORMAT = "kniffel-finals/1"
#: States per batch through the bot (its ``[S, K, 252]`` arrays).
BATCH = 512


@dataclass(frozen=True, eq=False)
class FinalsTable:
    """``values[starts[i]:starts[i + 1]]``: the distribution of the points still to come from
    the state with flat index ``i`` (empty where the state cannot be reached)."""

    space: SheetSpace
    starts: Ints
    values: npt.NDArray[np.float32]
    seconds: float
    cached: bool = False

    def at(self, state: SheetState) -> Array:
        """``d[k]``: the chance of ``k`` more points from the start of a turn in ``state``."""
        found = self.of_index(self.space.flat_index(state))
        if not len(found):
            raise ValueError(f"the finals table has no distribution for {state}")
        return found

    def of_index(self, i: int) -> Array:
        """The distribution of the state with flat index ``i`` (empty: unreachable)."""
        return np.asarray(self.values[self.starts[i] : self.starts[i + 1]], dtype=np.float64)


def _keys(states: StateBatch) -> Ints:
    """LateFinals' keys of ``states`` (its 50 bit is the state's ``armed``)."""
    mask, upper, armed = states
    return np.asarray(mask | (upper << UPPER_SHIFT) | (armed << FIFTY_SHIFT), dtype=np.int64)


def _flat(space: SheetSpace, keys: Ints) -> Ints:
    """The flat indices of LateFinals' keys (a 50 counts only where it arms a bonus)."""
    mask = keys & ((1 << UPPER_SHIFT) - 1)
    upper = (keys >> UPPER_SHIFT) & ((1 << (FIFTY_SHIFT - UPPER_SHIFT)) - 1)
    fifty = (keys >> FIFTY_SHIFT) & 1
    armed = fifty if space.armed_values == 2 else np.zeros_like(fifty)
    return space.index(mask, upper, armed)


def _assemble(q: Array, child: Ints, gain: Ints, starts: Ints, values: Array) -> list[Array]:
    """``D(s) = sum_r q[s, r] * (D(child[s, r]) moved up by gain[s, r])``; the children's
    distributions are ``values[starts[c]:starts[c + 1]]`` (``child``: positions in them)."""
    size = q.shape[0]
    top = int(gain.max()) + 1
    code = (np.arange(size)[:, None] * (len(starts) - 1) + child) * top + gain
    pairs, inverse = np.unique(code, return_inverse=True)
    weight = np.bincount(inverse.ravel(), q.ravel(), minlength=len(pairs))
    state, rest = np.divmod(pairs, (len(starts) - 1) * top)
    kid, moved = np.divmod(rest, top)
    lengths = starts[kid + 1] - starts[kid]
    width = int((moved + lengths).max())
    offsets = np.cumsum(lengths) - lengths
    within = np.arange(int(lengths.sum())) - np.repeat(offsets, lengths)
    target = np.repeat(state * width + moved, lengths) + within
    mass = np.repeat(weight, lengths) * values[np.repeat(starts[kid], lengths) + within]
    summed = np.bincount(target, mass, minlength=size * width)
    table = np.asarray(summed, dtype=np.float64).reshape(size, width)
    last = width - np.argmax(table[:, ::-1] > 0, axis=1)
    return [table[s, : last[s]] for s in range(size)]


def build_finals(
    variant: Variant, *, progress: Callable[[int, int], None] | None = None
) -> FinalsTable:
    """Every state's distribution in the one-column ``variant`` (the solved tables must be
    at hand: the bot reads them)."""
    if len(variant.columns) != 1:
        raise ValueError("the finals table is for one-column variants")
    start = time.perf_counter()
    space = SheetSpace(variant.options, variant.columns[0].discipline)
    bot = best_bot(variant)
    late = LateFinals(variant, bot)
    levels = [space.states(n) for n in range(space.n_rows + 1)]
    total, done = sum(len(level) for level in levels), 0
    found: dict[int, npt.NDArray[np.float32]] = {}
    # The level below: its flat indices (sorted), where each distribution starts, the values.
    full = np.sort(space.index(*levels[space.n_rows]))
    below = (full, np.arange(len(full) + 1, dtype=np.int64), np.ones(len(full)))
    for i in full.tolist():
        found[i] = np.ones(1, dtype=np.float32)
    done += len(full)
    for filled in range(space.n_rows - 1, -1, -1):
        level = levels[filled]
        order = np.argsort(space.index(*level))
        level = StateBatch(*(a[order] for a in level))
        flat = space.index(*level)
        dists: list[Array] = []
        for at in range(0, len(level), BATCH):
            part = level.part(at, at + BATCH)
            sheets = late.sheets(_keys(part))
            entries, worth = bot.worth(sheets)
            q = final_roll_chances(worth)
            slot = best_index(np.swapaxes(worth, 1, 2))  # the bot's entry of each final roll
            pick = (np.arange(len(part))[:, None], slot, ROLL_RANGE[None, :])
            gain = entries.gain[pick].astype(np.int64)
            child = _flat(space, late.child_keys(sheets, entries)[pick])
            position = np.searchsorted(below[0], child)
            if not np.array_equal(below[0][np.minimum(position, len(below[0]) - 1)], child):
                raise AssertionError("an entry leads to a state the sheet space does not know")
            dists.extend(_assemble(q, position, gain, below[1], below[2]))
            done += len(part)
            if progress is not None:
                progress(done, total)
        lengths = np.array([len(d) for d in dists], dtype=np.int64)
        starts = np.zeros(len(dists) + 1, dtype=np.int64)
        starts[1:] = np.cumsum(lengths)
        below = (flat, starts, np.concatenate(dists))
        for i, d in zip(flat.tolist(), dists, strict=True):
            found[i] = d.astype(np.float32)
    return _table(space, found, time.perf_counter() - start)


def _table(
    space: SheetSpace, found: dict[int, npt.NDArray[np.float32]], seconds: float
) -> FinalsTable:
    lengths = np.zeros(space.size, dtype=np.int64)
    index = np.fromiter(found.keys(), dtype=np.int64, count=len(found))
    lengths[index] = [len(d) for d in found.values()]
    starts = np.zeros(space.size + 1, dtype=np.int64)
    starts[1:] = np.cumsum(lengths)
    values = np.empty(int(starts[-1]), dtype=np.float32)
    for i, d in found.items():
        values[starts[i] : starts[i] + len(d)] = d
    return FinalsTable(space, starts, values, seconds)


class TableFinals(LateFinals):
    """:class:`LateFinals` that looks every key up in a finals table and solves nothing:
    what reads late distributions (the ``win`` bot, the "Auf Sieg" Tipp) reads them for
    every position of the game."""

    def __init__(self, variant: Variant, bot: ValueBot, table: FinalsTable) -> None:
        super().__init__(variant, bot)
        self.table = table

    def of(self, keys: Ints) -> list[Array]:
        return [self.table.of_index(i) for i in _flat(self.table.space, keys).tolist()]

    def solve(self, keys: Ints) -> None:
        return None


# ------------------------------------------------------------------------------- disk


def finals_path(options: Options, discipline: Discipline) -> Path:
    """The key file of a finals table: the column table's name with ``finals-`` before it."""
    path = cache.column_path(options, discipline)
    return path.with_name("finals-" + path.name)


def _values_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".npz") + ".values.npy")


def _key(space: SheetSpace) -> dict[str, object]:
    return {"format": FORMAT, "discipline": space.discipline.value, **space.options.as_dict()}


def save_finals(table: FinalsTable) -> Path | None:
    """Writes the values, then the key file that names them (each atomically): a reader
    finds both whole or no table. ``None`` when the cache dir cannot be written."""
    path = finals_path(table.space.options, table.space.discipline)
    partial: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as out:
            partial = out.name
            np.save(out, table.values)
        os.replace(partial, _values_path(path))
    except OSError:
        if partial is not None:
            Path(partial).unlink(missing_ok=True)
        return None
    arrays = {"starts": table.starts, "seconds": np.array(table.seconds)}
    return path if cache.write_arrays(path, _key(table.space), arrays) else None


def load_finals(options: Options, discipline: Discipline) -> FinalsTable | None:
    """The stored finals table, its values memory-mapped; ``None`` when there is none whole."""
    space = SheetSpace(options, discipline)
    path = finals_path(options, discipline)
    start = time.perf_counter()
    stored = cache.read_arrays(path, _key(space), ("starts", "seconds"))
    if stored is None or stored["starts"].shape != (space.size + 1,):
        return None
    starts = stored["starts"].astype(np.int64)
    try:
        values = np.load(_values_path(path), mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    if values.dtype != np.float32 or values.shape != (int(starts[-1]),):
        return None
    return FinalsTable(space, starts, values, time.perf_counter() - start, cached=True)


_LOADED: dict[tuple[Options, Discipline, Path], FinalsTable] = {}
_LOCK = threading.Lock()


def stored_finals(variant: Variant) -> FinalsTable | None:
    """The finals table of the one-column ``variant`` when one is on disk (kept once found;
    a table built later is found on the next call)."""
    if len(variant.columns) != 1:
        return None
    discipline = variant.columns[0].discipline
    where = (variant.options, discipline, cache.cache_dir())
    with _LOCK:
        table = _LOADED.get(where)
        if table is None:
            table = load_finals(variant.options, discipline)
            if table is not None:
                _LOADED[where] = table
        return table


def is_stored(options: Options, discipline: Discipline) -> bool:
    """Whether a whole finals table of ``options`` is on disk (its key file is read)."""
    path = finals_path(options, discipline)
    return (
        cache.stored_key(path) == _key(SheetSpace(options, discipline))
        and _values_path(path).exists()
    )


def finals_for(
    variant: Variant,
    *,
    progress: Callable[[int, int], None] | None = None,
    use_cache: bool = True,
) -> tuple[FinalsTable, Path | None]:
    """The finals table of the one-column ``variant``, read from disk or built and stored
    there (``kniffel solve --finals``: any house rule of ``kniffel`` or ``yahtzee``), and
    where it is stored (``None``: not written). ``use_cache=False`` builds it anew and
    neither reads nor writes it."""
    if len(variant.columns) != 1:
        raise ValueError("the finals table is for one-column variants")
    discipline = variant.columns[0].discipline
    if use_cache:
        found = load_finals(variant.options, discipline)
        if found is not None:
            return found, finals_path(variant.options, discipline)
    table = build_finals(variant, progress=progress)
    return table, save_finals(table) if use_cache else None
