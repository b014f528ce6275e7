"""The ``win`` bot and two-player duels: play for the chance to finish first, not for points.

:class:`WinBot` plays the turn exactly like the best bot (the same keep
optimisation over three rolls), but what it maximises is the chance to finish
ahead of its opponent. Ending the turn with roll ``r`` in slot ``k`` leaves it
with ``mu = total + gain + after + offset`` expected points (the best bot's
value after the entry, calibrated by :mod:`~kniffel.solver.chances.calibration`
for the entries then left) and the measured spread ``std``; the opponent, who
plays on like the best bot, expects ``mu_o`` with spread ``std_o`` (a full
sheet: its total, spread 0). With both normal,

    P(win) = Phi((mu - mu_o) / sqrt(std^2 + std_o^2))

and the keeps maximise the expectation of the best entry's chance. A millionth
of the points is added so that, where every choice is (all but) sure to win or
to lose, the bot still takes the points.

:func:`duel` plays seeded two-player games between two bots, each deal twice
with the seats swapped (deal ``d`` throws the dice of
``numpy.random.default_rng([seed, d])``: seat 1's, then seat 2's).
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    Action,
    Cell,
    Dice,
    EnterAction,
    Game,
    KniffelError,
    RollAction,
    Variant,
    rows_for,
)
from kniffel.solver.advice.analysis import choice_label
from kniffel.solver.advice.position import Choice
from kniffel.solver.chances.calibration import Calibration, load_calibration
from kniffel.solver.chances.distribution import best_bot, roller
from kniffel.solver.chances.win import normal_cdf
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_INDEX, ROLL_KEEPS
from kniffel.solver.exact.turn import keep_values, turn_value
from kniffel.solver.play.bots import Bot, ValueBot, make_bot
from kniffel.solver.play.sheets import Entries, SheetBatch

__all__ = ["DUEL_BOTS", "DuelResult", "WinBot", "WinChoice", "duel", "duel_bot", "win_choices"]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

DUEL_BOTS = ("random", "greedy", "best", "win")
_BATCH = 250


class WinBot(ValueBot):
    """The best bot's turn, maximising the chance to finish ahead of one opponent."""

    def __init__(self, variant: Variant) -> None:
        calibration = load_calibration(variant)
        if calibration is None:
            raise KniffelError(
                "the win bot needs the measured spread, which exists only for the presets' options"
            )
        super().__init__("win", best_bot(variant).value)
        self.calibration: Calibration = calibration
        self.exact = len(variant.columns) == 1
        self.cells = len(variant.columns) * len(rows_for(variant.options))
        self.offset = np.asarray(calibration.offset)
        self.std = np.asarray(calibration.std)
        self.opponent_mean = np.zeros(0)
        self.opponent_std = np.zeros(0)

    def against(self, mean: Array, std: Array) -> None:
        """The opponent's expected final total and its spread, per sheet of the next batch."""
        self.opponent_mean = mean
        self.opponent_std = std

    def choose(self, game: Game) -> Action:
        """The next action in ``game`` against the strongest of the other players."""
        player = game.current_player()
        if player is not None:
            others = [p for p in range(len(game.players)) if p != player]
            if not others:
                raise KniffelError("the win bot needs an opponent")
            outlooks = [
                _outlook(game.variant, SheetBatch.of_game(game, p), self.calibration)
                for p in others
            ]
            mean, std = max(outlooks, key=lambda o: float(o[0][0]))
            self.against(mean, std)
        return super().choose(game)

    def worth(self, sheets: SheetBatch) -> tuple[Entries, Array]:
        entries, points = super().worth(sheets)
        left = self.cells - sheets.filled_count() - 1  # entries left after this turn's
        offset = np.zeros(sheets.size) if self.exact else self.offset[left]
        mean = sheets.totals() + offset
        spread = np.sqrt(self.std[left] ** 2 + self.opponent_std**2)
        lead = mean[:, None, None] + points - self.opponent_mean[:, None, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            chance = normal_cdf(lead / np.maximum(spread, 1e-9)[:, None, None])
        chance = np.where(np.abs(lead) < 1e-9, 0.5, chance)
        return entries, np.where(entries.legal, chance + 1e-6 * points / 1000, -np.inf)


def duel_bot(name: str, variant: Variant) -> Bot:
    """A bot of :data:`DUEL_BOTS` for ``variant``."""
    if name == "win":
        return WinBot(variant)
    if name == "best":
        return best_bot(variant)
    if name in DUEL_BOTS:
        return make_bot(name, variant)
    raise KniffelError(f"unknown bot {name!r}; the bots are {', '.join(DUEL_BOTS)}")


def _outlook(variant: Variant, sheets: SheetBatch, calibration: Calibration) -> tuple[Array, Array]:
    """Each sheet's expected final total (best bot, calibrated) and its spread."""
    cells = len(variant.columns) * len(rows_for(variant.options))
    left = cells - sheets.filled_count()
    totals = sheets.totals().astype(np.float64)
    mean = totals.copy()
    std = np.zeros(sheets.size)
    playing = left > 0
    if playing.any():
        _, worth = best_bot(variant).worth(sheets)
        expected = turn_value(worth[playing].max(axis=1))
        offset = 0.0 if len(variant.columns) == 1 else np.asarray(calibration.offset)[left[playing]]
        mean[playing] = totals[playing] + expected + offset
        std[playing] = np.asarray(calibration.std)[left[playing]]
    return mean, std


def _play(args: tuple[Variant, tuple[str, str], int, int, int]) -> tuple[IntArray, IntArray]:
    """Deals ``first .. first + count - 1``, each with seat 1 = ``names[0]``: both totals."""
    variant, names, seed, first, count = args
    bots = [duel_bot(name, variant) for name in names]
    calibration = load_calibration(variant)
    turns = len(variant.columns) * len(rows_for(variant.options))
    faces = np.empty((2, count, turns, 3, 5), dtype=np.int64)
    for i in range(count):
        rng = np.random.default_rng([seed, first + i])
        faces[:, i] = rng.integers(1, 7, size=(2, turns, 3, 5))
    sheets = [SheetBatch(variant, count), SheetBatch(variant, count)]
    choices = np.zeros((count, 3))
    for turn in range(turns):
        for seat in (0, 1):
            bot = bots[seat]
            if isinstance(bot, WinBot):
                assert calibration is not None
                bot.against(*_outlook(variant, sheets[1 - seat], calibration))
            bot.play_turns(sheets[seat], roller(faces[seat], turn), choices)
    return sheets[0].totals(), sheets[1].totals()


@dataclass(frozen=True)
class DuelResult:
    variant: Variant
    bots: tuple[str, str]
    seed: int
    games: int
    wins: dict[str, int]
    ties: int

    @property
    def win_rate(self) -> dict[str, float]:
        """Wins plus half the ties, per game."""
        return {b: (w + self.ties / 2) / self.games for b, w in self.wins.items()}

    @property
    def ci95(self) -> dict[str, tuple[float, float]]:
        """The normal-approximation 95 % interval of each win rate."""
        result = {}
        for bot, rate in self.win_rate.items():
            half = 1.96 * math.sqrt(max(rate * (1 - rate), 0.0) / self.games)
            result[bot] = (max(0.0, rate - half), min(1.0, rate + half))
        return result

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name,
            "options": self.variant.options.as_dict(),
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "win_rate": self.win_rate,
            "ci95": {b: list(ci) for b, ci in self.ci95.items()},
        }


def duel(
    variant: Variant, bots: tuple[str, str], games: int, seed: int = 0, jobs: int = 1
) -> DuelResult:
    """``games`` seeded games (an even number: each deal twice, the seats swapped)."""
    if games < 2 or games % 2:
        raise KniffelError(f"--games must be an even number of at least 2, got {games}")
    if bots[0] == bots[1]:
        raise KniffelError("a duel needs two different bots")
    for name in bots:
        duel_bot(name, variant)  # unknown names and missing figures fail here, at once
    deals = games // 2
    parts = []
    for first in range(0, deals, _BATCH):
        count = min(_BATCH, deals - first)
        parts.append((variant, bots, seed, first, count))
        parts.append((variant, (bots[1], bots[0]), seed, first, count))
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play, parts))
    else:
        results = [_play(p) for p in parts]
    wins = dict.fromkeys(bots, 0)
    ties = 0
    for (_, names, *_rest), (seat1, seat2) in zip(parts, results, strict=True):
        wins[names[0]] += int((seat1 > seat2).sum())
        wins[names[1]] += int((seat2 > seat1).sum())
        ties += int((seat1 == seat2).sum())
    return DuelResult(variant, bots, seed, games, wins, ties)


@dataclass(frozen=True)
class WinChoice:
    """A choice of the player to move and their chance to finish first after it."""

    action: Action
    label: str
    win: float
    points: int | None = None

    def as_dict(self) -> dict[str, Any]:
        if isinstance(self.action, EnterAction):
            described: dict[str, Any] = {
                "action": "enter",
                "cell": str(self.action.cell),
                "points": self.points,
            }
        else:
            assert isinstance(self.action, RollAction)
            described = {"action": "roll", "keep": list(self.action.keep)}
        return {**described, "label": self.label, "win": round(self.win, 4)}


def win_choices(game: Game, dice: Dice | None = None, rolls: int = 3) -> list[WinChoice]:
    """Every choice of the player to move, valued by the chance to finish ahead of the
    strongest other player (both playing on like the best bot), best first: the "Auf Sieg"
    Tipp. ``dice``: dice thrown at the table (else the rolled dice pending, else the turn
    before its first roll), ``rolls`` how many rolls made them."""
    player = game.current_player()
    if player is None:
        raise KniffelError("the game is finished; there is nothing to advise")
    bot = WinBot(game.variant)
    others = [p for p in range(len(game.players)) if p != player]
    if not others:
        raise KniffelError("playing for the win needs an opponent")
    outlooks = [
        _outlook(game.variant, SheetBatch.of_game(game, p), bot.calibration) for p in others
    ]
    bot.against(*max(outlooks, key=lambda o: float(o[0][0])))
    sheets = SheetBatch.of_game(game, player)
    entries, chance = bot.worth(sheets)
    final = chance.max(axis=1)  # [1, 252]
    pending = game.pending(player)
    if dice is None and pending is not None:
        dice, rolls = pending
    one_column = len(game.variant.columns) == 1
    if dice is None:
        start = float(turn_value(final)[0])
        return [WinChoice(RollAction(), "roll all dice", start)]
    roll = ROLL_INDEX[dice]
    slots = {}
    for k, column in enumerate(sheets.layout.column.tolist()):
        row = int(entries.row[0, k])
        if row >= 0:
            slots[Cell(game.variant.columns[column].id, sheets.rows[row])] = k
    choices = []
    for option in game.entry_options(player, dice):
        win = float(chance[0, slots[option.cell], roll])
        label = choice_label(Choice(EnterAction(option.cell), win, option.points), one_column)
        choices.append(WinChoice(EnterAction(option.cell), label, win, option.points))
    if rolls < 3:
        last = keep_values(final)[0]
        after_two = np.maximum(final, keep_values(final)[:, ROLL_KEEPS].max(axis=-1))
        ahead = keep_values(after_two)[0] if rolls == 1 else last
        for k in sorted(set(ROLL_KEEPS[roll].tolist())):
            if len(KEEPS[k]) < 5:
                action = RollAction(KEEPS[k])
                label = choice_label(Choice(action, float(ahead[k])), one_column)
                choices.append(WinChoice(action, label, float(ahead[k])))
    choices.sort(key=lambda c: -c.win)
    return choices
