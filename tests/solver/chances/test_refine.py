"""Jamb's and Yams's chances narrowed after their first answer (kniffel.solver.chances.refine)."""

from __future__ import annotations

import random

import pytest

from kniffel.board.players.sample import random_game
from kniffel.rules import Game
from kniffel.solver.chances import refine
from kniffel.solver.chances.family import family_finals, family_kept
from kniffel.solver.chances.forecast import Chances, family_forecast
from kniffel.solver.chances.refine import first_counts, narrowed, next_sheet, settled, shown_points

#: A first answer of this many games a sheet: the tests' positions cost a fraction of a second.
FIRST = 24


@pytest.fixture(autouse=True)
def few_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refine, "family_samples_for", lambda left: FIRST if left > 0 else 0)


def _position(seed: int, players: int = 3) -> Game:
    """Yams a little over half way: a sheet's game costs some milliseconds."""
    names = [f"P{k + 1}" for k in range(players)]
    whole = random_game("yams", names, random.Random(seed), {"hand": True, "announce": True})
    entries = [i for i, e in enumerate(whole.log) if type(e).__name__ == "Enter"]
    game = Game(whole.variant, whole.players)
    for event in whole.log[: entries[int(len(entries) * 0.6)] + 1]:
        game.push(event)
    return game


def _widest(chances: Chances) -> float:
    return max(p.high - p.low for p in chances.players)


def _first(game: Game) -> Chances:
    return family_forecast(game, first_counts(game))


def test_more_games_narrow_the_chances_and_reuse_the_games_played() -> None:
    game = _position(7)
    first = _first(game)
    assert not settled(first) and next_sheet(game, first, [FIRST] * 3) is not None
    steps = list(narrowed(game, first, cap=4, target=0))
    assert [s.refining for s in steps] == [True] * (len(steps) - 1) + [False]
    last = steps[-1]
    assert _widest(last) < _widest(first)
    games = [p.samples for p in last.players]
    assert sum(games) > 3 * FIRST and all(FIRST <= n <= 4 * FIRST for n in games)
    for p, n in enumerate(games):
        # the games a sheet has are kept, its first FIRST games those of the first answer
        assert family_kept(game, p) >= n
        assert family_finals(game, p, FIRST).tolist() == family_finals(game, p, n)[:FIRST].tolist()
    # an unchanged sheet starts the next answer from the games it has
    assert first_counts(game, cap=4) == [max(FIRST, n) for n in games]


def test_the_cap_ends_the_narrowing_with_the_range_it_reached() -> None:
    game = _position(8)
    first = _first(game)
    steps = list(narrowed(game, first, cap=2, target=0))  # never narrow enough: to the cap
    last = steps[-1]
    assert not last.refining and not settled(last, target=0)
    assert all(p.samples <= 2 * FIRST for p in last.players)
    assert next_sheet(game, last, [p.samples for p in last.players], cap=2, target=0) is None
    # a cap of 1: no narrowing at all
    assert next_sheet(game, first, [FIRST] * 3, cap=1, target=0) is None


def test_narrow_enough_ends_it_and_the_width_is_the_one_shown() -> None:
    game = _position(9, players=2)
    first = _first(game)
    assert next_sheet(game, first, [FIRST] * 2, target=100) is None
    assert [s.refining for s in narrowed(game, first, target=100)] == [False]
    assert shown_points(0.3201, 0.3799) == 6  # "≈ 32–38 %"
    assert shown_points(0.3199, 0.3751) == 7  # ±2.8 shows as "≈ 31–38 %": not yet
    assert shown_points(0.31, 0.37) == 6  # ends on whole points stay
