"""The win bot and ``kniffel duel``: seeded, seats swapped, and a bot that plays for the win."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import Dice, Enter, Game, Roll, RollAction, get_variant
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.winbot import WinBot, duel


def test_a_duel_is_seeded_and_counts_every_game() -> None:
    result = duel(get_variant("kniffel"), ("win", "best"), 8, seed=4)
    assert result.games == 8
    assert sum(result.wins.values()) + result.ties == 8
    again = duel(get_variant("kniffel"), ("win", "best"), 8, seed=4)
    assert again.wins == result.wins and again.ties == result.ties
    rate = result.win_rate
    assert rate["win"] + rate["best"] == pytest.approx(1.0)
    low, high = result.ci95["win"]
    assert low <= rate["win"] <= high


def test_the_seats_are_swapped() -> None:
    """The same bot on both sides of every deal: each deal's two games mirror each other,
    so against a copy of itself a bot wins exactly half (ties aside)."""
    result = duel(get_variant("kniffel"), ("greedy", "best"), 4, seed=2)
    mirror = duel(get_variant("kniffel"), ("best", "greedy"), 4, seed=2)
    assert result.wins == mirror.wins and result.ties == mirror.ties


def test_on_the_last_roll_the_win_bot_plays_for_the_tie_the_points_bot_cannot_reach() -> None:
    """Ben's last turn, only Chance open, Anna finished with 30. After roll 2 Ben holds
    6 6 6 5 1 with one roll left. For points, keep 6 6 6 5 (26.5 expected); but 23 + one die
    never reaches 30, while 6 6 6 and two sixes ties it: the win bot keeps 6 6 6."""
    variant = get_variant("kniffel")
    game = Game(variant, ["Anna", "Ben"])
    for row in [r.value for r in game.rows if r.value != "chance"]:
        for name in ("Anna", "Ben"):
            game.push(Enter(name, game.cell(row), points=0))
    game.push(Enter("Anna", game.cell("chance"), points=30))
    game.push(Roll("Ben", Dice.parse("66612")))
    game.push(Roll("Ben", Dice.parse("66651"), keep=(6, 6)))
    assert best_bot(variant).choose(game) == RollAction((5, 6, 6, 6))
    assert WinBot(variant).choose(game) == RollAction((6, 6, 6))


def test_cli_json_and_bad_input() -> None:
    result = CliRunner().invoke(
        cli, ["duel", "--variant", "kniffel", "--games", "4", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert {"games", "wins", "ties", "win_rate", "ci95"} <= set(body)
    assert body["games"] == 4 and set(body["wins"]) == {"win", "best"}
    for args in (
        ["--games", "3"],
        ["--bots", "win"],
        ["--bots", "best,best"],
        ["--bots", "x,best"],
    ):
        bad = CliRunner().invoke(cli, ["duel", "--variant", "kniffel", *args])
        assert bad.exit_code == 2, bad.output
        assert len(bad.output.strip().splitlines()) == 1
