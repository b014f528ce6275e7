"""The Tipp for Jamb and Yams sheets the solver's tables do not cover: the ``best`` bot's values.

No exact optimum is known for these sheets (docs/bot.md, "Jamb and Yams"), so every choice is
valued as the ``best`` family bot (:mod:`kniffel.solver.play.family`) values it when it plays:
the turn exactly over its rolls, and the sheet after the entry by the bot's estimate (filled
cells as they are, open cells at their row's expectation, the bonus at a guessed chance, Σ2
from the expected Max, Min and ones). The figure is the bot's heuristic worth of the whole
sheet, on the scale of a final total; it ranks the choices as the bot plays, and the best
choice is the bot's own, not a proven optimum (docs/solver.md, "Jamb and Yams: the bot's
heuristic").

Besides the keeps and the entries, right after the first roll with an announce column open
the choices include each announcement (``AnnounceAction``), valued as the rest of the turn
played for that cell alone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    MAX_ROLLS,
    AnnounceAction,
    Cell,
    Dice,
    EnterAction,
    Game,
    KniffelError,
    RollAction,
    Variant,
)
from kniffel.solver.exact.dice_tables import KEEPS, P_FIRST, P_KEEP, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.play.family import FamilyBot, holding_worth, make_family_bot
from kniffel.solver.table_kinds import solvable

__all__ = ["SOURCE", "FamilyTurn", "family_choices", "is_heuristic"]

Array = npt.NDArray[np.float64]

#: What the values of these sheets are, as the API names it (``source``).
SOURCE = "heuristic"
#: Below this a worth means "no cell takes that roll" (the bot's own marker is −1e9).
_NOWHERE = -1e8


def is_heuristic(variant: Variant) -> bool:
    """Whether the Tipp of ``variant`` is the family bot's heuristic (no solver tables)."""
    return not solvable(variant)


def bot_for(variant: Variant) -> FamilyBot:
    """A fresh ``best`` bot: the bot keeps one plan in itself, so no two threads share one."""
    return make_family_bot("best", variant)


class FamilyTurn:
    """One position's worths (whole-sheet values) as the ``best`` bot plays the turn."""

    def __init__(self, game: Game, player: int) -> None:
        self.game = game
        self.player = player
        self.bot = bot_for(game.variant)
        self.final, self.announceable = self.bot.turn_worths(game, player)
        self.after_one, self.after_two = holding_worth(self.final)

    def start(self) -> float:
        """The worth before the turn's first roll: the best of each first roll, an
        announcement included."""
        best = self.after_one
        for worth in self.announceable.values():
            best = np.maximum(best, holding_worth(worth)[0])
        return float(best @ P_FIRST)

    def keeps(self, rolls: int) -> Array:
        """``[462]``: each keep's worth after roll ``rolls`` (1 or 2)."""
        ahead = self.after_two if rolls == 1 else self.final[2]
        return np.asarray(ahead @ P_KEEP.T)

    def announce(self, cell: Cell, dice: Dice) -> float:
        """The worth of announcing ``cell`` after the first roll ``dice``."""
        return float(holding_worth(self.announceable[cell])[0][ROLL_INDEX[dice]])

    def may_roll(self) -> bool:
        """Whether another roll could go anywhere (unannounced, every open cell of a
        first-roll or announce column takes only the first roll: the rules refuse it)."""
        return not self.game.only_first_roll_cells(self.player)


def family_choices(
    game: Game, player: int, dice: Dice | None, rolls: int
) -> tuple[FamilyTurn, list[tuple[RollAction | EnterAction | AnnounceAction, float, int | None]]]:
    """Every choice of ``player`` with ``dice`` after roll ``rolls`` (none before the turn's
    first roll) and its worth: the entries the rules allow, the announcements after a first
    roll, the keeps while the rules let the player roll again; unsorted."""
    turn = FamilyTurn(game, player)
    if dice is None:
        return turn, [(RollAction(), turn.start(), None)]
    name = game.players[player]
    choices: list[tuple[RollAction | EnterAction | AnnounceAction, float, int | None]] = []
    for option in game.entry_options(player, dice, rolls):
        points = option.points + option.kniffel_bonus
        worth = turn.bot.entry_worth(game, player, option.cell, points)
        choices.append((EnterAction(option.cell), worth, points))
    if rolls == 1 and game.announced(player) is None:
        for cell in turn.announceable:
            choices.append((AnnounceAction(cell), turn.announce(cell, dice), None))
    if rolls < MAX_ROLLS and turn.may_roll():
        ahead = turn.keeps(rolls)
        for k in sorted(set(ROLL_KEEPS[ROLL_INDEX[dice]].tolist())):
            if len(KEEPS[k]) < 5 and ahead[k] > _NOWHERE:  # keeping all five is stopping
                choices.append((RollAction(KEEPS[k]), float(ahead[k]), None))
    if not choices:
        raise KniffelError(f"{dice} fits no cell of {name}")
    return turn, choices
