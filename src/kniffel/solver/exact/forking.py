"""A build's work shared among forked processes: memory they share, and a pool forked once.

A table is solved level by level (one more row filled each), and a state's value reads only the
level below it, so the states of one level can be solved by several processes at once, each
writing its own states into memory they share (:func:`shared_array`). The processes are forked
once per build (:func:`forked`) and inherit the build they serve (:func:`serving`): nothing is
pickled but a level's number and a share's. Where the system cannot fork, a build runs in its
own process alone (:func:`workers_here`). Used by the one-column tables
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
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["forked", "serving", "shared_array", "workers_here"]

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


def serving() -> Any:
    """In a forked process: the build it was forked for."""
    assert _SERVED is not None
    return _SERVED


@contextmanager
def forked(build: object, workers: int) -> Iterator[multiprocessing.pool.Pool | None]:
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
