"""The light sheet of the Jamb and Yams bots: the engine's games, event for event."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.rules import (
    Announce,
    Dice,
    Discipline,
    Enter,
    Game,
    KniffelError,
    Roll,
    get_variant,
    possible_points,
    rows_for,
)
from kniffel.solver.exact.dice_tables import P_KEEP
from kniffel.solver.play.family import (
    BestEstimate,
    GreedyEstimate,
    keep_worth,
    make_family_bot,
    play_game,
)
from kniffel.solver.play.family_fast import column_sums, play_light, simulate_light, supported
from kniffel.solver.play.simulate import simulate_family

from .test_family_bots import VARIANTS, faces, reckoned_total

#: The option sets the light sheet is checked on: every column kind and Kenta by the roll.
LIGHT = ["jamb", "jamb-hand-middle", "jamb-house", "yams-seche-annoncee"]


@pytest.mark.parametrize("bot", ["greedy", "best"])
@pytest.mark.parametrize("name", LIGHT)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_light_game_is_the_engine_game(name: str, bot: str, seed: int) -> None:
    variant = VARIANTS[name]
    thrown = faces(variant, seed)
    engine = play_game(make_family_bot(bot, variant), thrown)
    light = play_light(make_family_bot(bot, variant), thrown, events=True)
    # every roll with its keep, every announcement and every entry alike
    assert light.events == tuple(engine.log)
    for spec, cells in zip(variant.columns, light.cells, strict=True):
        assert cells == engine.column_points(0, spec.id)
    # the light game's events replay through a fresh engine to the rules' total
    replay = Game(variant, ["Bot"])
    replay.extend(light.events)
    assert replay.total(0) == reckoned_total(variant, replay)


def test_light_games_announce_and_roll_again() -> None:
    """The comparison above meets announcements and rerolls (else it would prove little)."""
    variant = VARIANTS["jamb"]
    light = play_light(make_family_bot("best", variant), faces(variant, 5), events=True)
    assert any(isinstance(event, Announce) for event in light.events)
    assert any(isinstance(event, Roll) and event.keep for event in light.events)


@pytest.mark.parametrize("name", ["jamb", "yams-seche-annoncee"])
def test_light_simulation_has_the_engine_figures(name: str) -> None:
    variant = VARIANTS[name]
    # a bot passed in plays through the engine; named, it plays on the light sheet
    engine = simulate_family(variant, make_family_bot("best", variant, 7), 3, seed=7, first=2)
    light = simulate_light(variant, "best", 3, seed=7, first=2)
    assert light.totals.tolist() == engine.totals.tolist()
    assert light.column_totals.tolist() == engine.column_totals.tolist()
    assert light.bonus.tolist() == engine.bonus.tolist()
    assert light.fifty.tolist() == engine.fifty.tolist()
    named = simulate_family(variant, "best", 3, seed=7, first=2)
    assert named.totals.tolist() == engine.totals.tolist()


def test_later_games_are_the_same_games() -> None:
    """Game g of a seed is the same whether a run starts at game 0 or at g (``first``)."""
    variant = VARIANTS["jamb"]
    whole = simulate_light(variant, "greedy", 3, seed=2)
    later = simulate_light(variant, "greedy", 1, seed=2, first=2)
    assert later.totals.tolist() == whole.totals[2:].tolist()


def test_light_sheet_refuses_what_it_does_not_play() -> None:
    joker = get_variant("yams", {"hand": True, "joker": "free", "kniffel_bonus": 100})
    assert not supported(joker)
    assert supported(VARIANTS["jamb"])
    with pytest.raises(KniffelError, match="joker or bonus"):
        play_light(make_family_bot("best", joker), faces(joker, 0))
    with pytest.raises(KniffelError, match="not random"):
        play_light(make_family_bot("random", VARIANTS["jamb"]), faces(VARIANTS["jamb"], 0))


@pytest.mark.parametrize("name", ["jamb", "jamb-house", "yams-seche-annoncee"])
@pytest.mark.parametrize("estimate", [BestEstimate, GreedyEstimate])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_column_values_are_the_column_estimates(
    name: str, estimate: type[BestEstimate] | type[GreedyEstimate], data: st.DataObject
) -> None:
    options = VARIANTS[name].options
    rows = rows_for(options)
    points = [sorted(possible_points(row, options)) for row in rows]
    cells = [data.draw(st.none() | st.sampled_from(p)) for p in points]
    i = data.draw(st.integers(0, len(rows) - 1))
    discipline = data.draw(st.sampled_from(list(Discipline)))
    worth = estimate(options)
    expected = []
    for value in points[i]:
        changed = list(cells)
        changed[i] = value
        expected.append(worth.column(discipline, changed))
    got = worth.column_values(discipline, cells, i, points[i])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_keep_worth_is_the_keep_matrix_product() -> None:
    worth = np.random.default_rng(4).random((3, 252)) * 1000
    np.testing.assert_allclose(keep_worth(worth), worth @ P_KEEP.T, rtol=0, atol=1e-9)


@pytest.mark.parametrize("name", ["jamb", "jamb-hand-middle", "yams-seche-annoncee"])
@pytest.mark.parametrize("made", [9, 30])
def test_light_game_from_a_sheet_is_the_engine_game(name: str, made: int) -> None:
    """Played on from a sheet of random entries (what the win chances do): the same events,
    cells and points as the engine's game from that sheet."""
    variant = VARIANTS[name]
    sheet = Game(variant, ["Ana"])
    rng = random.Random(made)
    while sheet.filled_count(0) < made:  # random dice into random allowed cells
        sheet.push(Roll("Ana", Dice.of([rng.randint(1, 6) for _ in range(5)])))
        sheet.push(Enter("Ana", rng.choice(sheet.entry_options(0)).cell))
    start = tuple(sheet.column_points(0, spec.id) for spec in variant.columns)
    thrown = faces(variant, made)
    engine = play_game(make_family_bot("best", variant), thrown, "Ana", sheet.alone(0))
    light = play_light(make_family_bot("best", variant), thrown, "Ana", events=True, start=start)
    assert light.events == tuple(engine.log)  # alone(): a game with no history
    for spec, cells in zip(variant.columns, light.cells, strict=True):
        assert cells == engine.column_points(0, spec.id)
    reckoned = sum(
        column_sums(variant, cells, spec.factor)[0]
        for spec, cells in zip(variant.columns, light.cells, strict=True)
    )
    assert reckoned == engine.total(0)
