"""Two bots head to head: seeded two-player games, every deal twice with the seats swapped.

Deal ``d`` throws the dice of ``numpy.random.default_rng([seed, d])``: seat 1's,
then seat 2's. Each deal is played once with bot A in seat 1 and once with bot
B there, so both bots meet the same dice in the same seats. A deal's score for
a bot is the mean of its two games (a win 1, a tie 1/2, a loss 0); the win rate
is the mean over deals and its 95 % interval ``rate ± 1.96 * sd / sqrt(deals)``
uses the spread of the deals' scores: the two games of a deal are not
independent (good dice tend to win in either seat), so the games are not
counted as independent trials.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import KniffelError, Variant, rows_for
from kniffel.solver.chances.distribution import best_bot, roller
from kniffel.solver.chances.winbot import LATE, WinBot
from kniffel.solver.play.bots import Bot, make_bot
from kniffel.solver.play.sheets import SheetBatch

__all__ = ["DUEL_BOTS", "DuelResult", "duel", "duel_bot"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

DUEL_BOTS = ("random", "greedy", "best", "win")
_BATCH = 250


def duel_bot(name: str, variant: Variant, late: int = LATE) -> Bot:
    """A bot of :data:`DUEL_BOTS` for ``variant`` (``late``: see :class:`WinBot`)."""
    if name == "win":
        return WinBot(variant, late)
    if name == "best":
        return best_bot(variant)
    if name in DUEL_BOTS:
        return make_bot(name, variant)
    raise KniffelError(f"unknown bot {name!r}; the bots are {', '.join(DUEL_BOTS)}")


_BOTS: dict[tuple[str, Variant, int], Bot] = {}


def _bot(name: str, variant: Variant, late: int) -> Bot:
    """One bot per name and variant in a process: the win bot keeps what it solved."""
    key = (name, variant, late)
    if key not in _BOTS:
        _BOTS[key] = duel_bot(name, variant, late)
    return _BOTS[key]


_Part = tuple[Variant, tuple[str, str], int, int, int, int]


def _play(args: _Part) -> tuple[IntArray, IntArray]:
    """Deals ``first .. first + count - 1``, each with seat 1 = ``names[0]``: both totals."""
    variant, names, seed, first, count, late = args
    bots = [_bot(name, variant, late) for name in names]
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
                bot.against(sheets[1 - seat])
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
    #: Each deal's score of the first bot: the mean of its two games (1 win, 1/2 tie, 0 loss).
    deal_scores: tuple[float, ...] = ()

    @property
    def win_rate(self) -> dict[str, float]:
        """Wins plus half the ties, per game."""
        return {b: (w + self.ties / 2) / self.games for b, w in self.wins.items()}

    @property
    def ci95(self) -> dict[str, tuple[float, float]]:
        """The 95 % interval of each win rate, from the spread of the deals' scores."""
        scores = np.asarray(self.deal_scores, dtype=np.float64)
        if len(scores) > 1:
            half = 1.96 * float(scores.std(ddof=1)) / math.sqrt(len(scores))
        else:  # one deal: the games' binomial spread stands in
            rate = self.win_rate[self.bots[0]]
            half = 1.96 * math.sqrt(max(rate * (1 - rate), 0.0) / self.games)
        return {
            bot: (max(0.0, rate - half), min(1.0, rate + half))
            for bot, rate in self.win_rate.items()
        }

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


def _score(mine: IntArray, theirs: IntArray) -> Array:
    return np.asarray((mine > theirs) + 0.5 * (mine == theirs), dtype=np.float64)


def duel(
    variant: Variant,
    bots: tuple[str, str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    late: int = LATE,
) -> DuelResult:
    """``games`` seeded games (an even number: each deal twice, the seats swapped);
    ``late``: entries left from which the win bot plays for the win."""
    if games < 2 or games % 2:
        raise KniffelError(f"--games must be an even number of at least 2, got {games}")
    if bots[0] == bots[1]:
        raise KniffelError("a duel needs two different bots")
    if late < 1:
        raise KniffelError(f"--late must be at least 1, got {late}")
    for name in bots:
        duel_bot(name, variant, late)  # unknown names and missing figures fail here, at once
    deals = games // 2
    parts: list[_Part] = []
    for first in range(0, deals, _BATCH):
        count = min(_BATCH, deals - first)
        parts.append((variant, bots, seed, first, count, late))
        parts.append((variant, (bots[1], bots[0]), seed, first, count, late))
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
    scores: list[float] = []
    for i in range(0, len(results), 2):
        (a1, b2), (b1, a2) = results[i], results[i + 1]  # A in seat 1, then A in seat 2
        scores.extend(((_score(a1, b2) + _score(a2, b1)) / 2).tolist())
    return DuelResult(variant, bots, seed, games, wins, ties, tuple(scores))
