"""The Tipp and the analysis for the board: what the web asks of the solver, in one place
(docs/solver.md, "Advice and analysis"; docs/board.md, "Tipp").

One :class:`AdviceService` per app (``app.state.advice``) holds what is kept between requests:
the analyses by game version. The Tipp's simulated reasons are worked out by the solver's
background thread (:mod:`kniffel.solver.advice.reasons`); a request asks for them with a time
limit and answers with what is ready.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kniffel.board.kept import Kept
from kniffel.board.views import GameView
from kniffel.rules import Dice, EnterAction, KniffelError, RollAction, Variant

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.solver.advice.analysis import Analysis
    from kniffel.solver.advice.position import Choice, Position
    from kniffel.solver.advice.reasons import Reasons
    from kniffel.solver.builds import TableBuilds
    from kniffel.solver.chances.winbot import WinChoice

__all__ = ["AdviceService", "Analysis", "Position", "Reasons", "WinChoice"]


class AdviceService:
    """The Tipp, its reasons, "Auf Sieg" and the analysis of stored games."""

    def __init__(self, analyses: int = 32) -> None:
        self._analyses: Kept[tuple[str, int], Analysis] = Kept(analyses)

    @staticmethod
    def is_exact(variant: Variant) -> bool:
        """Whether the Tipp's expected totals are exact (one column) or estimates."""
        from kniffel.solver.advice.position import is_exact

        return is_exact(variant)

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
    def exact_ready(builds: TableBuilds, variant: Variant) -> bool:
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

        return pending(view.game, *_asked(position, top), exact=exact, seconds=seconds)

    @staticmethod
    def wins(view: GameView, position: Position) -> list[WinChoice] | None:
        """The choices by their chance to finish first ("Auf Sieg"), with two players or more."""
        if len(view.game.players) < 2:
            return None
        from kniffel.solver.chances.winbot import win_choices

        try:
            return win_choices(view.game, position.dice, max(position.rolls, 1))
        except KniffelError:
            return None

    def analysis(self, view: GameView) -> Analysis:
        """The analysis of a stored game at its version (a page and its JSON ask for one)."""
        from kniffel.solver.advice.analysis import analyse

        return self._analyses.get((view.id, view.version), lambda: analyse(view.game))


def _asked(
    position: Position, top: int
) -> tuple[int | None, int, Sequence[RollAction | EnterAction]]:
    """What the reasons are asked for: the roll (its index), the rolls made, the first ``top``
    choices."""
    from kniffel.solver.exact.dice_tables import ROLL_INDEX

    dice_index = None if position.dice is None else ROLL_INDEX[position.dice]
    return dice_index, position.rolls, [c.action for c in position.choices[:top]]
