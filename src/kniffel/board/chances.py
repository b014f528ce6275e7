"""Win chances for the board: each game version's figures, and the end-of-game chart drawn
off the request (docs/board.md, "Gewinnchancen"; docs/solver.md, "Win chances").

- :meth:`ChancesService.chances`: every player's chance now (:func:`forecast`), computed
  once per game version. After an entry only the sheet that changed is simulated again;
  even so a simulated sheet costs up to seconds, so no request computes it either: the
  first asks the live queue (:class:`~kniffel.board.queued.Queued`: :data:`LIVE_QUEUE`
  overall, :data:`LIVE_PER_CLIENT` per client, a newer version of a game replacing its
  waiting older one) and answers how far it is; the board's page asks again until the
  figures are there (docs/api.md, "Answers that fill in").
- :meth:`ChancesService.chart`: the chart of the chances after every entry. The series
  values every position of the game (a forecast after each entry: seconds for a two-player
  Rauf-Runter game, a minute or more for eight players on a busy machine), so no request
  computes it: the first one queues it and answers at once that it is being drawn; one
  worker thread draws the charts one after the other and keeps the latest :data:`KEPT`.
  The queue holds at most ``queue`` charts, and one client at most ``per_client`` of them
  (:class:`ChartsBusy` beyond), so nobody can pile up work for everybody; the worker runs
  at a lower priority than the requests (``nice`` 10).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kniffel.board.queued import Busy, Queued
from kniffel.board.views import GameView
from kniffel.kept import Kept
from kniffel.locales import Translator
from kniffel.rules import Game, Variant

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.solver.chances.forecast import Chances
    from kniffel.solver.chances.series import Series

__all__ = [
    "KEPT",
    "LIVE_KEPT",
    "LIVE_PER_CLIENT",
    "LIVE_QUEUE",
    "PER_CLIENT",
    "QUEUE",
    "Busy",
    "ChancesService",
    "ChartsBusy",
]

#: Charts waiting to be drawn, at most (all clients together).
QUEUE = 8
#: Charts one client may have waiting.
PER_CLIENT = 2
#: Series and charts kept once drawn.
KEPT = 16
#: Seconds a refused client is told to wait.
RETRY_AFTER = 10
#: Live chances (one game version each) waiting to be worked out, at most (all clients).
LIVE_QUEUE = 16
#: Live chances one client may have waiting (a device at the table asks for one at a time).
LIVE_PER_CLIENT = 4
#: Live chances kept once worked out (the versions the boards show).
LIVE_KEPT = 64


class ChancesPending(Exception):
    """The chances of a Jamb or Yams game at this version are being simulated in the
    background: ``progress`` from 0 to 1 (ask again)."""

    def __init__(self, progress: float) -> None:
        super().__init__(f"the win chances are being simulated ({progress:.0%})")
        self.progress = progress


class ChartsBusy(Exception):
    """The chart queue is full, or this client already has its share waiting."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"charts busy: {reason}")
        self.reason = reason
        self.retry_after = RETRY_AFTER


@dataclass(frozen=True)
class _Job:
    key: tuple[str, int, str]  # game id, version, language
    client: str
    game: Game
    words: tuple[tuple[str, str], ...]  # the chart's words in the language


class ChancesService:
    """The board's win chances: one per app (``app.state.chances``)."""

    def __init__(
        self,
        queue: int = QUEUE,
        per_client: int = PER_CLIENT,
        live_queue: int = LIVE_QUEUE,
        live_per_client: int = LIVE_PER_CLIENT,
    ) -> None:
        self.queue = queue
        self.per_client = per_client
        self.live: Queued[tuple[str, int], Chances] = Queued(
            "chances-live", queue=live_queue, per_client=live_per_client, kept=LIVE_KEPT
        )
        self._series: Kept[tuple[str, int], Series] = Kept(KEPT)
        self._lock = threading.Condition()
        self._charts: Kept[tuple[str, int, str], str] = Kept(KEPT)
        self._waiting: deque[_Job] = deque()
        self._drawing: _Job | None = None
        self._closed = False
        self._worker: threading.Thread | None = None
        #: Series computed so far (what the tests and the cost benchmark count).
        self.series_computed = 0

    # ------------------------------------------------------------------ now

    def chances(self, view: GameView, client: str) -> Chances | float:
        """The chances of a stored game at its version if they are worked out (once per
        version); else how far their work is (0 to 1), queued for the live worker. Raises
        :class:`~kniffel.board.queued.Busy` when the live queue or ``client``'s share is full."""
        game = view.game

        def work(progress: Callable[[float], None]) -> Chances:
            from kniffel.solver.chances.forecast import forecast

            return forecast(game, progress=progress)

        return self.live.ask((view.id, view.version), client, work, kind=view.id)

    @staticmethod
    def series_apart(variant: Variant) -> bool:
        """Whether ``variant``'s chances are simulated game by game (Jamb and Yams): no chart
        of every position is drawn for it (each would be thousands of bot games)."""
        from kniffel.solver.builds import solvable

        return not solvable(variant)

    # ---------------------------------------------------------------- chart

    def chart(self, view: GameView, lang: str, words: Mapping[str, str], client: str) -> str | None:
        """The chart's SVG if it is drawn; else ``None``, and it is queued (once).

        ``words``: the chart's title and axis labels in ``lang``. Raises :class:`ChartsBusy`
        when the queue is full or ``client`` has :attr:`per_client` charts waiting.
        """
        key = (view.id, view.version, lang)
        with self._lock:
            drawn = self._charts.find(key)
            if drawn is not None:
                return drawn
            if (self._drawing is not None and self._drawing.key == key) or any(
                job.key == key for job in self._waiting
            ):
                return None
            if self._closed:
                raise ChartsBusy("closed")
            if len(self._waiting) >= self.queue:
                raise ChartsBusy("queue")
            if sum(job.client == client for job in self._waiting) >= self.per_client:
                raise ChartsBusy("client")
            self._waiting.append(_Job(key, client, view.game, tuple(words.items())))
            self._start()
            self._lock.notify_all()
        return None

    def waiting(self) -> int:
        """Charts queued or being drawn."""
        with self._lock:
            return len(self._waiting) + (self._drawing is not None)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until no chart is queued or being drawn (tests, shutdown)."""
        with self._lock:
            return self._lock.wait_for(
                lambda: not self._waiting and self._drawing is None, timeout=timeout
            )

    def open(self) -> None:
        """Take work again after :meth:`close` (an app's lifespan may start more than once)."""
        self.live.open()
        with self._lock:
            self._closed = False

    def close(self) -> None:
        self.live.close()
        with self._lock:
            self._closed = True
            self._waiting.clear()
            self._lock.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=60)

    def _start(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="chances-charts", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        with contextlib.suppress(OSError, AttributeError):  # lower priority: Linux threads only
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                job = self._drawing = self._waiting.popleft()
            try:
                svg = self._draw(job)
            except Exception:  # a chart that cannot be drawn must not stop the others
                svg = None
            with self._lock:
                if svg is not None:
                    self._charts.put(job.key, svg)
                self._drawing = None
                self._lock.notify_all()

    def _draw(self, job: _Job) -> str:
        from kniffel.charts.chances import chances_chart_svg

        game_id, version, lang = job.key
        series = self._series.get((game_id, version), lambda: self._series_of(job.game))
        # The page's language writes the numbers and the description too (docs/board.md).
        return chances_chart_svg(series, Translator(lang), **dict(job.words))

    def _series_of(self, game: Game) -> Series:
        from kniffel.solver.chances.series import chances_over

        self.series_computed += 1
        return chances_over(game, cancelled=lambda: self._closed)
