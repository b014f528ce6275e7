"""Win chances for a game: each player's final-total distribution, then who finishes first.

For each player, from their sheet at the start of their next turn (dice on the
table that are not entered yet do not count), the distribution of the points
still to come when they play on like the best bot:

- **exact** where it can be (:mod:`.endgame`): one-column variants, when the
  sheet's reachable states are few enough to solve within a request;
- **simulated** elsewhere (:mod:`.sampled`): games of the best bot from the
  sheet, seeded by the sheet, so the same position gives the same figures in the
  series (CLI, end-of-game chart), the API and the board.

The chances follow exactly from these distributions (:func:`~.win.win_chances`,
ties shared); each comes with its 95 % interval from the simulated games
(:func:`~.interval.win_intervals`), which is the chance itself where every
distribution is exact. ``expected_total`` is the exact mean where the
distribution is exact or the variant has one column (the solver's value),
otherwise the best bot's expectation corrected by the measured offset
(:mod:`.calibration`, the presets' options) or, under other house rules, the
simulated games' mean.

Jamb and Yams with sèche or annoncée (no solver tables): every unfinished sheet is simulated
by the best family bot (:mod:`.family`), its mean the expected total.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import Game
from kniffel.solver.chances.calibration import load_calibration
from kniffel.solver.chances.distribution import bot_expectations, turns_left
from kniffel.solver.chances.endgame import exact_finals
from kniffel.solver.chances.family import family_finals
from kniffel.solver.chances.interval import win_intervals
from kniffel.solver.chances.sampled import sample_finals
from kniffel.solver.chances.win import Pmf
from kniffel.solver.table_kinds import solvable

__all__ = ["Chances", "PlayerChance", "chances_series", "family_forecast", "forecast"]


@dataclass(frozen=True)
class PlayerChance:
    """One player's chance to finish first, its 95 % interval, and their final total.

    ``method``: ``exact`` (the distribution of the final total is exact) or ``simulation``
    (``samples`` games of the best bot); the interval is the sampling error of the chance
    (that of every simulated player counts), ``low == win == high`` when all are exact.
    """

    name: str
    win: float
    low: float
    high: float
    expected_total: float
    p10: int
    p90: int
    method: str
    samples: int

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "win": round(self.win, 6),
            "interval": [round(self.low, 6), round(self.high, 6)],
            "method": self.method,
            "samples": self.samples,
            "expected_total": self.expected_total,
            "p10": self.p10,
            "p90": self.p90,
        }


@dataclass(frozen=True)
class Chances:
    """``method``: ``exact`` when every player's distribution is; ``samples``: the most
    simulated games behind one player's distribution (0: none simulated); ``refining``: more
    games are being played to narrow these figures (the board's Jamb and Yams chances after
    their first answer, :mod:`.refine`)."""

    method: str
    samples: int
    players: tuple[PlayerChance, ...]
    refining: bool = False

    def by_name(self) -> dict[str, float]:
        return {p.name: p.win for p in self.players}

    def intervals(self) -> dict[str, tuple[float, float]]:
        return {p.name: (p.low, p.high) for p in self.players}


def _expected(game: Game, player: int, pmf: Pmf, exact: bool, points: np.ndarray) -> float:
    if exact:
        return pmf.mean
    if len(game.variant.columns) == 1:
        return game.total(player) + bot_expectations(game, [player])[player]
    calibration = load_calibration(game.variant)
    if calibration is None:
        return game.total(player) + float(points.mean())
    left = turns_left(game, player)
    expectation = bot_expectations(game, [player])[player]
    return game.total(player) + expectation + calibration.offset[left]


def forecast(
    game: Game,
    *,
    samples: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> Chances:
    """The win chances of every player of ``game``; ``samples``: games per simulated sheet
    (by default as many as :func:`~kniffel.solver.chances.sampled.samples_for` gives, on
    Jamb and Yams sheets :func:`~kniffel.solver.chances.family.family_samples_for`);
    ``progress`` is told how far the work is, 0 to 1 (the board's queue)."""
    if not solvable(game.variant):
        return family_forecast(game, samples, progress)
    pmfs: list[Pmf] = []
    counts: list[int] = []
    expected: list[float] = []
    for p in range(len(game.players)):
        now = game.total(p)
        exact = exact_finals(game, p) if turns_left(game, p) else np.ones(1)
        if exact is not None:
            pmf = Pmf(now, exact)
            points = np.zeros(1, dtype=np.int64)
        else:
            points = sample_finals(game, p, samples)
            pmf = Pmf.of_samples(now + points)
        pmfs.append(pmf)
        counts.append(0 if exact is not None else len(points))
        expected.append(_expected(game, p, pmf, exact is not None, points))
        if progress is not None:
            progress((p + 1) / len(game.players))
    intervals = win_intervals(pmfs, counts)
    players = tuple(
        PlayerChance(
            name,
            found.win,
            found.low,
            found.high,
            round(mean, 1),
            pmf.quantile(0.1),
            pmf.quantile(0.9),
            "simulation" if n else "exact",
            n,
        )
        for name, found, mean, pmf, n in zip(
            game.players, intervals, expected, pmfs, counts, strict=True
        )
    )
    return Chances("simulation" if any(counts) else "exact", max(counts, default=0), players)


def family_forecast(
    game: Game,
    samples: int | Sequence[int] | None = None,
    progress: Callable[[float], None] | None = None,
    *,
    finals: Callable[[Game, int], npt.NDArray[np.int64]] | None = None,
) -> Chances:
    """Jamb and Yams: every unfinished sheet simulated by the best family bot
    (:mod:`.family`); a full sheet's total is known. ``samples``: games per sheet, or each
    player's (the board's refinement, :mod:`.refine`). ``finals(game, player)``, when given,
    plays a sheet's games instead of :func:`~.family.family_finals` (the end chart's own
    number of games, not kept for the board: :mod:`.rounds`)."""
    pmfs: list[Pmf] = []
    counts: list[int] = []
    players = len(game.players)
    for p in range(players):
        now = game.total(p)

        def told(share: float, p: int = p) -> None:
            if progress is not None:
                progress((p + share) / players)

        if finals is not None:
            points = finals(game, p)
        else:
            n = samples[p] if isinstance(samples, Sequence) else samples
            points = family_finals(game, p, n, progress=told)
        pmfs.append(Pmf.of_samples(now + points) if len(points) else Pmf(now, np.ones(1)))
        counts.append(len(points))
    intervals = win_intervals(pmfs, counts)
    found = tuple(
        PlayerChance(
            name,
            chance.win,
            chance.low,
            chance.high,
            round(pmf.mean, 1),
            pmf.quantile(0.1),
            pmf.quantile(0.9),
            "simulation" if n else "exact",
            n,
        )
        for name, chance, pmf, n in zip(game.players, intervals, pmfs, counts, strict=True)
    )
    return Chances("simulation" if any(counts) else "exact", max(counts, default=0), found)


def chances_series(games: Sequence[Game]) -> list[Chances]:
    """The chances at each of several positions."""
    return [forecast(g) for g in games]
