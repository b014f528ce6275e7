"""Fit the Rauf-Runter correction by self-play (approximate policy iteration).

Each round plays seeded games with the current value ``V = plan + C`` and
records, at the start of every turn, the state and the bot's own exact
expectation ``T`` of that turn (best keeps and entries over all dice, valued by
``V``). The targets are expected λ-returns, computed backwards along each game:

    G_t = T_t + λ (G_{t+1} - V(s_{t+1})),    G_last = T_last

``λ = 0`` is fitted value iteration (noise-free, one turn deeper per round);
``λ = 1`` evaluates the current policy without bias (the dice of the game add
noise). The new ``C`` is the ridge least-squares fit of ``G - plan`` on the
features of :mod:`kniffel.solver.raufrunter.correction`, over the states of the latest
round. Each round's mean score measures the previous round's correction, and
the best one is kept.

The defaults are the settings the shipped correction
(``kniffel/solver/raufrunter/data/rr_correction.json``) was fitted with: 6 rounds
of 4,000 games from seed 5000, λ 0.7, ridge 100 (docs/bot.md). Run (about a
minute per thousand games on two cores)::

    uv run python -m kniffel.solver.raufrunter.fit \\
        --out src/kniffel/solver/raufrunter/data/rr_correction.json
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import numpy as np
import numpy.typing as npt

from kniffel.rules import Action, Game, Options, get_variant, rows_for
from kniffel.solver.play.bots import Roller, TurnLog, ValueBot
from kniffel.solver.play.sheets import SheetBatch
from kniffel.solver.play.simulate import simulate
from kniffel.solver.raufrunter.correction import Correction, features, n_features
from kniffel.solver.raufrunter.value import RaufRunterValue

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_LAM",
    "DEFAULT_RIDGE",
    "DEFAULT_ROUNDS",
    "DEFAULT_SEED",
    "Round",
    "fit_correction",
    "play_round",
    "solve_weights",
    "targets",
]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: The settings of the shipped correction: the defaults reproduce it.
DEFAULT_ROUNDS = 6
DEFAULT_GAMES = 4000
DEFAULT_SEED = 5000
DEFAULT_LAM = 0.7
DEFAULT_RIDGE = 100.0

_CHUNK = 20_000  # states per block of the normal equations


@dataclass(frozen=True)
class Round:
    """The turns of one round: ``[game, turn]`` arrays, and the mean final score."""

    d: IntArray
    u: IntArray
    mask: IntArray
    plan: Array  # A + F at the start of the turn
    correction: Array  # C at the start of the turn
    expected: Array  # T: the turn's exact expectation under the round's value
    mean: float
    stderr: float


class _Recorder:
    """Plays like ``bot`` and notes every sheet state before its turn."""

    def __init__(self, bot: ValueBot, value: RaufRunterValue) -> None:
        self.name = bot.name
        self.bot = bot
        self.value = value
        self.turns: list[tuple[IntArray, IntArray, IntArray, Array, Array, Array]] = []

    def choose(self, game: Game) -> Action:
        return self.bot.choose(game)

    def play_turns(self, sheets: SheetBatch, roll: Roller, choices: Array) -> TurnLog:
        d, u = self.value.progress(sheets)
        mask = sheets.filled[:, 2].copy()
        plan, correction = self.value.state_value(sheets)
        log = self.bot.play_turns(sheets, roll, choices)
        self.turns.append((d, u, mask, plan, correction, log.expected))
        return log


def play_round(options: Options, correction: Correction | None, games: int, seed: int) -> Round:
    """Play ``games`` seeded games with ``plan + correction`` and record their turns."""
    variant = get_variant("rauf-runter").with_options(options.as_dict())
    value = RaufRunterValue(options, correction)
    recorder = _Recorder(ValueBot("best", value), value)
    result = simulate(variant, recorder, games, seed)
    turns = 3 * len(rows_for(options))

    def gathered(i: int) -> npt.NDArray[Any]:
        per_turn = [t[i] for t in recorder.turns]
        # the recorder saw batch after batch, each for every turn: regroup as [game, turn]
        blocks = range(0, len(per_turn), turns)
        return np.concatenate([np.stack(per_turn[b : b + turns], axis=1) for b in blocks])

    std = float(result.totals.std(ddof=1))
    return Round(
        d=gathered(0),
        u=gathered(1),
        mask=gathered(2),
        plan=gathered(3),
        correction=gathered(4),
        expected=gathered(5),
        mean=float(result.totals.mean()),
        stderr=std / np.sqrt(games),
    )


def targets(played: Round, lam: float) -> Array:
    """The expected λ-returns ``G`` of every recorded turn."""
    values = played.plan + played.correction
    result = np.empty_like(played.expected)
    following = np.zeros(len(values))
    following_value = np.zeros(len(values))
    for t in range(values.shape[1] - 1, -1, -1):
        result[:, t] = played.expected[:, t] + lam * (following - following_value)
        following, following_value = result[:, t], values[:, t]
    return result


def solve_weights(rounds: list[Round], n_rows: int, lam: float, ridge: float) -> Array:
    """Ridge least squares of ``G - plan`` on the correction's features."""
    size = n_features(n_rows)
    gram = ridge * np.eye(size)
    moment = np.zeros(size)
    for played in rounds:
        wanted = (targets(played, lam) - played.plan).ravel()
        d, u, mask = played.d.ravel(), played.u.ravel(), played.mask.ravel()
        for start in range(0, len(wanted), _CHUNK):
            part = slice(start, start + _CHUNK)
            x = features(n_rows, d[part], u[part], mask[part])
            gram += x.T @ x
            moment += x.T @ wanted[part]
    return np.asarray(np.linalg.solve(gram, moment))


def fit_correction(
    options: Options,
    rounds: int = DEFAULT_ROUNDS,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    lam: float = DEFAULT_LAM,
    ridge: float = DEFAULT_RIDGE,
) -> tuple[Correction | None, float]:
    """Rounds of self-play and fitting; the correction whose round scored best, and its mean."""
    n_rows = len(rows_for(options))
    correction: Correction | None = None
    best: tuple[float, Correction | None] = (-np.inf, None)
    for number in range(rounds + 1):
        current = play_round(options, correction, games, seed + number)
        click.echo(
            f"round {number}: mean {current.mean:.2f} ± {current.stderr:.2f}, "
            f"own estimate {current.expected[:, 0].mean():.2f}",
            err=True,
        )
        if current.mean > best[0]:
            best = (current.mean, correction)
        if number == rounds:
            break
        # Only the latest round: a target depends on the value it was computed under,
        # and older rounds' targets would pull the fit back towards older values.
        weights = solve_weights([current], n_rows, lam, ridge)
        note = f"self-play round {number + 1}: lambda {lam}, ridge {ridge}, {games} games a round"
        correction = Correction(options, n_rows, weights, note)
    return best[1], best[0]


@click.command()
@click.option("--rounds", type=click.IntRange(min=1), default=DEFAULT_ROUNDS, show_default=True)
@click.option("--games", type=click.IntRange(min=10), default=DEFAULT_GAMES, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True)
@click.option("--lam", type=click.FloatRange(0, 1), default=DEFAULT_LAM, show_default=True)
@click.option("--ridge", type=click.FloatRange(min=0), default=DEFAULT_RIDGE, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def main(rounds: int, games: int, seed: int, lam: float, ridge: float, out: Path) -> None:
    """Fit the correction for Rauf-Runter's preset options and write it as JSON."""
    options = get_variant("rauf-runter").options
    correction, mean = fit_correction(options, rounds, games, seed, lam, ridge)
    if correction is None:
        raise click.ClickException("no round beat the plan value alone; nothing written")
    out.write_text(json.dumps(correction.to_json()) + "\n", encoding="utf-8")
    click.echo(f"wrote {out} (its round scored {mean:.2f})", err=True)


if __name__ == "__main__":
    main()
