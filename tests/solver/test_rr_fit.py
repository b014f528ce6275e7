"""``kniffel.solver.raufrunter.fit``'s defaults are the settings of the shipped correction.

The shipped file records λ, the ridge and the games a round in its note; docs/bot.md
records the seed and the mean of every round of that fit. The slow test replays the start
of the first round with the defaults and checks it against those figures.
"""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path

import numpy as np
import pytest

from kniffel.rules import get_variant
from kniffel.solver.raufrunter.correction import Correction, load_correction, n_features
from kniffel.solver.raufrunter.fit import (
    DEFAULT_GAMES,
    DEFAULT_LAM,
    DEFAULT_RIDGE,
    DEFAULT_ROUNDS,
    DEFAULT_SEED,
    fit_correction,
    main,
    play_round,
    solve_weights,
    targets,
)

OPTIONS = get_variant("rauf-runter").options
BOT_DOC = (Path(__file__).resolve().parents[2] / "docs" / "bot.md").read_text(encoding="utf-8")


def shipped_row() -> tuple[int, list[float]]:
    """The seed and the round means of the shipped fit, as docs/bot.md records them."""
    match = re.search(r"\| \*\*shipped\*\*: [^|]*seed (\d+) \| ([^|]+) \|", BOT_DOC)
    assert match, "docs/bot.md has no row for the shipped fit"
    means = [float(m.strip("* ")) for m in match.group(2).split(",")]
    return int(match.group(1)), means


def test_the_defaults_are_the_settings_the_shipped_file_records() -> None:
    shipped = load_correction(OPTIONS)
    assert shipped is not None
    note = re.search(r"lambda ([\d.]+), ridge ([\d.]+), (\d+) games a round", shipped.note)
    assert note, shipped.note
    assert float(note.group(1)) == DEFAULT_LAM
    assert float(note.group(2)) == DEFAULT_RIDGE
    assert int(note.group(3)) == DEFAULT_GAMES
    seed, means = shipped_row()
    assert seed == DEFAULT_SEED
    assert len(means) == DEFAULT_ROUNDS + 1  # round 0 (no correction) and one per fit
    # the command and the function share the defaults
    command = {p.name: p.default for p in main.params}
    function = {
        name: p.default
        for name, p in inspect.signature(fit_correction).parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    expected = {
        "rounds": DEFAULT_ROUNDS,
        "games": DEFAULT_GAMES,
        "seed": DEFAULT_SEED,
        "lam": DEFAULT_LAM,
        "ridge": DEFAULT_RIDGE,
    }
    assert {name: command[name] for name in expected} == expected
    assert function == expected


@pytest.mark.slow
def test_refitting_the_first_round_matches_the_shipped_figures() -> None:
    games = 240
    played = play_round(OPTIONS, None, games, DEFAULT_SEED)
    _, means = shipped_row()
    # Games are seeded one by one (seed, index), so these are exactly the first 240 games of
    # the shipped fit's round 0 (4,000 games, mean 671.8 as printed to one decimal). Their mean
    # differs from that one only by subsampling: sd = s * sqrt(1/240 - 1/4000), about 3.8 for
    # the spread of ~60 points a game. Four of those (plus the rounding) fails a correct setup
    # with odds under 1 in 10,000, and catches a bot, a seed or a value that plays otherwise.
    spread = played.stderr * math.sqrt(games)
    tolerance = 4 * spread * math.sqrt(1 / games - 1 / DEFAULT_GAMES) + 0.05
    assert abs(played.mean - means[0]) < tolerance, (played.mean, means[0], tolerance)
    # ... and the fit of that round with the default λ and ridge explains part of what the
    # plan value misses, as the first fit of the shipped run did.
    weights = solve_weights([played], 13, DEFAULT_LAM, DEFAULT_RIDGE)
    assert weights.shape == (n_features(13),)
    fitted = Correction(OPTIONS, 13, weights).value(played.d, played.u, played.mask)
    wanted = targets(played, DEFAULT_LAM) - played.plan
    assert np.mean((wanted - fitted) ** 2) < np.mean(wanted**2)
