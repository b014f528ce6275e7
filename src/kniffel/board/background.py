"""Figures the board computes in the background: one thread, one chore at a time.

The player pages read figures that cost seconds of CPU to compute (docs/board.md, "Spieler
und Bestenliste"), so no request waits for them:

- **reviews** (:class:`Reviews`): every finished game's review (accuracy, loss per decision)
  goes into its summary rows soon after the game ends, not only when somebody opens the
  review; games finished before (migrated or imported) are reviewed the same way, newest
  first. A game is reviewed only once its house rules' solved tables are ready: the
  background never starts a table build (docs/solver.md, "Tables in the board"); when a
  build finishes, the games waiting for it are looked at again.
- **yardsticks**: the best bot's mean and spread for house rules without documented figures,
  simulated a chunk of games at a time once a player page asked for them
  (:class:`kniffel.board.players.yardstick.Simulations`).
- **the CSVs** (:meth:`PlayerService.refresh_csvs`): a CSV downloaded while older than a minute
  is made anew from every summary row here, not in the download (issue 33).

One thread (:class:`Background`) calls each chore in turn; a chore does one bounded piece
of work (one review, one batch of simulated games) and says whether it found work, so the
thread never holds the server busy for long and sleeps when nothing is left. It runs at a
lower priority (``nice`` 10 for the thread, on Linux) and stops with the app.
``KNIFFEL_BACKGROUND=false`` switches it off (docs/cli.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kniffel.board.errors import BoardError
from kniffel.board.outages import Outages, is_outage
from kniffel.board.players.service import PlayerService
from kniffel.board.reviews import ReviewService
from kniffel.board.service import GameService, GameView
from kniffel.priority import lower_this_thread
from kniffel.solver.builds import TableBuilds, solvable
from kniffel.store.results import ResultStore

if TYPE_CHECKING:  # the solver (numpy) is imported by the first review, not at start
    from kniffel.solver.advice.review import Review

__all__ = ["Background", "Reviews", "start"]

_log = logging.getLogger(__name__)

Chore = Callable[[], bool]


class Background:
    """Calls ``chores`` one after the other in one thread; sleeps ``poll`` s when none had work."""

    def __init__(
        self,
        chores: Sequence[Chore],
        poll: float = 2.0,
        first: float = 5.0,
        rest: float = 0.2,
        guard: Callable[[], None] | None = None,
    ) -> None:
        self.chores = list(chores)
        #: Raises an outage before a round when the database cannot be used safely.
        self.guard: list[Chore] = [] if guard is None else [lambda: bool(guard())]
        self.poll = poll  # seconds between looks when there was nothing to do
        self.first = first  # seconds before the first look: never during the server's start
        self.rest = rest  # seconds between two pieces of work: requests get the interpreter
        self._wake = threading.Event()
        self._stop = threading.Event()
        #: A database outage is one warning and one line when it is over, not a traceback
        #: per chore and look (docs/deploy.md, "Limits at the edge").
        self._outages = Outages(_log, "the background waits for it")
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="kniffel-background", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Look for work now instead of after the pause."""
        self._wake.set()

    def close(self, timeout: float = 10.0) -> None:
        """Stops after the chore at hand (waiting at most ``timeout`` seconds)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        lower_this_thread()  # below the requests (kniffel.priority)
        self._stop.wait(self.first)
        while not self._stop.is_set():
            busy = down = False
            # The guard first (the store's files usable): a chore on a file that is not killed
            # the process (kniffel.store.database.check_wal_index).
            for chore in [*self.guard, *self.chores]:
                if self._stop.is_set():
                    return
                try:
                    busy = chore() or busy
                except Exception as error:  # a chore must never end the thread (it logs, waits)
                    if not is_outage(error):
                        _log.exception("background chore %r failed", chore)
                        continue
                    self._outages.seen(error)
                    busy, down = False, True
                    break  # the other chores meet the same database: all wait for it
            if not down:
                self._outages.back()  # a whole round without an outage: it is over
            if busy:
                self._stop.wait(self.rest)
            else:
                self._wake.wait(self.poll)
                self._wake.clear()


class Reviews:
    """The chore that reviews finished games without review figures, one game per call."""

    def __init__(
        self,
        service: GameService,
        results: ResultStore,
        tables: TableBuilds,
        review: Callable[[GameView], Review],
    ) -> None:
        self.service = service
        self.results = results
        self.tables = tables
        self.review = review  # kniffel.board.reviews.ReviewService.review: kept per version
        self._seen = -1  # results.summarised when last looked: new finished games since?
        self._waiting: set[tuple[str, int]] = set()  # tables not ready, or it failed
        self._more = True  # the last look found more games than it took
        tables.on_built(self._tables_built)

    def _tables_built(self) -> None:
        self._waiting.clear()
        self._more = True

    def __call__(self) -> bool:
        """Reviews one finished game that has no review figures; whether there was one."""
        self.results.sync()
        if not self._more and self.results.summarised == self._seen:
            return False
        self._seen = self.results.summarised
        looked = self.results.unreviewed(limit=len(self._waiting) + 20)
        candidates = [g for g in looked if g not in self._waiting]
        if not candidates:
            self._more = False
            return False
        game_id, version = candidates[0]
        self._more = True
        try:
            view = self.service.get(game_id)
        except BoardError:
            self._waiting.add((game_id, version))
            return True
        if view.version != version or (
            solvable(view.variant) and not self.tables.readiness(view.variant).ready
        ):
            # A newer version is summarised at the next sync; missing tables wait for a build.
            self._waiting.add((game_id, version))
            return True
        try:
            found = self.review(view)
        except Exception:
            self._waiting.add((game_id, version))
            raise
        # Written here too: a review kept from an earlier request is not computed again.
        figures = [(p.accuracy, p.loss, p.decisions) for p in found.players]
        self.results.set_review(game_id, version, figures)
        if (game_id, version) in self.results.unreviewed(limit=len(self._waiting) + 20):
            self._waiting.add((game_id, version))  # not stored: do not loop on it
        return True


def start(
    games: GameService, players: PlayerService, reviews: ReviewService, tables: TableBuilds
) -> Background:
    """The board's background thread with its chores, started (in the app's lifespan once
    the store is open, unless ``KNIFFEL_BACKGROUND=false``): the reviews, and the best bot's
    yardsticks when ``players`` simulates them. A player page that asks for a yardstick
    wakes it."""
    chores: list[Chore] = [
        Reviews(games, players.results, tables, lambda view: reviews.review(view, store=False))
    ]
    if players.simulations is not None:
        chores.append(players.simulations.step)
    chores.append(players.refresh_csvs)
    players.csvs_in_background = True
    background = Background(chores, guard=games.store.check_files)
    players.wake = background.wake
    background.start()
    return background
