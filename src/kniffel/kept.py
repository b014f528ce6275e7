"""The project's one least-recently-used store: what is computed once and handed out again.

A game at a version never changes, nor does a solver position, so what is computed from one (a
review, chances, a replay, a position's reasons) can be kept under its key; the least recently
used go first. It lives beneath every package (docs/architecture.md, the layers) so that the
solver, the store and the board keep their figures the same way. Thread-safe: the board computes
in worker threads.

Bounded by entries (``size``) and, optionally, by a weight the entries hold together (a replay
weighs its events): ``weight`` gives each value's weight, ``max_weight`` the bound.
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
    """The latest ``size`` values by key (and at most ``max_weight`` of ``weight`` together).

    >>> kept: Kept[tuple[str, int], int] = Kept(size=2)
    >>> kept.get(("g", 1), lambda: 10), kept.get(("g", 1), lambda: 99)
    (10, 10)
    >>> _ = kept.get(("g", 2), lambda: 20), kept.get(("g", 3), lambda: 30)
    >>> kept.get(("g", 1), lambda: 11)
    11
    """

    def __init__(
        self,
        size: int = 32,
        *,
        weight: Callable[[V], int] | None = None,
        max_weight: int | None = None,
    ) -> None:
        if size < 0 or (max_weight is not None and max_weight < 0):
            raise ValueError("a kept store's bounds cannot be negative")
        self.size = size
        self.max_weight = max_weight
        self._weigh = weight or (lambda _: 1)
        self._lock = threading.Lock()
        self._done: OrderedDict[K, V] = OrderedDict()
        self._weight = 0
        #: Reads that found their key, and those that did not (what ``/metrics`` shows).
        self.hits = 0
        self.misses = 0

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``compute()`` (outside the lock, so other keys are
        not held up) kept. When two threads compute the same key at once, the first kept value is
        the one both hand out: a value that is shared and changed later stays one object."""
        found = self.find(key)
        if found is not None:
            return found
        value = compute()
        with self._lock:
            if key in self._done:  # another thread was quicker
                self._done.move_to_end(key)
                return self._done[key]
            self._keep(key, value)
        return value

    def find(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), else ``None``."""
        with self._lock:
            if key not in self._done:
                self.misses += 1
                return None
            self.hits += 1
            self._done.move_to_end(key)
            return self._done[key]

    def peek(self, key: K) -> V | None:
        """The value kept under ``key`` without using it (its place and the counts stay)."""
        with self._lock:
            return self._done.get(key)

    def put(self, key: K, value: V) -> list[tuple[K, V]]:
        """Keep ``value`` under ``key`` (replacing what was there); what fell out for it, the
        least recent first. A value heavier than ``max_weight`` alone is not kept."""
        with self._lock:
            return self._keep(key, value)

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its value, or ``None`` when nothing was kept under it."""
        with self._lock:
            return self._drop(key) if key in self._done else None

    def pop_newest(self) -> tuple[K, V] | None:
        """The most recently used key and value, forgotten (``None`` when empty): a queue that
        serves the latest wish first and lets old ones fall out at the other end."""
        with self._lock:
            if not self._done:
                return None
            key = next(reversed(self._done))
            return key, self._drop(key)

    def items(self) -> list[tuple[K, V]]:
        """Every key and value kept, the least recently used first (a copy: nothing is used).

        >>> kept: Kept[str, int] = Kept(size=2)
        >>> _ = kept.put("a", 1), kept.put("b", 2), kept.put("a", 3), kept.put("c", 4)
        >>> kept.items()
        [('a', 3), ('c', 4)]
        """
        with self._lock:
            return list(self._done.items())

    def __len__(self) -> int:
        with self._lock:
            return len(self._done)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._done

    @property
    def weight(self) -> int:
        """The weight the kept values hold together (their number without ``weight``)."""
        with self._lock:
            return self._weight

    def _keep(self, key: K, value: V) -> list[tuple[K, V]]:
        if key in self._done:
            self._drop(key)
        weight = self._weigh(value)
        if self.size == 0 or (self.max_weight is not None and weight > self.max_weight):
            return []
        self._done[key] = value
        self._weight += weight
        dropped: list[tuple[K, V]] = []
        while len(self._done) > self.size or (
            self.max_weight is not None and self._weight > self.max_weight
        ):
            oldest = next(iter(self._done))
            dropped.append((oldest, self._drop(oldest)))
        return dropped

    def _drop(self, key: K) -> V:
        value = self._done.pop(key)
        self._weight -= self._weigh(value)
        return value
