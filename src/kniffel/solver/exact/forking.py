"""A build's work shared among forked processes: memory they share, and a pool forked once.

A table is solved level by level (one more row filled each), and a state's value reads only the
level below it, so the states of one level can be solved by several processes at once, each
writing its own states into memory they share (:func:`shared_array`). The processes are forked
once per build (:func:`forked`) and inherit the build they serve: nothing is pickled but a
level's number and a share's. A build solves a level's ``k``-th share with ``share(level, k)``
(:class:`Shared`), and :func:`shares` hands a level's shares out. Where the system cannot
fork, a build runs in its own process alone (:func:`workers_here`). Used by the one-column tables
(:func:`kniffel.solver.exact.column.build_values`) and the ↓↑ table of Rauf-Runter
(:func:`kniffel.solver.raufrunter.bounds.arrow_table`).
"""

from __future__ import annotations

import math
import mmap
import multiprocessing
import multiprocessing.pool
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["Shared", "forked", "shared_array", "shares", "workers_here"]


class Shared(Protocol):
    """A build whose levels are solved in shares."""

    def share(self, level: int, share: int) -> Any:
        """Solves the ``share``-th share of ``level`` (all of it when there is one worker)."""


#: The build that forked processes serve: set while they fork, so that they inherit it.
_SERVED: Any = None
_FORKING = threading.Lock()


def workers_here(workers: int) -> int:
    """``workers`` (at least one), or one where this system cannot fork."""
    return max(1, workers) if "fork" in multiprocessing.get_all_start_methods() else 1


def shared_array(shape: int | tuple[int, ...]) -> npt.NDArray[np.float64]:
    """Zeros of ``shape`` in memory that forked processes share (an anonymous shared mapping)."""
    size = shape if isinstance(shape, int) else math.prod(shape)
    return np.frombuffer(mmap.mmap(-1, size * 8), dtype=np.float64).reshape(shape)


def _serve(task: tuple[int, int]) -> Any:
    """In a forked process: a share of the build it was forked for."""
    assert _SERVED is not None
    return _SERVED.share(*task)


def shares(
    pool: multiprocessing.pool.Pool | None, build: Shared, level: int, workers: int
) -> list[Any]:
    """``level`` of ``build`` solved: the first share here, the others by the ``pool``'s
    processes at the same time (one share, all of it, without a pool); what each returned."""
    if pool is None:
        return [build.share(level, 0)]
    theirs = pool.map_async(_serve, [(level, k) for k in range(1, workers)])
    return [build.share(level, 0), *theirs.get()]


@contextmanager
def forked(build: Shared, workers: int) -> Iterator[multiprocessing.pool.Pool | None]:
    """``workers - 1`` processes forked to serve ``build`` (``None`` for one worker)."""
    global _SERVED
    if workers <= 1:
        yield None
        return
    with _FORKING, warnings.catch_warnings():  # two builds in two threads fork one at a time
        # Python 3.12 warns on a fork while threads run (numpy's BLAS keeps some). The
        # workers only run numpy on this build's arrays and end with it.
        warnings.filterwarnings("ignore", "This process", DeprecationWarning)
        _SERVED = build
        try:
            pool = multiprocessing.get_context("fork").Pool(workers - 1)
        finally:
            _SERVED = None
    with pool:
        yield pool
