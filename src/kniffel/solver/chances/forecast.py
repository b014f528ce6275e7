"""Win chances for a game: each player's final-total distribution, then who finishes first.

For each player, from their sheet at the start of their next turn (dice on
the table that are not entered yet do not count):

- **mean**: points on the sheet plus the best bot's expectation of the points
  still to come (:func:`~kniffel.solver.chances.distribution.bot_expectations`),
  plus the measured offset of :mod:`~kniffel.solver.chances.calibration` where
  the bot's value is an estimate. In one-column presets the expectation is the
  exact solver's value and needs no offset (``method`` ``"exact"``).
- **shape**: ``samples`` seeded games of the best bot from the sheet
  (:func:`~kniffel.solver.chances.distribution.simulate_finals`), moved so that
  their mean is the mean above; when fewer than :data:`MIN_SAMPLES` games fit
  the budget, a normal distribution with the measured spread for the number of
  entries left (``samples`` is then 0).

Under house rules the figures measured for the preset with the same columns
stand in (offset and spread: an approximation, not measured under those rules).
Only a variant with no such preset falls back to :data:`FALLBACK_SAMPLES`
simulated games per player for the mean and the shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kniffel.rules import Game
from kniffel.solver.chances.calibration import load_calibration, nearest_calibration
from kniffel.solver.chances.distribution import bot_expectations, simulate_finals, turns_left
from kniffel.solver.chances.win import Pmf, win_chances

__all__ = ["MIN_SAMPLES", "Chances", "PlayerChance", "forecast", "samples_for"]

#: Fewer simulated games than this per player give way to the measured spread.
MIN_SAMPLES = 200
#: Games per player when no measured figures stand in (no preset with the same columns).
FALLBACK_SAMPLES = 100


@dataclass(frozen=True)
class PlayerChance:
    name: str
    win: float
    expected_total: float
    p10: int
    p90: int

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "win": self.win,
            "expected_total": self.expected_total,
            "p10": self.p10,
            "p90": self.p90,
        }


@dataclass(frozen=True)
class Chances:
    method: str  # "exact" | "simulation"
    samples: int
    players: tuple[PlayerChance, ...]

    def by_name(self) -> dict[str, float]:
        return {p.name: p.win for p in self.players}


def is_exact(game: Game) -> bool:
    """Whether the bot's expectation is the exact solver's value (one-column presets)."""
    return len(game.variant.columns) == 1


def samples_for(game: Game, budget: int) -> int:
    """How many games per player fit ``budget`` bot turns (all players together)."""
    work = sum(turns_left(game, p) for p in range(len(game.players)))
    return budget // work if work else 0


def forecast(game: Game, *, budget: int = 1000, seed: int = 0) -> Chances:
    """The win chances of every player of ``game``.

    ``budget`` bounds the simulation: games times entries left, over all
    players (about a millisecond each on the development machine).
    """
    players = list(range(len(game.players)))
    exact = is_exact(game)
    calibration = load_calibration(game.variant) or nearest_calibration(game.variant)
    samples = samples_for(game, budget)
    if samples < MIN_SAMPLES:
        samples = 0
    if calibration is None:
        samples = max(samples, FALLBACK_SAMPLES)
    expected = bot_expectations(game, players)
    simulated = simulate_finals(game, players, samples, seed) if samples else {}
    pmfs = []
    means = []
    for p in players:
        left = turns_left(game, p)
        now = game.total(p)
        offset = 0.0 if exact or calibration is None else calibration.offset[left]
        mean = now + expected[p] + offset
        if left == 0:
            pmf = Pmf(now, np.ones(1))
        elif p in simulated:
            finals = simulated[p]
            if calibration is None and not exact:
                mean = float(finals.mean())
            pmf = Pmf.of_samples(finals + round(mean - float(finals.mean())))
        else:
            assert calibration is not None
            pmf = Pmf.normal(mean, calibration.std[left])
        pmfs.append(pmf)
        means.append(mean)
    wins = [min(1.0, max(0.0, w)) for w in win_chances(pmfs)]
    result = tuple(
        PlayerChance(name, win, round(mean, 1), pmf.quantile(0.1), pmf.quantile(0.9))
        for name, win, mean, pmf in zip(game.players, wins, means, pmfs, strict=True)
    )
    return Chances("exact" if exact else "simulation", samples, result)


def chances_series(games: Sequence[Game]) -> list[Chances]:
    """The chances at each of several positions (for the CLI and the end screen)."""
    return [forecast(g) for g in games]
