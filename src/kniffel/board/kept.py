"""Figures computed once per game version: a small, thread-safe, least-recently-used store.

A game at a version never changes, so what is computed from it (its review, its chances, a chart)
can be kept under ``(game id, version, …)`` and handed out again; the oldest go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Kept"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The latest ``size`` computed values by key.

    >>> kept: Kept[tuple[str, int], int] = Kept(size=2)
    >>> kept.get(("g", 1), lambda: 10), kept.get(("g", 1), lambda: 99)
    (10, 10)
    >>> _ = kept.get(("g", 2), lambda: 20), kept.get(("g", 3), lambda: 30)
    >>> kept.get(("g", 1), lambda: 11)
    11
    """

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._done: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``compute()`` (outside the lock) and keep it."""
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        value = compute()
        with self._lock:
            self._done[key] = value
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        return value
