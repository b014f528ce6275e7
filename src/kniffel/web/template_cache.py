"""The board's templates compiled once, kept on disk for the next start.

Jinja compiles a template (parse, generate Python, compile it) the first time it is rendered:
the start page's five templates took about a tenth of a second of CPU before the board's first
answer. Jinja's :class:`~jinja2.FileSystemBytecodeCache` keeps the compiled code in a folder
(the ``templates`` folder in the cache directory, ``KNIFFEL_CACHE_DIR``), so a later start
reads it instead (docs/benchmarks.md, "Start").

A file is used only for the same template source (Jinja checks its checksum), the same Jinja
and Python (Jinja's magic header), and the same environment: its name carries a fingerprint of
what the compiler reads from the environment (:func:`fingerprint`), so a change to the
delimiters, the extensions or the filters never meets code compiled before it. A folder that
cannot be written costs the compilation, never the page.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

__all__ = ["KeptTemplates", "fingerprint", "keep_compiled"]


def fingerprint(env: Environment) -> str:
    """A short hash of the environment's settings that the compiled code depends on."""
    finalize = env.finalize
    facts = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        env.autoescape if isinstance(env.autoescape, bool) else env.autoescape.__qualname__,
        None if finalize is None else finalize.__qualname__,
        sorted(env.extensions),
        sorted(env.filters),
        sorted(env.tests),
        getattr(env, "newstyle_gettext", None),  # jinja2.ext.i18n compiles by it
    )
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:16]


class KeptTemplates(FileSystemBytecodeCache):
    """Jinja's bytecode folder that makes the folder when first written and never fails a
    render: a file that cannot be read is compiled, one that cannot be written is left out
    (the template is compiled again next start)."""

    def __init__(self, folder: Path, env: Environment) -> None:
        super().__init__(str(folder), f"{fingerprint(env)}-%s.cache")
        self.folder = folder

    def load_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)


def keep_compiled(env: Environment, folder: Path) -> None:
    """``env`` keeps the templates it compiles in ``folder`` and reads them from there.

    Set once the environment's filters and extensions are in place (they are part of the
    files' names). The environment is the process's one (:mod:`kniffel.web.rendering`): two
    apps of one process with different folders each find the same code in either.
    """
    env.bytecode_cache = KeptTemplates(folder, env)
