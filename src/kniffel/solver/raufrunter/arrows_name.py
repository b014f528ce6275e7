"""What a ↓↑ table of Rauf-Runter on disk is named after: its options and the fingerprint of the
code its values depend on (:mod:`kniffel.solver.raufrunter.stored` reads and writes the file).

Apart from the reading and writing, so that the cache (:mod:`kniffel.solver.exact.cache`), which
never evicts the presets' files, names them without importing a module that imports it.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from functools import cache
from pathlib import Path

from kniffel.rules import Joker, Options

__all__ = ["FORMAT", "arrows_key", "file_name", "file_stem", "fingerprint"]

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


def file_stem(options: Options) -> str:
    """The ↓↑ table's file name under ``options`` without the fingerprint (older code's files
    share it)."""
    o = options
    return f"arrows-chance{int(o.chance)}-{o.pasch.value}-zero_upper{int(o.zero_only_upper)}"


def file_name(options: Options) -> str:
    """The name of the ↓↑ table's file under ``options``: its options and the fingerprint."""
    return f"{file_stem(options)}-{fingerprint()}.npz"
