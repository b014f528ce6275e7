"""The Jamb and Yams bots: legal games through the rules engine, announcements, strength."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.rules import (
    Announce,
    AnnounceAction,
    Cell,
    Dice,
    Discipline,
    Enter,
    EnterAction,
    Game,
    Roll,
    Row,
    Sheet,
    Variant,
    get_variant,
    possible_points,
    rows_for,
    turns_of,
)
from kniffel.solver.advice.family import family_choices
from kniffel.solver.play.family import BestEstimate, make_family_bot, play_game
from kniffel.solver.play.simulate import simulate

VARIANTS = {
    "jamb": get_variant("jamb"),
    "jamb-hand-middle": get_variant("jamb", {"hand": True, "middle": True}),
    "jamb-house": get_variant("jamb", {"trips_bonus": 20, "straight_fixed": True}),
    "yams-seche-annoncee": get_variant("yams", {"hand": True, "announce": True}),
}


def faces(variant: Variant, seed: int) -> np.typing.NDArray[np.int64]:
    return np.random.default_rng([seed, 0]).integers(1, 7, size=(turns_of(variant), 3, 5))


def reckoned_total(variant: Variant, game: Game) -> int:
    """The total by docs/rules.md, reckoned here from the cells, apart from the engine."""
    total = 0
    rows = rows_for(variant.options)
    for spec in variant.columns:
        cells = dict(zip(rows, game.column_points(0, spec.id), strict=True))
        upper = sum(cells[row] or 0 for row in rows[:6])
        if variant.options.sheet is Sheet.JAMB:
            sum2 = max(0, ((cells[Row.MAX] or 0) - (cells[Row.MIN] or 0)) * (cells[Row.ONES] or 0))
            lower = sum(cells[row] or 0 for row in rows[8:])
            total += upper + 30 * (upper >= 60) + sum2 + lower
        else:
            total += upper + 35 * (upper >= 63) + sum(cells[row] or 0 for row in rows[6:])
    return total


@pytest.mark.parametrize("bot", ["random", "greedy", "best"])
@pytest.mark.parametrize("name", list(VARIANTS))
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_bot_plays_whole_legal_games(name: str, bot: str, seed: int) -> None:
    variant = VARIANTS[name]
    game = play_game(make_family_bot(bot, variant, seed), faces(variant, seed))
    assert game.is_finished
    assert all(
        value is not None for spec in variant.columns for value in game.column_points(0, spec.id)
    )
    # every event replays through a fresh engine to the same total, and docs/rules.md agrees
    replay = Game(variant, ["Bot"])
    replay.extend(game.log)
    assert replay.total(0) == game.total(0) == reckoned_total(variant, game)
    announce = any(spec.discipline is Discipline.ANNOUNCE for spec in variant.columns)
    if announce and bot != "random":
        assert any(isinstance(event, Announce) for event in game.log)


def _only_announce_column_open(variant: Variant) -> Game:
    """A Jamb game whose every other column is filled with the least points each row takes."""
    game = Game(variant, ["Anna"])
    rows = rows_for(variant.options)
    for spec in variant.columns:
        if spec.discipline is Discipline.ANNOUNCE:
            continue
        order = reversed(rows) if spec.discipline is Discipline.UP else rows
        for row in order:
            least = min(possible_points(row, variant.options))
            game.push(Enter("Anna", Cell(spec.id, row), points=least))
    return game


@pytest.mark.parametrize("bot", ["greedy", "best"])
def test_bot_announces_when_only_the_announce_column_is_open(bot: str) -> None:
    variant = VARIANTS["jamb"]
    game = _only_announce_column_open(variant)
    game.push(Roll("Anna", Dice.of([1, 2, 3, 5, 5])))
    action = make_family_bot(bot, variant).choose(game)
    # entering this first roll as it is scores little anywhere; announced, two rolls are left
    assert isinstance(action, AnnounceAction)
    assert action.cell.column == "announce"
    game.push(Announce("Anna", action.cell))
    assert game.announced("Anna") == action.cell


def test_bot_announces_the_row_the_first_roll_points_to() -> None:
    variant = VARIANTS["jamb"]
    game = _only_announce_column_open(variant)
    game.push(Roll("Anna", Dice.of([6, 6, 6, 6, 2])))
    action = make_family_bot("best", variant).choose(game)
    # four sixes: Poker is made (64 now, unannounced on the first roll), the Jamb one die away
    assert isinstance(action, AnnounceAction | EnterAction)
    assert action.cell in (Cell("announce", Row.POKER), Cell("announce", Row.JAMB))


@pytest.mark.parametrize("name", ["jamb", "yams-seche-annoncee"])
def test_best_beats_greedy_on_the_same_dice(name: str) -> None:
    variant = VARIANTS[name]
    greedy = simulate(variant, "greedy", 6, seed=3)
    best = simulate(variant, "best", 6, seed=3)
    assert best.totals.mean() > greedy.totals.mean()
    assert best.summary()["games"] == 6


def _two_free_cells_open(variant: Variant) -> Game:
    """A Jamb game with only Triling and Ful of the free column open, the rest at their least."""
    game = Game(variant, ["Anna"])
    rows = rows_for(variant.options)
    for spec in variant.columns:
        order = reversed(rows) if spec.discipline is Discipline.UP else rows
        for row in order:
            if spec.id == "free" and row in (Row.TRIPS, Row.FULL_HOUSE):
                continue
            least = min(possible_points(row, variant.options))
            game.push(Enter("Anna", Cell(spec.id, row), points=least, roll=1))
    sixes = Dice.of([6] * 5)
    for keep in ((), sixes.faces, sixes.faces):
        game.push(Roll("Anna", sixes, keep))
    return game


@pytest.mark.parametrize(("full_five", "row"), [(False, Row.TRIPS), (True, Row.FULL_HOUSE)])
def test_the_bot_and_the_tipp_enter_five_of_a_kind_as_ful_under_the_house_rule(
    full_five: bool, row: Row
) -> None:
    variant = get_variant("jamb", {"full_five": full_five})
    game = _two_free_cells_open(variant)
    assert make_family_bot("best", variant).choose(game) == EnterAction(Cell("free", row))
    _, choices = family_choices(game, 0, Dice.of([6] * 5), 3)
    points = {a.cell.row: p for a, _, p in choices if isinstance(a, EnterAction)}
    assert points == {Row.TRIPS: 28, Row.FULL_HOUSE: 60 if full_five else 0}


def test_the_bot_values_a_sum2_below_0_under_the_house_rule() -> None:
    cells = [None] * 6 + [8, 28] + [None] * 5  # Max 8, Min 28, the ones open
    plain = BestEstimate(get_variant("jamb").options).column(Discipline.FREE, cells)
    below = get_variant("jamb", {"sum2_negative": True}).options
    assert BestEstimate(below).column(Discipline.FREE, cells) < plain - 20
    # the ones entered: the rules' Σ2 itself, 2 × (8 − 28)
    ones = [2, *cells[1:]]
    assert BestEstimate(below).column(Discipline.FREE, ones) == pytest.approx(
        BestEstimate(get_variant("jamb").options).column(Discipline.FREE, ones) - 40
    )
