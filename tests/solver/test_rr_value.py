"""The Rauf-Runter value: plan tables, the learned correction and the fitting targets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kniffel.rules import Discipline, Enter, Game, get_variant
from kniffel.solver.exact.column import solve_column
from kniffel.solver.play.sheets import SheetBatch
from kniffel.solver.raufrunter.bounds import arrow_table
from kniffel.solver.raufrunter.correction import (
    Correction,
    features,
    load_correction,
    n_features,
)
from kniffel.solver.raufrunter.fit import Round, play_round, solve_weights, targets
from kniffel.solver.raufrunter.value import RaufRunterValue

DEFAULT = get_variant("rauf-runter").options


def random_states(n_rows: int, count: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    d = rng.integers(0, n_rows + 1, count)
    u = rng.integers(0, n_rows + 1, count)
    mask = rng.integers(0, 1 << n_rows, count)
    return d, u, mask


@pytest.mark.parametrize("n_rows", [12, 13])
def test_the_tables_are_the_features_weighted(n_rows: int) -> None:
    weights = np.random.default_rng(1).normal(size=n_features(n_rows))
    correction = Correction(DEFAULT, n_rows, weights)
    d, u, mask = random_states(n_rows, 200, 2)
    x = features(n_rows, d, u, mask)
    assert x.shape == (200, n_features(n_rows))
    assert correction.value(d, u, mask) == pytest.approx(x @ weights)
    # any leading shape works, as the bot asks for a [sheets, slots] grid
    grid = correction.value(d.reshape(20, 10), u.reshape(20, 10), mask.reshape(20, 10))
    assert grid.ravel() == pytest.approx(x @ weights)


def test_a_correction_needs_its_number_of_weights() -> None:
    with pytest.raises(ValueError, match="weights"):
        Correction(DEFAULT, 13, np.zeros(5))


def test_json_round_trip() -> None:
    weights = np.round(np.random.default_rng(3).normal(size=n_features(13)), 6)
    correction = Correction(DEFAULT.updated({"joker": "forced"}), 13, weights, "a note")
    again = Correction.from_json(json.loads(json.dumps(correction.to_json())))
    assert again.options == correction.options
    assert again.note == "a note"
    assert np.array_equal(again.weights, weights)
    with pytest.raises(ValueError, match="kniffel-rr-correction/1"):
        Correction.from_json({"format": "something else"})


def test_the_shipped_correction_is_for_the_preset_only() -> None:
    shipped = load_correction(DEFAULT)
    assert shipped is not None
    assert shipped.n_rows == 13
    assert load_correction(DEFAULT.updated({"kniffel_bonus": 100})) is None


def test_plan_value_of_an_empty_sheet_is_the_lower_bound() -> None:
    value = RaufRunterValue(DEFAULT)
    plan, correction = value.state_value(SheetBatch(get_variant("rauf-runter"), 2))
    free = solve_column(DEFAULT, Discipline.FREE).ev
    assert plan == pytest.approx([arrow_table(DEFAULT).ev + free] * 2)
    assert correction.tolist() == [0.0, 0.0]


def test_after_an_entry_is_the_plan_value_of_the_sheet_it_leads_to() -> None:
    """``after`` of a slot and roll equals ``state_value`` of the sheet after that entry."""
    variant = get_variant("rauf-runter")
    value = RaufRunterValue(DEFAULT, load_correction(DEFAULT))
    game = Game(variant, ["P"])
    for name, points in [("down.ones", 3), ("up.chance", 22), ("free.sixes", 24), ("down.twos", 6)]:
        game.push(Enter("P", game.cell(name), points=points))
    sheets = SheetBatch.of_game(game, 0)
    entries = sheets.entries()
    after = value.after(sheets, entries)
    rng = np.random.default_rng(4)
    for k in [0, 1, 2, 4, 8, 14]:
        for r in rng.choice(252, 6, replace=False):
            if not entries.legal[0, k, r]:
                continue
            moved = SheetBatch.of_game(game, 0)
            moved.enter(entries, np.array([k]), np.array([r]), np.array([True]))
            plan, correction = value.state_value(moved)
            assert after[0, k, r] == pytest.approx(plan[0] + correction[0])


def test_targets_are_expected_lambda_returns() -> None:
    expected = np.array([[10.0, 6.0, 2.0]])
    plan = np.array([[9.0, 5.0, 1.0]])
    played = Round(
        d=np.zeros((1, 3), dtype=np.int64),
        u=np.zeros((1, 3), dtype=np.int64),
        mask=np.zeros((1, 3), dtype=np.int64),
        plan=plan,
        correction=np.zeros((1, 3)),
        expected=expected,
        mean=0.0,
        stderr=0.0,
    )
    assert targets(played, 0.0).tolist() == [[10.0, 6.0, 2.0]]
    # λ = 1: T_t plus what the later turns found beyond the estimate
    assert targets(played, 1.0).tolist() == [[12.0, 7.0, 2.0]]
    assert targets(played, 0.5).tolist() == [[10.75, 6.5, 2.0]]


def test_a_round_of_self_play_fits_a_correction() -> None:
    played = play_round(DEFAULT, None, 40, seed=5)
    assert played.d.shape == (40, 39)
    assert (played.d[:, 0] == 0).all() and (played.mask[:, 0] == 0).all()
    # each turn fills exactly one cell
    filled = played.d + played.u + np.bitwise_count(played.mask)
    assert (filled == np.arange(39)).all()
    # the bot's own expectation of the first turn is the plan value's one-step lookahead
    assert (played.expected[:, 0] > played.plan[:, 0]).all()
    weights = solve_weights([played], 13, 0.7, 1.0)
    assert weights.shape == (n_features(13),)
    fitted = Correction(DEFAULT, 13, weights).value(played.d, played.u, played.mask)
    wanted = targets(played, 0.7) - played.plan
    # the fit explains part of what the plan value misses
    assert np.mean((wanted - fitted) ** 2) < np.mean(wanted**2)
