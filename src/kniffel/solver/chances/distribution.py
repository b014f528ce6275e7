"""One player's final total when they play on with the best bot.

Two ways to know it, both from the player's sheet at the start of their next
turn (dice rolled but not yet entered are not counted):

- :func:`simulate_finals`: seeded batch simulation. Every sample plays the
  player's remaining turns with the best bot on a copy of their sheet
  (:class:`~kniffel.solver.play.sheets.SheetBatch`), so the samples are draws of
  the final total under exactly the strategy the bot plays.
- :func:`bot_expectations`: the bot's own expectation of the points still to
  come, from its value estimate and the exact three-roll turn over it. In
  one-column presets that is the exact solver's value; in the others it is an
  estimate, calibrated by :mod:`kniffel.solver.chances.calibration`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kniffel.rules import Game, Variant
from kniffel.solver.exact.turn import turn_value
from kniffel.solver.per_variant import per_variant
from kniffel.solver.play.bots import Roller, ValueBot, make_bot
from kniffel.solver.play.sheets import SheetBatch
from kniffel.solver.play.simulate import faces_roller

__all__ = [
    "best_bot",
    "bot_expectations",
    "roller",
    "sheets_of",
    "simulate_finals",
    "turns_left",
]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]


@per_variant
def best_bot(variant: Variant) -> ValueBot:
    """The ``best`` bot of ``variant``, built once (it loads the solved tables)."""
    bot = make_bot("best", variant)
    assert isinstance(bot, ValueBot)
    return bot


def turns_left(game: Game, player: int) -> int:
    """The entries ``player`` still has to make."""
    return game.cells_per_player - game.filled_count(player)


def sheets_of(game: Game, players: Sequence[int], copies: int) -> SheetBatch:
    """``copies`` copies of each player's sheet, player after player."""
    ones = [SheetBatch.of_game(game, p) for p in players]
    sheets = SheetBatch(game.variant, copies * len(players))
    for name in ("filled", "upper", "lower", "kniffel_bonus", "bonus_kniffels", "fifty"):
        stacked = np.concatenate([getattr(one, name) for one in ones])
        setattr(sheets, name, np.repeat(stacked, copies, axis=0))
    return sheets


def roller(faces: IntArray, turn: int) -> Roller:
    """The bots' roller over ``faces[b, turn, roll]``: a reroll takes the first faces it needs."""
    return faces_roller(faces[:, turn])


def simulate_finals(
    game: Game, players: Sequence[int], samples: int, seed: int = 0
) -> dict[int, IntArray]:
    """``samples`` simulated final totals of each player, seeded.

    The players with the same number of turns left are played as one batch;
    the dice of a batch come from ``numpy.random.default_rng([seed, turns])``.
    """
    bot = best_bot(game.variant)
    result: dict[int, IntArray] = {}
    groups: dict[int, list[int]] = {}
    for p in players:
        groups.setdefault(turns_left(game, p), []).append(p)
    for turns, group in sorted(groups.items()):
        sheets = sheets_of(game, group, samples)
        if turns:
            rng = np.random.default_rng([seed, turns])
            faces = rng.integers(1, 7, size=(sheets.size, turns, 3, 5))
            choices = np.zeros((sheets.size, 3))
            for turn in range(turns):
                bot.play_turns(sheets, roller(faces, turn), choices)
        totals = sheets.totals()
        for i, p in enumerate(group):
            result[p] = np.asarray(totals[i * samples : (i + 1) * samples], dtype=np.int64)
    return result


def bot_expectations(game: Game, players: Sequence[int]) -> dict[int, float]:
    """The best bot's expectation of each player's points still to come (0 when full)."""
    bot = best_bot(game.variant)
    playing = [p for p in players if turns_left(game, p) > 0]
    result = {p: 0.0 for p in players}
    if playing:
        sheets = sheets_of(game, playing, 1)
        _, worth = bot.worth(sheets)
        values = turn_value(worth.max(axis=1))
        for p, value in zip(playing, values.tolist(), strict=True):
            result[p] = float(value)
    return result
