"""The Tipp and the analysis for the board: what the web asks of the solver, in one place
(docs/solver.md, "Advice and analysis"; docs/board.md, "Tipp"). Jamb and Yams sheets without
solver tables are valued by the ``best`` family bot's heuristic (:meth:`AdviceService.heuristic`).

One :class:`AdviceService` per app (``app.state.advice``) holds what is kept between requests:
the analyses by game version. The Tipp's simulated reasons are worked out by the solver's
background thread (:mod:`kniffel.solver.advice.reasons`); a request asks for them with a time
limit and answers with what is ready. "Auf Sieg" lists go through a bounded queue
(:class:`~kniffel.board.queued.Queued`: :data:`WINS_QUEUE` waiting, :data:`WINS_PER_CLIENT` per
client, one worker thread at ``nice`` 10), so no request works one out (issue 21). In a game
whose Tipp was asked lately, each person's turn is worked out ahead while the others play
(:meth:`AdviceService.after_change`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kniffel.board.queued import Busy, Queued
from kniffel.board.views import GameView
from kniffel.kept import Kept
from kniffel.rules import AnnounceAction, Dice, EnterAction, KniffelError, RollAction, Variant

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.board.tables import TableReadiness
    from kniffel.solver.advice.analysis import Analysis
    from kniffel.solver.advice.position import Choice, Position
    from kniffel.solver.advice.reasons import Reasons
    from kniffel.solver.chances.winbot import WinChoice

__all__ = [
    "AHEAD_FOR",
    "PENDING",
    "TIPP_GAMES",
    "WINS_KEPT",
    "WINS_PER_CLIENT",
    "WINS_QUEUE",
    "AdviceService",
    "Analysis",
    "Busy",
    "Position",
    "Reasons",
    "WinChoice",
    "WinsPending",
]

#: "Auf Sieg" lists waiting to be worked out, at most (all clients); beyond, a panel shows
#: none until asked again and the API answers 503 ``wins_busy``.
WINS_QUEUE = 8
#: "Auf Sieg" lists one client may have waiting (a device asks for one position at a time).
WINS_PER_CLIENT = 4
#: "Auf Sieg" lists kept once worked out.
WINS_KEPT = 64
#: Seconds after a game's last Tipp during which its turns are worked out ahead.
AHEAD_FOR = 30 * 60
#: Games remembered as asking for the Tipp, at most (the least recent fall out).
TIPP_GAMES = 64


class WinsPending:
    """The "Auf Sieg" list of a position is being worked out (ask again)."""


PENDING = WinsPending()


class AdviceService:
    """The Tipp, its reasons, "Auf Sieg" and the analysis of stored games."""

    def __init__(self, analyses: int = 32) -> None:
        self._analyses: Kept[tuple[str, int], Analysis] = Kept(analyses)
        #: The games whose simulated reasons were asked lately, with when (see after_change).
        self._tipp_games: Kept[str, float] = Kept(TIPP_GAMES)
        # The lists in a 1-tuple: a position without one (None) is worked out too.
        self.wins_queued: Queued[tuple[object, ...], tuple[list[WinChoice] | None]] = Queued(
            "auf-sieg", queue=WINS_QUEUE, per_client=WINS_PER_CLIENT, kept=WINS_KEPT
        )

    @staticmethod
    def is_exact(variant: Variant) -> bool:
        """Whether the Tipp's expected totals are exact (one column) or estimates."""
        from kniffel.solver.advice.position import is_exact

        return is_exact(variant)

    @staticmethod
    def heuristic(variant: Variant) -> bool:
        """Whether the Tipp of ``variant`` is the ``best`` family bot's heuristic (Jamb, Yams
        with sèche or annoncée: no solver tables, no optimum): then it lists keeps, entries
        and announcements, without the reasons and without "Auf Sieg" (docs/solver.md)."""
        from kniffel.solver.advice.family import is_heuristic

        return is_heuristic(variant)

    @staticmethod
    def position(view: GameView, dice: Dice | None, rolls: int) -> Position:
        """Every choice of the player to move with its expected final total; ``dice`` typed
        at the table count only before any roll is recorded."""
        from kniffel.solver.advice.position import evaluate

        game = view.game
        player = game.current_player()
        if dice is not None and (player is None or game.pending(player) is not None):
            dice = None
        return evaluate(game, dice, rolls)

    @staticmethod
    def choice_dict(choice: Choice, one_column: bool) -> dict[str, object]:
        from kniffel.solver.advice.analysis import choice_dict

        return choice_dict(choice, one_column)

    @staticmethod
    def exact_ready(builds: TableReadiness, variant: Variant) -> bool:
        """Whether the variant's chance table is built (one column only)."""
        from kniffel.solver.builds import chance_tables_for

        wanted = chance_tables_for(variant)
        return bool(wanted) and all(builds.is_ready(t) for t in wanted)

    def reasons_within(
        self, view: GameView, position: Position, top: int, exact: bool, seconds: float
    ) -> Reasons | float:
        """The chances now and after each of the first ``top`` choices, waiting at most
        ``seconds`` for simulated ones; else how far their computation is (0 to 1)."""
        from kniffel.solver.advice.reasons import pending

        self._tipp_games.put(view.id, time.monotonic())
        return pending(view.game, *_asked(position, top), exact=exact, seconds=seconds)

    def after_change(self, view: GameView) -> None:
        """After a stored change (``GameService.on_change``): in a game whose Tipp was asked
        within :data:`AHEAD_FOR` seconds, with simulated reasons (several columns), the start
        of each person's next turn (not a bot's) is worked out in the background while the
        others play, the soonest first, so that the Tipps of that turn read games already
        played (docs/solver.md, "The Tipp's reasons")."""
        asked = self._tipp_games.peek(view.id)
        if asked is None or time.monotonic() - asked > AHEAD_FOR:
            return
        game = view.game
        mover = game.current_player()
        if mover is None or self.heuristic(view.variant):
            return  # Jamb, Yams: no reasons (one column: reasons.ahead does nothing)
        from kniffel.solver.advice.reasons import ahead

        count = len(game.players)
        soonest_first = [(mover + k) % count for k in range(count)]
        for player in reversed(soonest_first):  # the latest wish is served first
            if game.players[player] not in view.bots:
                ahead(game, player)

    @staticmethod
    def wins(view: GameView, position: Position) -> list[WinChoice] | None:
        """The choices by their chance to finish first ("Auf Sieg"), with two players or more."""
        if len(view.game.players) < 2 or AdviceService.heuristic(view.variant):
            return None
        from kniffel.solver.chances.winbot import win_choices

        try:
            return win_choices(view.game, position.dice, max(position.rolls, 1))
        except KniffelError:
            return None

    def wins_within(
        self, view: GameView, position: Position, seconds: float, client: str
    ) -> list[WinChoice] | WinsPending | None:
        """:meth:`wins`, worked out by the service's "Auf Sieg" queue and waited for at most
        ``seconds``; else :data:`PENDING` (the first list of a late position prepares the
        ``win`` bot's exact late mode: seconds on a busy machine). ``None`` also when the
        queue or ``client``'s share of it is full: the panel then shows none."""
        if len(view.game.players) < 2 or self.heuristic(view.variant):
            return None
        key = ("tipp", view.id, view.version, position.dice, position.rolls)
        try:
            found = self.wins_queued.ask_within(
                key, client, lambda _: (self.wins(view, position),), seconds, kind=view.id
            )
        except Busy:
            return None
        return PENDING if isinstance(found, float) else found[0]

    def wins_of(
        self, view: GameView, dice: Dice | None, rolls: int, client: str
    ) -> list[WinChoice] | float:
        """The API's "Auf Sieg" list (every choice, the best first) if it is worked out; else
        how far its work is (0 to 1), queued. Raises :class:`Busy` when the queue or
        ``client``'s share of it is full, and the rules' refusal of ``dice`` and ``rolls``."""
        from kniffel.solver.chances.winbot import win_choices

        game = view.game
        key = ("api", view.id, view.version, dice, rolls)
        found = self.wins_queued.ask(
            key, client, lambda _: (win_choices(game, dice, rolls),), kind=view.id
        )
        return found if isinstance(found, float) else found[0] or []

    def close(self) -> None:
        self.wins_queued.close()

    def open(self) -> None:
        """Take work again after :meth:`close` (an app's lifespan may start more than once)."""
        self.wins_queued.open()

    @staticmethod
    def bound_work(work: int) -> None:
        """The bound of work behind the simulated reasons, for the whole process (the setting
        ``tipp_work``: games times turns still to play per end state of the turn)."""
        from kniffel.solver.advice import turn_ends

        turn_ends.WORK = work

    def analysis(self, view: GameView) -> Analysis:
        """The analysis of a stored game at its version, computed here when it is not kept
        (the review's queue and the background thread call it, never a request)."""
        from kniffel.solver.advice.analysis import analyse

        return self._analyses.get((view.id, view.version), lambda: analyse(view.game))

    def kept_analysis(self, view: GameView) -> Analysis | None:
        """The analysis of ``view`` at its version if it is kept (what a request may read)."""
        return self._analyses.find((view.id, view.version))


def _asked(
    position: Position, top: int
) -> tuple[int | None, int, Sequence[RollAction | EnterAction]]:
    """What the reasons are asked for: the roll (its index), the rolls made, the first ``top``
    choices."""
    from kniffel.solver.exact.dice_tables import ROLL_INDEX

    dice_index = None if position.dice is None else ROLL_INDEX[position.dice]
    # Announcements are Jamb's and Yams', whose Tipp has no reasons (AdviceService.heuristic).
    actions = [c.action for c in position.choices[:top] if not isinstance(c.action, AnnounceAction)]
    return dice_index, position.rolls, actions
