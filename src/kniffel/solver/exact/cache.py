"""Solved tables on disk: one ``.npz`` per discipline and options, in the user cache dir.

The directory is ``platformdirs.user_cache_dir("kniffel")``, or the setting
``cache_dir`` (``$KNIFFEL_CACHE_DIR``). The solver is handed its :class:`TablePlace` (folder and
size bound) by whoever runs it: the solver's commands read the table settings once before they
start and refuse a bad one in one line (``kniffel.cli``), the board passes its
:class:`~kniffel.settings.Settings`' (``kniffel.web.app``), and a table build in a child process
gets its parent's (``kniffel.solver.builds``). Only the solver used on its own, with nothing
passed, reads the table settings of the environment (:class:`kniffel.settings.TableSettings`,
never the board's). A file that cannot be read, or that was written for other rules or by
another table format, counts as missing: the table is built again and the file replaced.

The files together stay under the setting ``cache_max_bytes``
(``$KNIFFEL_CACHE_MAX_BYTES``, 500 MB by default): after every write the least
recently used tables (by the time they were last written or loaded) are
removed until the rest fits; the table just written always stays, and so do the tables of
the presets with their standard options (:func:`preset_files`): tables of new house rules,
which anyone who creates a game may ask for, never push out the ones every plain game reads
(docs/deploy.md, "Limits").
"""

from __future__ import annotations

import ast
import json
import os
import tempfile
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kniffel.rules import Discipline, Options
from kniffel.settings import TableSettings
from kniffel.solver.raufrunter import arrows_name
from kniffel.solver.table_kinds import preset_tables

if TYPE_CHECKING:  # numpy is imported when a table is read or written, not with this module
    from kniffel.solver.exact.sheet_space import SheetSpace

__all__ = [
    "FORMAT",
    "TablePlace",
    "cache_dir",
    "column_key",
    "column_path",
    "evict",
    "is_stored",
    "path_for",
    "place",
    "preset_files",
    "read_arrays",
    "stored_key",
    "touch",
    "using",
    "write_arrays",
]

#: The file names of the tables in the cache dir (the ↓↑ tables of kniffel.solver.raufrunter.stored
#: and the chance tables of kniffel.solver.exact.chance_table share the directory and its size
#: bound).
TABLE_FILES = ("column-*.npz", "arrows-*.npz", "chances-column-*.npz")

#: Bumped whenever the meaning of the stored values changes.
FORMAT = "kniffel-column/1"


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where the solved tables are kept and how many bytes they may take together."""

    folder: Path
    max_bytes: int

    @classmethod
    def of(cls, settings: TableSettings) -> TablePlace:
        """The place ``settings`` name (no ``cache_dir``: the user cache directory)."""
        return cls(settings.cache_folder, settings.cache_max_bytes)


#: The places passed in (:func:`using`), per thread: a command passes its place to the solver
#: it runs in its own thread, and a place never reaches a thread that did not ask for it (a
#: process-wide place outlived the block that set it when two apps of one process ran at once,
#: and every other solver of the process then kept its tables there).
_passed = threading.local()


@contextmanager
def using(where: TablePlace) -> Iterator[TablePlace]:
    """Keep the tables at ``where`` while the block runs, in this thread (a table build in a
    child process passes its parent's place on); after it, the place passed before."""
    stack: list[TablePlace] = _passed.__dict__.setdefault("places", [])
    stack.append(where)
    try:
        yield where
    finally:
        stack.pop()


def place() -> TablePlace:
    """The place this thread passed in last (:func:`using`); with none, the table settings of
    the environment (the board's settings read the same variables)."""
    stack: list[TablePlace] = _passed.__dict__.get("places", [])
    return stack[-1] if stack else TablePlace.of(TableSettings())


def cache_dir() -> Path:
    return place().folder


def column_key(space: SheetSpace) -> dict[str, object]:
    return _key_of(space.options, space.discipline)


def _key_of(options: Options, discipline: Discipline) -> dict[str, object]:
    return {"format": FORMAT, "discipline": discipline.value, **options.as_dict()}


def is_stored(options: Options, discipline: Discipline) -> bool:
    """Whether the cache holds the column table of ``discipline`` under ``options``, written for
    these rules by this table format: the file's key is read (without numpy), not its values."""
    return stored_key(column_path(options, discipline)) == _key_of(options, discipline)


def stored_key(path: Path) -> object:
    """The ``key`` entry of a table file (the JSON string that :func:`save` writes as a 0-d
    ``numpy`` unicode array), read without numpy; ``None`` when it is not there or unreadable.

    A ``.npy`` entry is a magic string, a version, the length of a header (a Python dict
    literal: ``descr``, ``fortran_order``, ``shape``) and the data, here UTF-32 text.
    """
    try:
        with zipfile.ZipFile(path) as stored:
            raw = stored.read("key.npy")
        if raw[:6] != b"\x93NUMPY":
            return None
        size, start = (2, 8) if raw[6] == 1 else (4, 8)
        length = int.from_bytes(raw[start : start + size], "little")
        header = ast.literal_eval(raw[start + size : start + size + length].decode("latin-1"))
        descr = header["descr"]
        if header["shape"] != () or not isinstance(descr, str) or descr[:2] != "<U":
            return None
        text = raw[start + size + length :].decode("utf-32-le").rstrip("\x00")
        return json.loads(text)
    except (OSError, ValueError, KeyError, TypeError, SyntaxError, IndexError, zipfile.BadZipFile):
        return None


def path_for(space: SheetSpace) -> Path:
    """The file of ``space``'s table; the name spells out every option."""
    return column_path(space.options, space.discipline)


def column_path(o: Options, discipline: Discipline) -> Path:
    """The file of the column table of ``discipline`` under ``o`` (see :func:`path_for`)."""
    name = (
        f"column-{discipline.value}-chance{int(o.chance)}-{o.pasch.value}"
        f"-bonus{o.kniffel_bonus}-joker_{o.joker.value}-zero_upper{int(o.zero_only_upper)}.npz"
    )
    return cache_dir() / name


def read_arrays(path: Path, key: object, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The arrays ``names`` of the ``.npz`` file at ``path`` (as float64), when its stored key
    equals ``key``; ``None`` when the file is missing, unreadable, lacks an array or was
    written for another key. The file counts as just used (:func:`touch`)."""
    import numpy as np
    from numpy.lib.npyio import NpzFile

    try:
        # Opened here, so that the file is closed even when numpy cannot read it.
        with path.open("rb") as handle:
            stored = np.load(handle, allow_pickle=False)
            if not isinstance(stored, NpzFile):
                return None
            with stored:
                if json.loads(str(stored["key"])) != key:
                    return None
                arrays = {name: np.array(stored[name], dtype=np.float64) for name in names}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    touch(path)
    return arrays


def write_arrays(path: Path, key: object, arrays: dict[str, Any]) -> bool:
    """Writes ``arrays`` and ``key`` to the ``.npz`` file ``path`` atomically (beside it, then
    renamed, so a reader never sees half a file) and keeps the cache under its size bound;
    ``False`` when the directory cannot be written."""
    import numpy as np

    partial: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as out:
            partial = out.name
            np.savez(out, key=np.array(json.dumps(key)), **arrays)
        os.replace(partial, path)
    except OSError:
        if partial is not None:
            Path(partial).unlink(missing_ok=True)
        return False
    evict(place().max_bytes, keep=path)
    return True


def touch(path: Path) -> bool:
    """Marks ``path`` as just used (its modification time is the cache's use time).

    ``False`` when the file is not there (any more).
    """
    try:
        os.utime(path)
    except OSError:
        return False
    return True


def preset_files() -> frozenset[str]:
    """The file names of the presets' tables with their standard options (the tables the
    board builds at start: :func:`kniffel.solver.table_kinds.preset_tables`)."""
    names = set()
    for table in preset_tables():
        if table.discipline is None:
            names.add(arrows_name.file_name(arrows_name.arrows_key(table.options)))
            continue
        column = column_path(table.options, table.discipline).name
        names.add("chances-" + column if table.chances else column)
    return frozenset(names)


def evict(max_bytes: int, keep: Path | None = None) -> list[Path]:
    """Removes the least recently used tables until the rest take at most ``max_bytes``.

    ``keep`` (the table just written) and the presets' tables (:func:`preset_files`) are
    never removed. Returns the removed files.
    """
    presets = preset_files()
    try:
        files = []
        for pattern in TABLE_FILES:
            for path in cache_dir().glob(pattern):
                stat = path.stat()
                files.append((stat.st_mtime, path, stat.st_size))
    except OSError:
        return []
    files.sort()  # least recently used first
    total = sum(size for _, _, size in files)
    removed = []
    for _, path, size in files:
        if total <= max_bytes:
            break
        if (keep is not None and path == keep) or path.name in presets:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed
