"""The game review (Spielbericht) without HTTP: computed once per game version, its
figures written into the finished game's summary rows, its chart kept per language.

The review is made from the game's analysis (the Tipp's per-decision values), which the
advice keeps per version; this service is handed the function that reads it, so a page, its
chart and its JSON cost one analysis (docs/board.md, "Spielbericht").

The chart is drawn only from a review already made (by the background thread once a game is
finished, or by the review page): a chart asked for before is queued
(:class:`~kniffel.board.queued.Queued`, :data:`QUEUE` waiting and :data:`PER_CLIENT` per
client) and its request answers at once how far it is, so nobody can make a request of the
chart cost a whole review (issue 21).
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

#: Reviews waiting for a chart, at most (all clients together).
QUEUE = 4
#: Reviews one client may have waiting for a chart.
PER_CLIENT = 2


class ReviewService:
    """Reviews of stored games, kept per (game, version); one per app (``app.state.reviews``)."""

    def __init__(self, results: ResultStore, analysis: Callable[[GameView], Analysis]) -> None:
        self.results = results
        self.analysis = analysis  # the advice's analysis, kept per version
        self._reviews: Kept[tuple[str, int], Review] = Kept()
        self._charts: Kept[tuple[str, int, str], str] = Kept()
        self.queued: Queued[tuple[str, int], Review] = Queued(
            "review-charts", queue=QUEUE, per_client=PER_CLIENT, kept=QUEUE
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
        made = self._reviews.find((view.id, view.version))
        if made is None:
            asked = self.queued.ask(
                (view.id, view.version), client, lambda _: self.review(view), kind=view.id
            )
            if isinstance(asked, float):
                return asked
            made = asked
        found = made
        return self._charts.get(key, lambda: draw(found))

    def close(self) -> None:
        self.queued.close()

    @staticmethod
    def severity(loss: float) -> str | None:
        """How grave a decision that lost ``loss`` points was (``patzer``, …), or ``None``."""
        from kniffel.solver.advice.review import severity

        return severity(loss)
