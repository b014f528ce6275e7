"""Figures no request computes: a bounded queue and one worker thread that works them out.

A read whose figures cost more than a request may spend (docs/deploy.md, "Limits": about
50 CPU-ms) asks :meth:`Queued.ask`: it answers the figures when they are kept, and otherwise
queues their work (once) and answers how far it is (0 to 1) at once; the page or program asks
again. One thread works the queue, the oldest first, at a lower priority than the requests
(``nice`` 10, as the board's background thread). The queue is bounded overall and per client
(:class:`Busy` beyond), and a newer version of the same thing replaces a waiting older one
(nobody wants the chances of a version the game has left behind), so nobody can pile up work
for everybody.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from kniffel.kept import Kept
from kniffel.priority import lower_this_thread

__all__ = ["RETRY_AFTER", "Busy", "Progress", "Queued"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Seconds a refused client is told to wait.
RETRY_AFTER = 10

#: What a piece of work is handed: call it with how far it is (0 to 1).
Progress = Callable[[float], None]

_log = logging.getLogger(__name__)


class Busy(Exception):
    """The queue is full, or this client already has its share waiting; nothing was queued."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"busy: {reason}")
        self.reason = reason
        self.retry_after = RETRY_AFTER


@dataclass
class _Job(Generic[K, V]):
    key: K
    kind: Hashable  # a waiting job of the same kind and another key is replaced
    client: str
    work: Callable[[Progress], V]
    progress: float = field(default=0.0)


class Queued(Generic[K, V]):
    """Figures by key, worked out by one thread: at most ``queue`` waiting, ``per_client`` of
    them from one client; the latest ``kept`` results are kept (and the errors of the latest
    ``kept`` keys that failed, so that asking again answers the error, not a new job)."""

    def __init__(self, name: str, *, queue: int, per_client: int, kept: int) -> None:
        self.name = name
        self.queue = queue
        self.per_client = per_client
        self._done: Kept[K, V] = Kept(kept)
        self._failed: Kept[K, Exception] = Kept(kept)
        self._lock = threading.Condition()
        self._waiting: deque[_Job[K, V]] = deque()
        self._working: _Job[K, V] | None = None
        self._closed = False
        self._worker: threading.Thread | None = None
        #: Pieces of work done so far (what the tests count).
        self.worked = 0

    def find(self, key: K) -> V | None:
        """The figures of ``key`` if they are kept."""
        return self._done.find(key)

    def ask(
        self, key: K, client: str, work: Callable[[Progress], V], *, kind: Hashable = None
    ) -> V | float:
        """The figures of ``key`` if they are kept; else how far their work is (0 to 1), and
        it is queued when it was not (``work`` is called in the worker thread, with a
        function to report its progress). ``kind``: a waiting job of the same kind (the same
        game, another version) is dropped for this one. Raises :class:`Busy` when the queue
        is full or ``client`` has :attr:`per_client` jobs waiting, and the error of ``work``
        when it failed for ``key``."""
        with self._lock:  # the worker keeps a result before it lets go of its job
            found = self._done.find(key)
            if found is not None:
                return found
            failed = self._failed.peek(key)
            if failed is not None:
                raise failed
            if self._working is not None and self._working.key == key:
                return self._working.progress
            for job in self._waiting:
                if job.key == key:
                    return job.progress
            if self._closed:
                raise Busy("closed")
            if kind is not None:
                older = [job for job in self._waiting if job.kind == kind]
                for job in older:
                    self._waiting.remove(job)
            if len(self._waiting) >= self.queue:
                raise Busy("queue")
            if sum(job.client == client for job in self._waiting) >= self.per_client:
                raise Busy("client")
            self._waiting.append(_Job(key, kind, client, work))
            self._start()
            self._lock.notify_all()
        return 0.0

    def ask_within(
        self,
        key: K,
        client: str,
        work: Callable[[Progress], V],
        seconds: float,
        *,
        kind: Hashable = None,
    ) -> V | float:
        """:meth:`ask`, waiting at most ``seconds`` for the figures (a panel that shows them
        when they come quickly, and otherwise says they are on their way)."""
        asked = self.ask(key, client, work, kind=kind)
        if not isinstance(asked, float):
            return asked
        with self._lock:
            self._lock.wait_for(lambda: not self._pending(key), timeout=seconds)
        return self.ask(key, client, work, kind=kind)

    def _pending(self, key: K) -> bool:
        working = self._working is not None and self._working.key == key
        return working or any(job.key == key for job in self._waiting)

    def waiting(self) -> int:
        """Jobs queued or being worked on."""
        with self._lock:
            return len(self._waiting) + (self._working is not None)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until no job is queued or being worked on (tests, the cost benchmark)."""
        with self._lock:
            return self._lock.wait_for(
                lambda: not self._waiting and self._working is None, timeout=timeout
            )

    @property
    def closed(self) -> bool:
        return self._closed

    def open(self) -> None:
        """Take jobs again after :meth:`close` (an app whose lifespan starts anew)."""
        with self._lock:
            self._closed = False

    def close(self) -> None:
        """Drops what waits and stops after the job at hand (the app's shutdown)."""
        with self._lock:
            self._closed = True
            self._waiting.clear()
            self._lock.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=60)

    def _start(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name=self.name, daemon=True)
            self._worker.start()

    def _work(self) -> None:
        lower_this_thread()  # below the requests (kniffel.priority)
        while True:
            with self._lock:
                self._lock.wait_for(lambda: bool(self._waiting) or self._closed)
                if self._closed:
                    return
                job = self._working = self._waiting.popleft()

            def report(progress: float, job: _Job[K, V] = job) -> None:
                if self._closed:
                    raise Busy("closed")  # a long job (Jamb's bot games) ends at shutdown
                job.progress = min(max(progress, 0.0), 1.0)

            try:
                value = job.work(report)
            except Busy:
                pass
            except Exception as error:  # one job that fails must not stop the others
                _log.warning("%s: %r failed: %s", self.name, job.key, error)
                self._failed.put(job.key, error)
            else:
                self._done.put(job.key, value)
            with self._lock:
                self.worked += 1
                self._working = None
                self._lock.notify_all()
