"""The game review (Spielbericht) without HTTP: computed once per game version, its
figures written into the finished game's summary rows, its chart kept per language.

The review is made from the game's analysis (the Tipp's per-decision values), which the
advice keeps per version; this service is handed the function that reads it, so a page, its
chart and its JSON cost one analysis (docs/board.md, "Spielbericht").

No request makes a review (a game nobody has reviewed costs a quarter of a CPU-second and
more): the review page, the full table, their JSON and the chart ask :meth:`ReviewService.ask`,
which answers the review when it is made (by the background thread once a game is finished, or
by this queue) and otherwise queues it (:class:`~kniffel.board.queued.Queued`, :data:`QUEUE`
waiting and :data:`PER_CLIENT` per client, a newer version of a game replacing its waiting
older one) and answers at once how far it is, so nobody can make a request cost a whole
review (issue 21).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kniffel.board.queued import Busy, Queued
from kniffel.board.service import GameView
from kniffel.kept import Kept
from kniffel.store.results import ResultStore

if TYPE_CHECKING:  # the solver (numpy) is imported by the first review, not at start
    from kniffel.solver.advice.analysis import Analysis
    from kniffel.solver.advice.review import Review

__all__ = ["PER_CLIENT", "QUEUE", "Busy", "Review", "ReviewService"]

#: Reviews waiting to be made, at most (all clients together).
QUEUE = 8
#: Reviews one client may have waiting.
PER_CLIENT = 2


class ReviewService:
    """Reviews of stored games, kept per (game, version); one per app (``app.state.reviews``)."""

    def __init__(
        self,
        results: ResultStore,
        analysis: Callable[[GameView], Analysis],
        analysed: Callable[[GameView], Analysis | None] = lambda _: None,
    ) -> None:
        self.results = results
        self.analysis = analysis  # the advice's analysis, kept per version
        self.analysed = analysed  # the advice's analysis if it is kept (nothing computed)
        self._reviews: Kept[tuple[str, int], Review] = Kept()
        self._charts: Kept[tuple[str, int, str], str] = Kept()
        self.queued: Queued[tuple[str, int], Review] = Queued(
            "reviews", queue=QUEUE, per_client=PER_CLIENT, kept=QUEUE
        )

    def review(self, view: GameView, *, store: bool = True) -> Review:
        """The review of ``view`` at its version (computed once per version).

        With ``store``, a finished game's figures go into its summary rows (the players'
        mean accuracy and loss per decision come from there).
        """

        def compute() -> Review:
            from kniffel.solver.advice.review import review_of

            found = review_of(self.analysis(view), view.game)
            if store and view.game.is_finished:
                self.store_figures(view, found)
            return found

        return self._reviews.get((view.id, view.version), compute)

    def ask(self, view: GameView, client: str) -> Review | float:
        """The review of ``view`` at its version if it is made; else how far its work is (0 to
        1), queued for the service's worker (which stores a finished game's figures as
        :meth:`review` does). Raises :class:`~kniffel.board.queued.Busy` when the queue or
        ``client``'s share of it is full."""
        made = self._reviews.find((view.id, view.version))
        if made is not None:
            return made
        return self.queued.ask(
            (view.id, view.version), client, lambda _: self.review(view), kind=view.id
        )

    def analysis_of(self, view: GameView, client: str) -> Analysis | float:
        """The analysis of ``view`` at its version if it is kept or its review made; else as
        :meth:`ask` (the review's work makes the analysis too)."""
        kept = self.analysed(view)
        if kept is not None:
            return kept
        made = self.ask(view, client)
        return made if isinstance(made, float) else made.analysis

    def store_figures(self, view: GameView, review: Review) -> None:
        figures = [(p.accuracy, p.loss, p.decisions) for p in review.players]
        self.results.set_review(view.id, view.version, figures)

    def chart(
        self, view: GameView, lang: str, draw: Callable[[Review], str], client: str
    ) -> str | float:
        """The review's chart in ``lang``, drawn by ``draw`` once per version and language
        from the review made; before it is made, how far its work is (0 to 1), queued for
        the service's worker. Raises :class:`~kniffel.board.queued.Busy` when the queue or
        ``client``'s share of it is full."""
        key = (view.id, view.version, lang)
        drawn = self._charts.find(key)
        if drawn is not None:
            return drawn
        made = self.ask(view, client)
        if isinstance(made, float):
            return made
        return self._charts.get(key, lambda: draw(made))

    def close(self) -> None:
        self.queued.close()

    @staticmethod
    def severity(loss: float) -> str | None:
        """How grave a decision that lost ``loss`` points was (``patzer``, …), or ``None``."""
        from kniffel.solver.advice.review import severity

        return severity(loss)
