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

import hashlib
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from kniffel.rules import Joker, Options
from kniffel.solver.exact import cache as tables_cache

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["FORMAT", "arrows_key", "fingerprint", "is_stored", "load", "path_for", "save"]

#: Bumped whenever the meaning of the stored values changes.
FORMAT = "kniffel-arrows/1"

_PACKAGE = Path(__file__).resolve().parent.parent.parent
#: The sources the ↓↑ table's values depend on (relative to the package ``kniffel``).
_SOURCES = (
    "rules",
    "solver/exact/dice_tables.py",
    "solver/exact/keep_lattice.py",
    "solver/exact/roll_scores.py",
    "solver/raufrunter/bounds.py",
)


@cache
def fingerprint() -> str:
    """A hash of :data:`FORMAT` and of every source the table depends on (16 hex digits)."""
    digest = hashlib.sha256(FORMAT.encode())
    for source in _SOURCES:
        path = _PACKAGE / source
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(file.relative_to(_PACKAGE).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def arrows_key(options: Options) -> Options:
    """The options a ↓↑ table is solved for: the joker and the extra-Kniffel bonus never apply
    to ↓ and ↑ alone, so tables differing only in them are one."""
    return replace(options, joker=Joker.NONE, kniffel_bonus=0)


def _stem(options: Options) -> str:
    o = options
    return f"arrows-chance{int(o.chance)}-{o.pasch.value}-zero_upper{int(o.zero_only_upper)}"


def path_for(options: Options) -> Path:
    """The file of the ↓↑ table under ``options``: its options and the fingerprint in the name."""
    return tables_cache.cache_dir() / f"{_stem(options)}-{fingerprint()}.npz"


def _key(options: Options) -> dict[str, object]:
    return {"format": FORMAT, "fingerprint": fingerprint(), **options.as_dict()}


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
    for old in path.parent.glob(f"{_stem(options)}-*.npz"):
        if old != path:
            old.unlink(missing_ok=True)
    return path
