"""Solved tables for the board, built in the background by one worker at a time.

The advice, the analysis and the best bot read solved tables
(:func:`tables_for` says which a variant needs). Building a column table costs
seconds of CPU, so the board never builds one inside a request:

- :meth:`TableBuilds.readiness` says whether a variant's tables are ready
  (held, or on disk in the cache), being built (with the progress), or missing;
- :meth:`TableBuilds.request` queues the missing ones. The board calls it only
  for a key holder, and at start for the presets' default options. Anyone may
  create a game and so hold a key, and each new house-rule combination costs about
  a minute of CPU and some 24 MB of cache, so the builds of new house rules are
  bounded (docs/deploy.md, "Limits"): at most ``queue_limit`` of their tables wait at
  once, and one client starts at most ``per_client`` new combinations an hour (each
  combination counted once, its value and chance tables together);
  beyond that :class:`BuildsBusy` says when to ask again, and nothing is queued.
  The presets' tables never count against either bound (and the disk cache never
  evicts them: :func:`kniffel.solver.exact.cache.preset_files`);
- one worker thread works the queue, one table after the other; a queued table
  is queued once however often it is asked for. The queue has three tiers (docs/solver.md,
  "Tables in the board"): :data:`FIRST`, the tables a game's Tipp waits for (its exact
  values), in the order games asked; :data:`NEXT`, what those games read after (their chance
  tables); :data:`BACKGROUND`, the presets' tables and the finals queued at start. A table a
  game asks for moves up to its tier, and a game's table stops a build of a later tier that is
  running (the child stops at its next progress report, writes nothing, and its table goes
  back to the front of its tier), so a game never waits for the presets or for another
  game's chance table. Each table is built in a
  child process (forked from a fork server that imported numpy and the solvers once, where
  the platform has one, else started with ``spawn``; at a lower priority), so a build
  never holds the server's interpreter and starts in milliseconds, not the half second a
  fresh interpreter took to import them: a column table and the ↓↑ table of
  Rauf-Runter are written to the disk cache (the ↓↑ values are sent back only
  when the cache dir cannot be written). Servers
  that share a cache directory take turns through a lock file there, so even
  several processes build one table at a time, and a column table one of them
  built is found by the others.
"""

from __future__ import annotations

import fcntl
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from kniffel.priority import background_nice, lower_this_process, waited_nice
from kniffel.rules import ColumnSpec, Options, Variant
from kniffel.solver.exact import cache
from kniffel.solver.raufrunter import stored
from kniffel.solver.table_kinds import (
    FINALS_PRESETS,
    TABLE_PRESETS,
    Table,
    chance_tables_for,
    finals_tables,
    preset_tables,
    solvable,
    tables_for,
)

# numpy and the solvers are imported by the worker and the build processes, not with this module:
# the board imports it at start (docs/benchmarks.md, "Start").

__all__ = [
    "BACKGROUND",
    "CLIENT_WINDOW",
    "FINALS_PRESETS",
    "FIRST",
    "GAME_WORKERS",
    "NEXT",
    "PER_CLIENT",
    "QUEUE_LIMIT",
    "TABLE_PRESETS",
    "BuildsBusy",
    "Readiness",
    "Table",
    "TableBuilds",
    "asking",
    "chance_tables_for",
    "finals_tables",
    "preset_tables",
    "solvable",
    "tables_for",
]

_log = logging.getLogger(__name__)

#: How often the worker looks at a running child (seconds); also how soon it stops.
_POLL = 0.2
#: Tables of house rules (not the presets') that may wait for the worker at once.
QUEUE_LIMIT = 6
#: New house-rule combinations one client may have queued within :data:`CLIENT_WINDOW`.
PER_CLIENT = 2
#: Seconds over which a client's builds count.
CLIENT_WINDOW = 3600.0
#: What a full queue asks to wait before trying again (seconds): about one build.
_QUEUE_RETRY = 60
#: The queue's tiers, first taken first: what a game's first Tipp reads (its exact values),
#: what the games that asked read next (their chance tables), and the rest (the presets' and
#: the finals tables queued at start).
FIRST, NEXT, BACKGROUND = 0, 1, 2
#: The exit code of a build process stopped for a game's table (it wrote nothing).
_STOPPED = 75
#: The processes that build a table a game's Tipp waits for (:data:`FIRST`: its value table,
#: and Rauf-Runter's ↓↑ table): the build process and one forked from it where the machine has a
#: second core (each level shared, :mod:`kniffel.solver.exact.forking`; a house rule's table in
#: about half the time, docs/benchmarks.md, "A house rule's first Tipp"). Every other build is
#: one process, so that background work takes one core at most. They run at
#: :func:`~kniffel.priority.waited_nice` (``nice`` 5 by default), every other build at the
#: background's (10): below the requests, above the work nobody waits for.
GAME_WORKERS = min(2, os.cpu_count() or 1)

#: What every build process imports: the fork server imports it once, and each build is forked
#: from it ready to compute (a fresh interpreter took 0.4-0.8 s to import them on the
#: development machine: docs/benchmarks.md, "A house rule's first Tipp").
_PRELOAD = (
    "numpy",
    "kniffel.solver.builds",
    "kniffel.solver.exact.column",
    "kniffel.solver.exact.chance_table",
    "kniffel.solver.raufrunter.bounds",
)


def _processes() -> SpawnContext | ForkServerContext:
    """How build processes start: forked from the fork server where the platform has one (it
    is started with the builder's worker, :func:`_start_server`), else spawned."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(_PRELOAD))  # for a server not started yet
    return context


def _start_server() -> None:
    """Starts the fork server now, in the background (it imports :data:`_PRELOAD` while the
    board goes on), so that the first build does not wait for its imports."""
    if _processes().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


#: Who asks in this request (an address), set by the web layer for each request: the bot seats
#: count the builds a request starts through them against it (docs/deploy.md, "Limits").
asking: ContextVar[str | None] = ContextVar("kniffel_asking_client", default=None)


class _Stop(Exception):
    """Raised in a build process when the worker wants its turn for a game's table."""


class BuildsBusy(Exception):
    """No new house rules' tables are queued now: the queue is full (``reason``
    ``queue_full``) or this client started its share (``client_limit``); ask again in
    ``retry_after`` seconds."""

    def __init__(self, reason: str, retry_after: int) -> None:
        self.reason = reason
        self.retry_after = retry_after
        super().__init__(f"no table builds now ({reason}); ask again in {retry_after} s")


@dataclass(frozen=True, slots=True)
class Readiness:
    """Where a variant's tables stand: ready, being built (``progress`` 0..1), or missing."""

    ready: bool
    building: bool
    progress: float


def _build_in_child(
    table: Table,
    progress: Synchronized[float],
    results: Connection,
    where: cache.TablePlace,
    stop: Synchronized[int] | None = None,
    workers: int = 1,
    nice: int | None = None,
) -> None:
    """In the child process: build ``table`` at ``where`` (the parent's place: a fresh
    interpreter knows no place passed in); a column table goes to the disk cache, the ↓↑
    table's values are sent back through ``results``. When ``stop`` is set the build ends at
    its next progress report, before it writes anything (exit code :data:`_STOPPED`).
    ``workers``: the processes a value table is built by (:data:`GAME_WORKERS`); ``nice``:
    the parent's setting of the background's priority."""
    lower_this_process(nice)  # requests come first (kniffel.priority)
    with cache.using(where):
        try:
            _build_here(table, progress, results, stop, workers)
        except _Stop:
            raise SystemExit(_STOPPED) from None


def _build_here(
    table: Table,
    progress: Synchronized[float],
    results: Connection,
    stop: Synchronized[int] | None = None,
    workers: int = 1,
) -> None:
    """Build ``table`` in this process, at the place passed in."""
    if table.discipline is None:
        from kniffel.solver.raufrunter.bounds import arrow_table

        solved = arrow_table(table.options, workers=workers)  # to the disk cache if it can be
        if not stored.is_stored(solved.options):
            results.send(solved.values)
        return

    from kniffel.solver.exact.column import solve_column

    def report(done: int, total: int) -> None:
        if stop is not None and stop.value:
            raise _Stop()
        progress.value = done / total

    if table.finals:
        from kniffel.solver.chances.finals_table import build_finals, save_finals

        column = ColumnSpec("main", "main", table.discipline)
        rules = Variant("finals", "finals", (column,), table.options)
        save_finals(build_finals(rules, progress=report))
        return
    if table.chances:
        from kniffel.solver.exact.chance_table import column_chances

        column_chances(table.options, table.discipline, progress=report)
        return
    solve_column(table.options, table.discipline, progress=report, workers=workers)


class TableBuilds:
    """The board's table builder: one worker thread, one build at a time, a deduplicated queue."""

    def __init__(
        self,
        queue_limit: int = QUEUE_LIMIT,
        per_client: int = PER_CLIENT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.queue_limit = queue_limit
        self.per_client = per_client
        self._clock = clock
        #: The house rules (their options) each client queued new tables of, and when, within
        #: :data:`CLIENT_WINDOW`: one combination counts once, however often it is asked for.
        self._clients: dict[str, dict[Options, float]] = {}
        self._presets = frozenset(preset_tables())
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        #: The tables waiting, by tier (:data:`FIRST`, :data:`NEXT`, :data:`BACKGROUND`).
        self._tiers: tuple[deque[Table], ...] = (deque(), deque(), deque())
        self._running: Table | None = None
        self._running_tier = BACKGROUND
        #: Set to stop the running build process for a game's table (its turn comes again).
        self._stop: Synchronized[int] | None = None
        self._progress = 0.0
        self._child_progress: Synchronized[float] | None = None
        self._ready: set[Table] = set()
        self._stopped = False
        self._worker: threading.Thread | None = None
        self._child: multiprocessing.process.BaseProcess | None = None
        #: Every table this builder started a build process for, in order.
        self.built: list[Table] = []
        self._listeners: list[Callable[[], None]] = []

    def on_built(self, listener: Callable[[], None]) -> None:
        """Calls ``listener()`` (in the worker thread) after each table the worker finished."""
        with self._lock:
            self._listeners.append(listener)

    # ----------------------------------------------------------------- asking

    def is_ready(self, table: Table) -> bool:
        """Whether ``table`` can be read now without building (held, or on disk).

        A column table counts as used by this look (for the cache's least-recently-used order).
        """
        with self._lock:
            known = table in self._ready
        if table.discipline is None:
            return known or _arrows_ready(table.options)
        if known:
            if cache.touch(_path(table)):
                return True
            with self._lock:  # evicted from the disk cache meanwhile
                self._ready.discard(table)
            return False
        if not self._on_disk(table):
            return False
        with self._lock:
            self._ready.add(table)
        return True

    def readiness(self, variant: Variant) -> Readiness:
        """Whether ``variant``'s tables are ready, being built (queued counts), or missing
        (never ready where the solver has none: :func:`solvable`)."""
        if not solvable(variant):
            return Readiness(False, False, 0.0)
        tables = tables_for(variant)
        missing = [t for t in tables if not self.is_ready(t)]
        if not missing:
            return Readiness(True, False, 1.0)
        with self._lock:
            pending = set(self._waiting())
            if self._running is not None:
                pending.add(self._running)
            if not all(t in pending for t in missing):
                return Readiness(False, False, 0.0)
            done = float(len(tables) - len(missing))
            if self._running in missing:
                done += self._current_progress()
        return Readiness(False, True, done / len(tables))

    def request(self, variant: Variant, client: str | None = None) -> Readiness:
        """Queues ``variant``'s missing tables (once each) first (:data:`FIRST`: before the
        presets' and before other games' chance tables), then its chance table (:data:`NEXT`);
        where the tables (not the chance table) stand now.

        New tables of house rules are bounded: :class:`BuildsBusy` when the queue holds
        :attr:`queue_limit` of them, or when ``client`` (an address; ``None``: the board
        itself, e.g. a bot seat) queued :attr:`per_client` new combinations within
        :data:`CLIENT_WINDOW`. Tables already queued or running cost nothing more.
        """
        values = tuple(t for t in tables_for(variant) if not self.is_ready(t))
        chances = tuple(t for t in chance_tables_for(variant) if not self.is_ready(t))
        with self._lock:
            waiting = set(self._waiting())
            new = [
                t
                for t in (*values, *chances)
                if t != self._running and t not in waiting and t not in self._presets
            ]
            if new and not self._stopped:
                self._admit(new, client)
        self.enqueue(values, FIRST)
        self.enqueue(chances, NEXT)
        return self.readiness(variant)

    def first(self, variant: Variant) -> None:
        """Moves ``variant``'s value tables that wait (queued at start, or for another game)
        to :data:`FIRST`; queues nothing new (a game that asks, key or not)."""
        values = tables_for(variant)
        with self._lock:
            waiting = set(self._waiting())
            pending = tuple(t for t in values if t in waiting or t == self._running)
        if pending:
            self.enqueue(pending, FIRST)

    def _admit(self, new: list[Table], client: str | None) -> None:
        """Raises :class:`BuildsBusy` unless ``new`` tables of house rules may be queued now
        (under the lock); counts them against ``client``."""
        waiting = sum(1 for t in self._waiting() if t not in self._presets)
        if waiting + len(new) > self.queue_limit:
            raise BuildsBusy("queue_full", _QUEUE_RETRY)
        if client is None:
            return
        now = self._clock()
        started = self._clients.setdefault(client, {})
        for rules in [r for r, when in started.items() if when <= now - CLIENT_WINDOW]:
            del started[rules]
        # A combination this client queued within the window costs nothing more: its chance
        # table after its values, a game's Tipp after its creation (docs/deploy.md, "Limits").
        fresh = {t.options for t in new} - started.keys()
        if not fresh:
            return
        if len(started) + len(fresh) > self.per_client:
            until = min(started.values(), default=now) + CLIENT_WINDOW
            raise BuildsBusy("client_limit", max(1, round(until - now)))
        started.update(dict.fromkeys(fresh, now))
        # Forget clients whose builds are all older than the window (the dict stays small).
        if len(self._clients) > 1024:
            for other, times in list(self._clients.items()):
                if not times or max(times.values()) <= now - CLIENT_WINDOW:
                    del self._clients[other]

    def enqueue(self, tables: Iterable[Table], tier: int = BACKGROUND) -> None:
        """Queues each of ``tables`` not queued or running already at the end of ``tier``; one
        queued in a later tier moves up. A :data:`FIRST` table stops a running build of a
        later tier (docs/solver.md, "Tables in the board")."""
        tables = tuple(tables)  # before the lock: a generator may look at readiness
        if self._worker is None and tables:
            _start_server()  # idempotent, and before the lock: it starts a process
        with self._lock:
            if self._stopped:
                return
            for table in tables:
                if table == self._running:
                    self._running_tier = min(self._running_tier, tier)
                    continue
                now = next((k for k, q in enumerate(self._tiers) if table in q), None)
                if now is not None and now <= tier:
                    continue
                if now is not None:
                    self._tiers[now].remove(table)
                self._tiers[tier].append(table)
            if (
                self._tiers[FIRST]
                and self._running is not None
                and self._running_tier > FIRST
                and self._stop is not None
            ):
                self._stop.value = 1  # the child stops at its next progress report
            if any(self._tiers) and self._worker is None:
                self._worker = threading.Thread(target=self._work, name="table-builds", daemon=True)
                self._worker.start()
            self._wake.notify_all()

    def queued(self) -> tuple[Table, ...]:
        """The tables waiting for the worker, next first."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> tuple[Table, ...]:
        """The tables waiting, next first (under the lock)."""
        return tuple(t for tier in self._tiers for t in tier)

    @property
    def running(self) -> Table | None:
        """The table being built now, if any."""
        with self._lock:
            return self._running

    def wait(self, timeout: float | None = None) -> bool:
        """Blocks until the queue is worked off (or ``timeout`` seconds); whether it was."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._stopped or (not any(self._tiers) and self._running is None), timeout
            )

    def close(self) -> None:
        """Stops the worker: the queue is dropped and a running child process ended."""
        with self._lock:
            self._stopped = True
            for tier in self._tiers:
                tier.clear()
            child = self._child
            worker = self._worker
            self._wake.notify_all()
        if child is not None and child.is_alive():
            child.terminate()
        if worker is not None:
            worker.join(timeout=10)

    # ----------------------------------------------------------------- worker

    def _current_progress(self) -> float:
        child = self._child_progress
        return float(child.value) if child is not None else self._progress

    def _work(self) -> None:
        while True:
            with self._lock:
                while not any(self._tiers) and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                tier = next(k for k, q in enumerate(self._tiers) if q)
                table = self._tiers[tier].popleft()
                self._running = table
                self._running_tier = tier
                self._progress = 0.0
            stopped = False
            try:
                stopped = self._build(table)
            except Exception:  # the worker must go on with the next table
                _log.exception("building the table %s failed", table)
            with self._lock:
                if stopped and not self._stopped:  # its turn comes again, first of its tier
                    self._tiers[self._running_tier].appendleft(table)
                self._running = None
                self._stop = None
                self._child_progress = None
                self._wake.notify_all()
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener()
                except Exception:
                    _log.exception("a listener of the table builds failed")

    def _build(self, table: Table) -> bool:
        """Builds ``table`` unless it is ready; whether its build was stopped for a game's
        table (then it wrote nothing)."""
        if self.is_ready(table):
            return False  # built meanwhile (by another server sharing the cache), or on disk
        if table.discipline is None:
            try:
                values = self._run_child(table)
            except _Stop:
                return True
            if values is not None:  # the cache dir could not take it: kept in memory
                from kniffel.solver.raufrunter.bounds import keep_arrow_table

                keep_arrow_table(table.options, values)
            if _arrows_ready(table.options):
                with self._lock:
                    self._ready.add(table)
            return False
        with _one_builder():
            if not self._on_disk(table):
                try:
                    self._run_child(table)
                except _Stop:
                    return True
        if self._on_disk(table):
            with self._lock:
                self._ready.add(table)
        elif not self._stopped:
            _log.warning("the table %s was built but cannot be read from the cache", table)
        return False

    def _run_child(self, table: Table) -> Any:
        """Builds ``table`` in a child process; what it sent back (the ↓↑ values), if anything.
        Raises :class:`_Stop` when the child stopped for a game's table."""
        context = _processes()
        progress = context.Value("d", 0.0, lock=False)
        stop = context.Value("b", 0, lock=False)
        receiver, sender = context.Pipe(duplex=False)
        with self._lock:
            waited = self._running_tier == FIRST  # a game's own table: its players wait
        workers = GAME_WORKERS if waited else 1
        nice = waited_nice() if waited else background_nice()
        child = context.Process(
            target=_build_in_child,
            args=(table, progress, sender, cache.place(), stop, workers, nice),
            name="kniffel-table",
            # A daemonic process may not start processes of its own: a game's table built by
            # two is not one, so a server that ends meanwhile waits for it (seconds) instead
            # of ending it; every other build is ended with the server.
            daemon=workers == 1,
        )
        with self._lock:
            if self._stopped:
                return None
            self._child_progress = progress
            self._child = child
            self._stop = stop
            if self._tiers[FIRST] and self._running_tier > FIRST:
                stop.value = 1  # a game asked meanwhile: it has its turn at once
            self.built.append(table)
            child.start()
        sender.close()
        # A value or chance table's process writes its file only after its last progress
        # report (whole, under a temporary name first), so a stop ends it at once instead of at
        # its next report (a chance table's reports came up to 1.2 s apart on a busy machine):
        # before its first report it has only read (its interpreter's start, the value table it
        # reads) unless a chance table's process builds that value table first, and between
        # its first and its last it only computes. The ↓↑ table makes no reports and writes
        # its file at its end, whole under a temporary name (kniffel.solver.raufrunter.stored),
        # so a stop ends it at once too (a game's own is never stopped). The finals table's stop
        # stays cooperative.
        column = table.discipline is not None and not table.finals
        readonly = table.discipline is None or (
            not table.finals
            and (not table.chances or cache.is_stored(table.options, table.discipline))
        )
        result = None
        ended = False
        with receiver:
            while child.is_alive() or receiver.poll():
                if receiver.poll(_POLL):
                    try:
                        result = receiver.recv()
                    except EOFError:
                        break
                done = progress.value
                computing = readonly if not done else column and done < 1
                if computing and stop.value and child.is_alive():
                    child.terminate()
                    ended = True
        child.join()
        with self._lock:
            self._child = None
            self._progress = float(progress.value)
        if stop.value and (child.exitcode == _STOPPED or ended):
            raise _Stop()
        if child.exitcode != 0 and not self._stopped:
            _log.warning("building the table %s ended with code %s", table, child.exitcode)
            return None
        return result

    @staticmethod
    def _on_disk(table: Table) -> bool:
        assert table.discipline is not None
        if table.finals:
            from kniffel.solver.chances import finals_table

            return finals_table.is_stored(table.options, table.discipline)
        if table.chances:
            # A whole chance file (written atomically) with the value table beside it.
            return _path(table).exists() and cache.is_stored(table.options, table.discipline)
        # The file's key, not its values: the worker looks at every preset table at start.
        if not cache.is_stored(table.options, table.discipline):
            return False
        cache.touch(cache.column_path(table.options, table.discipline))
        return True


def _arrows_ready(options: Options) -> bool:
    """Whether the ↓↑ table of ``options`` is stored on disk (one kept in memory is known)."""
    return stored.is_stored(stored.arrows_key(options))


def _path(table: Table) -> Path:
    """The file of a column table or of its chance table (``chances-`` before the name), or the
    key file of its finals table (``finals-``)."""
    assert table.discipline is not None
    path = cache.column_path(table.options, table.discipline)
    if table.finals:
        return path.with_name("finals-" + path.name)
    return path.with_name("chances-" + path.name) if table.chances else path


@contextmanager
def _one_builder() -> Iterator[None]:
    """Holds the cache directory's build lock: servers sharing the cache build one at a time."""
    directory = cache.cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle = (directory / ".build.lock").open("a")
    except OSError:
        yield  # no cache to share: nothing to take turns on
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
