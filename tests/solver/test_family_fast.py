"""The light sheet of the Jamb and Yams bots: the engine's games, event for event."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.rules import (
    MAX_ROLLS,
    Announce,
    Dice,
    Discipline,
    Enter,
    Game,
    KniffelError,
    Roll,
    get_variant,
    open_indices,
    possible_points,
    rows_for,
)
from kniffel.solver.exact.dice_tables import P_KEEP, ROLL_KEEPS
from kniffel.solver.play.family import (
    BestEstimate,
    Choice,
    FamilyBot,
    GreedyEstimate,
    _Plan,
    candidate_worths,
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


def test_candidate_worths_are_the_keep_worths() -> None:
    """A roll's keeps valued alone: the full product's values at those keeps, to the bit."""
    worth = np.random.default_rng(8).random(252) * 1000
    full = keep_worth(worth)
    for r in range(252):
        keeps, worths = candidate_worths(worth, r)
        assert keeps.tolist() == list(dict.fromkeys(ROLL_KEEPS[r].tolist()))
        assert worths.tolist() == full[keeps].tolist()


def _old_decision(bot: FamilyBot, plan: _Plan, r: int, rolls: int, can_announce: bool) -> Choice:
    """``FamilyBot.decide`` unannounced as it was before a roll's keeps were valued alone:
    every keep of the full product, the padded ``ROLL_KEEPS``, the announceable places one
    by one."""
    final = plan.final
    best_keeps = keep_worth(final[2])[ROLL_KEEPS].max(axis=1)  # each roll's best keep
    keeps = (keep_worth(np.maximum(final[1], best_keeps)), keep_worth(final[2]))
    candidates = ROLL_KEEPS[r]
    if rolls == 1 and can_announce:
        best, worth = None, float(max(final[0, r], keeps[0][candidates].max()))
        for place, value in bot._announce_holding(plan, r).items():
            if round(value, 9) > round(worth, 9):
                best, worth = place, value
        if best is not None:
            return ("announce", best)
    if rolls < MAX_ROLLS:
        worths = keeps[rolls - 1]
        keep = int(candidates[np.argmax(np.round(worths[candidates], 9))])
        if round(worths[keep], 9) > round(final[rolls - 1, r], 9):
            return ("roll", keep)
    return ("enter", None)


@pytest.mark.parametrize("name", ["jamb", "yams-seche-annoncee"])
def test_decisions_are_those_of_the_full_keep_product(name: str) -> None:
    """On random sheets and rolls the bot's choices are those of the old formulas (the same
    bot: only less work), announcements included."""
    variant = VARIANTS[name]
    bot = make_family_bot("best", variant)
    rng = random.Random(name)
    checked = set()
    for _ in range(12):
        sheet = Game(variant, ["Ana"])
        made = rng.randrange(0, sheet.cells_per_player - 1)
        while sheet.filled_count(0) < made:
            sheet.push(Roll("Ana", Dice.of([rng.randint(1, 6) for _ in range(5)])))
            sheet.push(Enter("Ana", rng.choice(sheet.entry_options(0)).cell))
        cells = tuple(sheet.column_points(0, spec.id) for spec in variant.columns)
        allowed = [
            (c, i)
            for c, spec in enumerate(variant.columns)
            for i in open_indices(spec.discipline, [v is not None for v in cells[c]])
        ]
        announceable = any(
            None in cells[c]
            for c, spec in enumerate(variant.columns)
            if spec.discipline is Discipline.ANNOUNCE
        )
        plan = bot._plan(0, cells, allowed)
        for r in rng.sample(range(252), 40):
            for rolls in (1, 2):
                got = bot.decide(0, cells, allowed, r, rolls, None, can_announce=announceable)
                assert got == _old_decision(bot, plan, r, rolls, announceable)
                checked.add(got[0])
    assert checked == {"roll", "enter", "announce"}  # every kind of choice was compared


def test_a_plan_of_the_announced_cell_alone_is_not_the_sheets_plan() -> None:
    """The engine asks for a turn's plan after an announcement with the announced cell alone
    (a Tipp after a person announced): the sheet's plan of every open place stays its own."""
    variant = VARIANTS["jamb"]
    game = Game(variant, ["Ana"])
    cells = tuple(game.column_points(0, spec.id) for spec in variant.columns)
    places = [
        (c, i)
        for c, spec in enumerate(variant.columns)
        for i in open_indices(spec.discipline, [v is not None for v in cells[c]])
    ]
    announce = next(p for p in places if variant.columns[p[0]].discipline is Discipline.ANNOUNCE)
    bot = make_family_bot("best", variant)
    alone = bot._plan(0, cells, [announce])
    whole = bot._plan(0, cells, places)
    fresh = make_family_bot("best", variant)._plan(0, cells, places)
    assert whole.final.tolist() == fresh.final.tolist()
    assert whole.final.tolist() != alone.final.tolist()
    assert bot._plan(0, cells, [announce]) is whole  # the whole plan serves the announced turn
