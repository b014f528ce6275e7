"""The ↓↑ tables of Rauf-Runter on disk, beside the column tables in the solver's cache dir.

Solving ↓ and ↑ together (:mod:`kniffel.solver.raufrunter.bounds`) costs several seconds of
CPU; once solved, the table is written to the cache dir (the setting ``cache_dir``, as for the
column tables of :mod:`kniffel.solver.exact.cache`) and later processes read it in a few
milliseconds. A file is named after its options and the **fingerprint** of what its values
depend on: a hash of this format and of the source of every module the solve reads (the rules,
the dice tables, the keep lattice, the roll scores and the solve itself). A file written by
other code is therefore never read: its name does not match, the table is solved again and the
old file removed. Files are written beside their target and renamed (a reader never sees half
a file) and count towards the cache's size bound (``cache_max_bytes``).

numpy is imported only when a table is read or written, so that the board's table worker can
ask :func:`is_stored` without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kniffel.rules import Options
from kniffel.solver.exact import cache as tables_cache
from kniffel.solver.raufrunter import arrows_name
from kniffel.solver.raufrunter.arrows_name import (
    FORMAT,
    arrows_key,
    file_name,
    file_stem,
    fingerprint,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["FORMAT", "arrows_key", "fingerprint", "is_stored", "load", "path_for", "save"]


def path_for(options: Options) -> Path:
    """The file of the ↓↑ table under ``options``: its options and the fingerprint in the name."""
    return tables_cache.cache_dir() / file_name(options)


def _key(options: Options) -> dict[str, object]:
    return {"format": FORMAT, "fingerprint": arrows_name.fingerprint(), **options.as_dict()}


def is_stored(options: Options) -> bool:
    """Whether the table of ``options`` is on disk for this code: the file's key is read
    (without numpy), not its values."""
    return tables_cache.stored_key(path_for(options)) == _key(options)


def load(options: Options, shape: tuple[int, ...]) -> npt.NDArray[np.float64] | None:
    """The stored values of ``options`` (read-only, of ``shape``), or ``None`` when no usable
    file is there (missing, written for other options or code, truncated, unreadable)."""
    stored = tables_cache.read_arrays(path_for(options), _key(options), ("values",))
    if stored is None or stored["values"].shape != shape:
        return None
    values: npt.NDArray[np.float64] = stored["values"]
    values.setflags(write=False)
    return values


def save(options: Options, values: npt.NDArray[np.float64]) -> Path | None:
    """Writes the table of ``options`` atomically and removes the files of older code;
    ``None`` when the cache dir cannot be written."""
    path = path_for(options)
    if not tables_cache.write_arrays(path, _key(options), {"values": values}):
        return None
    for old in path.parent.glob(f"{file_stem(options)}-*.npz"):
        if old != path:
            old.unlink(missing_ok=True)
    return path
