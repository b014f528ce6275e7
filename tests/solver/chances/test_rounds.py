"""Jamb's and Yams's end chart: the win chances after every round from a bounded number of bot
games (kniffel.solver.chances.rounds; docs/solver.md, "Win chances")."""

from __future__ import annotations

import random

from kniffel.board.players.sample import random_game
from kniffel.rules import Enter
from kniffel.solver.chances.rounds import chances_by_round, chart_bound, chart_samples

#: A small budget: two games a sheet at every round (the test's seconds, not the board's).
BUDGET = 20_000


def test_a_finished_jamb_game_has_a_point_per_round_each_with_its_interval() -> None:
    game = random_game("jamb", ["Ana", "Ben"], random.Random(3))
    totals = [game.total(p) for p in range(2)]
    assert totals[0] != totals[1]  # one winner
    winner = game.players[totals.index(max(totals))]

    series = chances_by_round(game, budget=BUDGET)

    rounds = game.cells_per_player  # 52: a point per round, not one per entry (104)
    assert len(series.turns) == rounds
    entries = [n for n, e in enumerate(game.log, start=1) if isinstance(e, Enter)]
    assert [turn.event for turn in series.turns] == entries[1::2]  # after Ben's entry
    assert {turn.player for turn in series.turns} == {"Ben"}
    assert series.start.by_name() == {"Ana": 0.5, "Ben": 0.5}  # empty sheets alike: exact
    for done, turn in enumerate(series.turns[:-1], start=1):
        assert turn.chances.method == "simulation"
        assert turn.chances.samples == chart_samples(rounds - done, rounds, 2, BUDGET) >= 2
        for player in turn.chances.players:
            assert 0 <= player.low <= player.win <= player.high <= 1
        assert abs(sum(turn.chances.by_name().values()) - 1) < 1e-9
    last = series.turns[-1].chances
    assert last.method == "exact" and series.winners == (winner,)
    assert last.by_name()[winner] == 1.0
    assert all(p.low == p.win == p.high for p in last.players)


def test_the_chart_s_work_is_bounded_and_late_rounds_get_more_games() -> None:
    # Jamb for four (52 rounds) and Yams with both extra columns for three (65)
    for rounds, players in ((52, 4), (65, 3)):
        assert chart_bound(rounds, players) <= 8_000_000
        games = [chart_samples(left, rounds, players) for left in range(rounds, 0, -1)]
        assert games == sorted(games) and games[0] >= 7 and games[-1] > 100 * games[0]
