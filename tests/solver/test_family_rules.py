"""The family's rules as the solver's fast paths read them, held equal to the engine on random
games of every preset (issue 34): the column sums (``kniffel.rules.column_sum``, the light
sheet's ``column_sums``, the bots' estimate of a full column), the cells that take only the first
roll (``kniffel.rules.first_roll_only``) and the ↓/↑ fill order (``kniffel.rules.fill_order``,
the exact solver's masks)."""

from __future__ import annotations

import random

import pytest

from kniffel.rules import (
    PRESETS,
    Announce,
    Dice,
    Discipline,
    Enter,
    EnterAction,
    Game,
    Roll,
    RollAction,
    Variant,
    column_sum,
    fill_order,
    first_roll_only,
    get_variant,
    sheet_sums,
)
from kniffel.solver.exact.sheet_space import SheetSpace
from kniffel.solver.play.family import BestEstimate
from kniffel.solver.play.family_fast import column_sums

#: Every preset, and Jamb and Yams with every optional column.
VARIANTS = {
    **{name: get_variant(name) for name in PRESETS},
    "jamb-hand-middle": get_variant("jamb", {"hand": True, "middle": True, "sum2_bonus": True}),
    "jamb-balkan": get_variant(
        "jamb",
        {"sum2_bonus": True, "sum2_bonus_points": 40, "sum2_negative": True, "full_five": True},
    ),
    "yams-hand-announce": get_variant("yams", {"hand": True, "announce": True}),
}
GAMES = 2


def check_position(game: Game, variant: Variant) -> None:
    """The rules' functions against the engine, for the seat to move and every column."""
    options = variant.options
    player = 0
    for spec in game.columns:
        cells = game.column_points(player, spec.id)
        totals = game.column_totals(player, spec.id)
        assert column_sum(options, cells, totals.kniffel_bonus, spec.factor) == totals.total
        filled = [value is not None for value in cells]
        order = fill_order(spec.discipline, len(cells))
        if order is not None:  # an arrow column fills its rows in its order, no other
            count = sum(filled)
            assert filled == [row in order[:count] for row in range(len(cells))]
        if all(filled) and totals.kniffel_bonus == 0:
            full = tuple(value or 0 for value in cells)
            total, bonus = column_sums(variant, full, spec.factor)
            upper = sum(full[sheet_sums(options).upper])
            assert (total, bonus) == (totals.total, upper >= sheet_sums(options).bonus_threshold)
            if spec.factor == 1:
                assert BestEstimate(options).column(spec.discipline, cells) == totals.total
    # a roll is refused exactly where every open cell takes only the first roll
    announced = game.announced(player) is not None
    by_id = {spec.id: spec.discipline for spec in game.columns}
    first_only = not announced and all(
        first_roll_only(by_id[cell.column]) for cell in game.allowed_cells(player)
    )
    assert game.only_first_roll_cells(player) == first_only


def play_randomly(variant: Variant, seed: int) -> Game:
    """A solitaire game of random legal decisions and random dice, checked after each event."""
    rng = random.Random(seed)
    game = Game(variant, ["A"])
    while not game.is_finished:
        announce = game.announce_options()
        if announce and rng.random() < 0.3:
            game.push(Announce("A", rng.choice(announce).cell))
        actions = game.legal_actions()
        rolls = [a for a in actions if isinstance(a, RollAction)]
        entries = [a for a in actions if isinstance(a, EnterAction)]
        if rolls and (not entries or rng.random() < 0.4):
            keep = rng.choice(rolls).keep
            thrown = [rng.randint(1, 6) for _ in range(5 - len(keep))]
            game.push(Roll("A", Dice.of([*keep, *thrown]), keep))
        else:
            game.push(Enter("A", rng.choice(entries).cell))
        check_position(game, variant)
    return game


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_rules_functions_are_the_engines_on_random_games(name: str) -> None:
    variant = VARIANTS[name]
    for seed in range(GAMES):
        game = play_randomly(variant, seed)
        assert game.total(0) == sum(
            column_sum(variant.options, game.column_points(0, spec.id), 0, spec.factor)
            + game.column_totals(0, spec.id).kniffel_bonus * spec.factor
            for spec in game.columns
        )


@pytest.mark.parametrize("discipline", [Discipline.DOWN, Discipline.UP])
def test_the_exact_solvers_masks_follow_the_rules_fill_order(discipline: Discipline) -> None:
    space = SheetSpace(PRESETS["kniffel"].options, discipline)
    order = fill_order(discipline, space.n_rows)
    assert order is not None
    for filled in range(space.n_rows + 1):
        assert space.masks(filled).tolist() == [sum(1 << row for row in order[:filled])]
