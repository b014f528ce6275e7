"""Win chances for the board: each game version's figures, and the end-of-game chart drawn
off the request (docs/board.md, "Gewinnchancen"; docs/solver.md, "Win chances").

- :meth:`ChancesService.chances`: every player's chance now (:func:`forecast`), computed
  once per game version. After an entry only the sheet that changed is simulated again;
  even so a simulated sheet costs up to seconds, so no request computes it either: the
  first asks the live queue (:class:`~kniffel.board.queued.Queued`: :data:`LIVE_QUEUE`
  overall, :data:`LIVE_PER_CLIENT` per client, a newer version of a game replacing its
  waiting older one) and answers how far it is; the board's page asks again until the
  figures are there (docs/api.md, "Answers that fill in"). Jamb's and Yams's first answer
  is then narrowed by the same worker (:mod:`kniffel.solver.chances.refine`): asked while
  its figures say ``refining``, the service queues the narrowing of the game's newest version
  (once), which keeps each narrower answer as it comes, steps aside while other work waits
  (asked again, it goes on from there) and stops at once when the game has a newer version
  (:meth:`ChancesService.after_change` hears every stored change).
- :meth:`ChancesService.chart`: the chart of the chances after every entry (Jamb and Yams:
  after every round, from a bounded number of bot games, :mod:`kniffel.solver.chances.rounds`).
  The series values every position of the game (a forecast after each entry: seconds for a
  two-player Rauf-Runter game, a minute or more for eight players on a busy machine; a Jamb
  or Yams chart costs at most ``chart_work`` units, some 40 s of CPU by default), so no request
  computes it: the first one queues it and answers at once that it is being drawn; one
  worker thread draws the charts one after the other and keeps the latest :data:`KEPT`.
  The queue (a :class:`~kniffel.board.queued.Queued` keyed by game, version and language)
  holds at most ``queue`` charts, and one client at most ``per_client`` of them
  (:class:`~kniffel.board.queued.Busy` beyond), so nobody can pile up work for everybody; the
  worker runs at a lower priority than the requests (``nice`` 10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
]

#: Charts waiting to be drawn, at most (all clients together).
QUEUE = 8
#: Charts one client may have waiting.
PER_CLIENT = 2
#: Series and charts kept once drawn.
KEPT = 16
#: Live chances (one game version each) waiting to be worked out, at most (all clients).
LIVE_QUEUE = 16
#: Live chances one client may have waiting (a device at the table asks for one at a time).
LIVE_PER_CLIENT = 4
#: Live chances kept once worked out (the versions the boards show).
LIVE_KEPT = 64
#: Games whose newest version the service knows (a number each): the narrowing of an older
#: version stops.
NEWEST_KEPT = 4096


class ChancesPending(Exception):
    """The chances of a Jamb or Yams game at this version are being simulated in the
    background: ``progress`` from 0 to 1 (ask again)."""

    def __init__(self, progress: float) -> None:
        super().__init__("the win chances are being simulated")
        self.progress = progress


class ChancesService:
    """The board's win chances: one per app (``app.state.chances``)."""

    def __init__(
        self,
        queue: int = QUEUE,
        per_client: int = PER_CLIENT,
        live_queue: int = LIVE_QUEUE,
        live_per_client: int = LIVE_PER_CLIENT,
        chart_work: int | None = None,
        refine: int | None = None,
    ) -> None:
        """``chart_work``: the work of one Jamb or Yams chart (by default
        :data:`~kniffel.solver.chances.rounds.CHART_BUDGET`; the ``chart_work`` setting);
        ``refine``: a Jamb or Yams sheet's live chances from at most this many times their
        first answer's games (by default :data:`~kniffel.solver.chances.refine.CAP`; 1: no
        narrowing; the ``chances_refine`` setting)."""
        self.queue = queue
        self.chart_work = chart_work
        self.refine = refine
        self.per_client = per_client
        #: The first answers by (game, version, 0); the narrowings by (game, version, 1).
        self.live: Queued[tuple[str, int, int], Chances] = Queued(
            "chances-live", queue=live_queue, per_client=live_per_client, kept=LIVE_KEPT
        )
        #: The narrowest answer so far of each version being narrowed.
        self._narrowed: Kept[tuple[str, int], Chances] = Kept(LIVE_KEPT)
        #: The newest version stored or asked of each game: an older one's narrowing stops.
        self._newest: Kept[str, int] = Kept(NEWEST_KEPT)
        #: The end charts by (game, version, language), drawn one after the other.
        self.charts: Queued[tuple[str, int, str], str] = Queued(
            "chances-charts", queue=queue, per_client=per_client, kept=KEPT
        )
        self._series: Kept[tuple[str, int], Series] = Kept(KEPT)
        #: Series computed so far (what the tests and the cost benchmark count).
        self.series_computed = 0

    # ------------------------------------------------------------------ now

    def chances(self, view: GameView, client: str) -> Chances | float:
        """The chances of a stored game at its version if they are worked out (once per
        version); else how far their work is (0 to 1), queued for the live worker. Raises
        :class:`~kniffel.board.queued.Busy` when the live queue or ``client``'s share is full."""
        game = view.game
        self._newer(view)

        def work(progress: Callable[[float], None]) -> Chances:
            from dataclasses import replace

            from kniffel.solver.chances.forecast import family_forecast, forecast
            from kniffel.solver.chances.refine import first_counts, next_sheet

            if not self.series_apart(game.variant):
                return forecast(game, progress=progress)
            counts = first_counts(game, self.cap)
            found = family_forecast(game, counts, progress)
            more = next_sheet(game, found, counts, self.cap) is not None
            return replace(found, refining=more)

        found = self.live.ask((view.id, view.version, 0), client, work, kind=view.id)
        if isinstance(found, float) or not found.refining:
            return found
        return self._narrowing(view, found, client)

    def after_change(self, view: GameView) -> None:
        """After a stored change (``GameService.on_change``): the game's older versions are
        superseded, whether or not anybody asks for this one's chances."""
        self._newer(view)

    def _newer(self, view: GameView) -> None:
        newest = self._newest.peek(view.id)
        if newest is None or view.version > newest:
            self._newest.put(view.id, view.version)

    @property
    def cap(self) -> int:
        from kniffel.solver.chances.refine import CAP

        return CAP if self.refine is None else self.refine

    def superseded(self, view: GameView) -> bool:
        """Whether ``view``'s game has a newer version (stored or asked for)."""
        newest = self._newest.peek(view.id)
        return newest is not None and newest > view.version

    def _narrowing(self, view: GameView, first: Chances, client: str) -> Chances:
        """The narrowest chances of ``view`` so far; their narrowing queued (once) while they
        say ``refining`` and the version is the game's newest."""
        from dataclasses import replace

        key = (view.id, view.version)
        latest = self._narrowed.find(key) or first
        if not latest.refining:
            return latest
        if self.superseded(view):
            return replace(latest, refining=False)  # nobody narrows it any more
        game = view.game

        def work(progress: Callable[[float], None]) -> Chances:
            from kniffel.solver.chances.refine import narrowed

            def told(share: float) -> None:
                if self.superseded(view):
                    raise Busy("superseded")  # a newer entry: stop at once
                progress(share)

            last = latest
            for last in narrowed(game, latest, cap=self.cap, progress=told):
                self._narrowed.put(key, last)
                if last.refining and (self.live.waiting() > 1 or self.superseded(view)):
                    raise Busy("yield")  # other work first; asked again, it goes on
            return last

        try:
            found = self.live.ask((view.id, view.version, 1), client, work, kind=view.id)
        except Busy:  # the queue is full: asked again, it is queued then
            return latest
        except Exception:  # the narrowing failed (logged by the queue): the figures stay
            return replace(latest, refining=False)
        return latest if isinstance(found, float) else found

    @staticmethod
    def series_apart(variant: Variant) -> bool:
        """Whether ``variant``'s chances are simulated game by game (Jamb and Yams): its chart
        has a point per round, not per entry, from a bounded number of bot games (each
        position would be thousands of them)."""
        from kniffel.solver.builds import solvable

        return not solvable(variant)

    # ---------------------------------------------------------------- chart

    def chart(self, view: GameView, lang: str, words: Mapping[str, str], client: str) -> str | None:
        """The chart's SVG if it is drawn; else ``None``, and it is queued (once).

        ``words``: the chart's title and axis labels in ``lang``. Raises
        :class:`~kniffel.board.queued.Busy` when the queue is full or ``client`` has
        :attr:`per_client` charts waiting.
        """
        key = (view.id, view.version, lang)
        game, named = view.game, tuple(words.items())

        def work(_progress: Callable[[float], None]) -> str:
            return self._draw(key, game, named)

        try:
            found = self.charts.ask(key, client, work)
        except Busy:
            raise
        except Exception:  # it could not be drawn (logged by the queue): not drawn again
            return None
        return None if isinstance(found, float) else found

    def waiting(self) -> int:
        """Charts queued or being drawn."""
        return self.charts.waiting()

    def join(self, timeout: float | None = None) -> bool:
        """Wait until no chart is queued or being drawn (tests, shutdown)."""
        return self.charts.join(timeout)

    def open(self) -> None:
        """Take work again after :meth:`close` (an app's lifespan may start more than once)."""
        self.live.open()
        self.charts.open()

    def close(self) -> None:
        self.live.close()
        self.charts.close()

    def _draw(
        self, key: tuple[str, int, str], game: Game, words: tuple[tuple[str, str], ...]
    ) -> str:
        from kniffel.charts.chances import chances_chart_svg

        game_id, version, lang = key
        series = self._series.get((game_id, version), lambda: self._series_of(game))
        # The page's language writes the numbers and the description too (docs/board.md).
        return chances_chart_svg(series, Translator(lang), **dict(words))

    def _series_of(self, game: Game) -> Series:
        from kniffel.solver.chances.series import chances_over

        self.series_computed += 1
        if self.series_apart(game.variant):
            from kniffel.solver.chances.rounds import CHART_BUDGET, chances_by_round

            budget = CHART_BUDGET if self.chart_work is None else self.chart_work
            return chances_by_round(game, budget=budget, cancelled=lambda: self.charts.closed)
        return chances_over(game, cancelled=lambda: self.charts.closed)
