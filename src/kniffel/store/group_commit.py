"""Group commit: one thread stores the appends of many requests, one transaction a round.

On SQLite every commit waits for the disk (``synchronous=FULL``, docs/deploy.md), and only one
connection may write at a time. A request that stored its own entry in a worker thread queued
for the write lock and then for Python's interpreter lock between each of its statements, so
under load entries waited seconds while reads were quick (docs/benchmarks.md, "Load"). Here the
board's requests hand their appends to one writer thread and wait for the answer; the writer
takes every append waiting at that moment and stores them in one transaction, one commit and
one flush to the disk. Nothing is acknowledged before its commit has returned: a request learns
its append's fate (stored, or refused because the game moved on) only from the writer. A request
that goes away (its device closed the connection) before the writer took its append withdraws
it; once taken, the append is stored and told to the watchers all the same.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future

from kniffel.store.repository import Append, Appended, GameStore, VersionConflict

__all__ = ["MAX_BATCH", "GroupCommit"]

#: The most appends stored in one transaction.
MAX_BATCH = 64

_log = logging.getLogger(__name__)

_Job = tuple[Append, "Future[Appended]"]


class GroupCommit:
    """A writer thread for ``store``: :meth:`submit` an append, wait for its future."""

    def __init__(self, store: GameStore, *, max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.max_batch = max_batch
        #: Appends submitted, taken by the writer, and stored; transactions committed.
        self.submitted = 0
        self.taken = 0
        self.stored = 0
        self.rounds = 0
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="kniffel-writer", daemon=True)
        self._thread.start()

    def submit(self, append: Append) -> Future[Appended]:
        """Queue ``append``; its future gives the :class:`Appended` once it is committed, or
        raises :class:`VersionConflict` (nothing stored) or the database's error."""
        future: Future[Appended] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the writer is closed")
            self._jobs.put((append, future))
            self.submitted += 1
        return future

    def close(self) -> None:
        """Store what was submitted, then stop the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._jobs.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch: list[_Job] = []
            stop = False
            while True:
                # Taken: from here on the request's cancelling no longer withdraws it (it
                # will be stored, and told to the hub); withdrawn before, it is dropped.
                if job[1].set_running_or_notify_cancel():
                    batch.append(job)
                    self.taken += 1
                if len(batch) >= self.max_batch:
                    break
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                job = more
            if batch:
                self._store(batch)
            if stop:
                return

    def _store(self, batch: Sequence[_Job]) -> None:
        try:
            results = self.store.append_many([append for append, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                batch[0][1].set_exception(exc)
                return
            # Nothing of the round was stored: each append alone, so that one broken
            # append does not take the others with it.
            _log.warning("a round of %d appends failed (%s); storing each alone", len(batch), exc)
            for job in batch:
                self._store([job])
            return
        self.rounds += 1
        for (_, future), result in zip(batch, results, strict=True):
            if isinstance(result, VersionConflict):
                future.set_exception(result)
            else:
                self.stored += 1
                future.set_result(result)
