"""The win bot and ``kniffel duel``: seeded, seats swapped, and a bot that plays for the win."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import Dice, Enter, Game, Roll, RollAction, get_variant
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.duel import DuelResult, duel
from kniffel.solver.chances.winbot import WinBot, win_choices


def test_a_duel_is_seeded_and_counts_every_game() -> None:
    result = duel(get_variant("kniffel"), ("win", "best"), 8, seed=4, late=3)
    assert result.games == 8
    assert sum(result.wins.values()) + result.ties == 8
    again = duel(get_variant("kniffel"), ("win", "best"), 8, seed=4, late=3)
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


def twenty_behind() -> Game:
    """Anna: 242 points, only the Viererpasch open; Ben: 262, only his Kniffel open."""
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    shared = [
        ("ones", "11123"),
        ("twos", "22213"),
        ("threes", "33312"),
        ("fours", "44412"),
        ("fives", "55512"),
        ("sixes", "66612"),
        ("full_house", "22333"),
        ("small_straight", "12346"),
        ("large_straight", "23456"),
    ]
    anna = [*shared, ("kniffel", "12346"), ("three_kind", "66612"), ("chance", "66655")]
    ben = [*shared, ("three_kind", "66655"), ("four_kind", "66665"), ("chance", "22233")]
    for (a, a_dice), (b, b_dice) in zip(anna, ben, strict=True):
        game.push(Enter("Anna", game.cell(a), dice=Dice.parse(a_dice)))
        game.push(Enter("Ben", game.cell(b), dice=Dice.parse(b_dice)))
    return game


def test_behind_by_twenty_the_win_bot_rolls_for_a_high_four_of_a_kind() -> None:
    """Anna's last turn, only Vierer-Pasch open, 242 points; Ben has 262 and only his Kniffel
    open. Anna wins only with more than 20 in the four of a kind (tied at 20): four threes
    never reach it. After 1 3 3 5 6 the points keep 3 3 (the likeliest four of a kind); the win
    bot keeps the 6, the likeliest four of a kind worth 21 or more."""
    variant = get_variant("kniffel")
    game = twenty_behind()
    game.push(Roll("Anna", Dice.parse("13356")))
    assert best_bot(variant).choose(game) == RollAction((3, 3))
    assert WinBot(variant).choose(game) == RollAction((6,))
    chances = {c.label: c.win for c in win_choices(game)}
    assert chances["keep 6"] > chances["keep 3 3"] + 0.05
    assert 0.0 < chances["keep 3 3"] < chances["keep 6"] < 0.2


def test_the_tipp_serves_positions_from_several_threads_alike() -> None:
    """One win bot serves every request of a process: concurrent positions must not see each
    other's opponents."""
    games = [twenty_behind(), twenty_behind()]
    games[0].push(Roll("Anna", Dice.parse("13356")))
    games[1].push(Enter("Anna", games[1].cell("four_kind"), dice=Dice.parse("66665")))
    alone = [[(c.label, c.win) for c in win_choices(g)] for g in games]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda i: win_choices(games[i % 2]), range(16)))
    for i, choices in enumerate(together):
        assert [(c.label, c.win) for c in choices] == alone[i % 2]


def test_the_interval_comes_from_the_deals() -> None:
    """Each deal's two games are one trial: the interval is 1.96 standard errors of the
    deals' scores, narrower than counting the games as independent when the seats mirror."""
    mirrored = DuelResult(
        get_variant("kniffel"),
        ("win", "best"),
        0,
        8,
        {"win": 4, "best": 4},
        0,
        (0.5, 0.5, 0.5, 0.5),
    )
    assert mirrored.ci95["win"] == (0.5, 0.5)
    scores = (1.0, 0.5, 0.5, 0.5)
    spread = DuelResult(
        get_variant("kniffel"), ("win", "best"), 0, 8, {"win": 5, "best": 3}, 0, scores
    )
    half = 1.96 * float(np.std(scores, ddof=1)) / 2
    assert spread.ci95["win"] == pytest.approx((0.625 - half, 0.625 + half))
    assert spread.ci95["best"] == pytest.approx((0.375 - half, 0.375 + half))


def test_cli_json_and_bad_input() -> None:
    result = CliRunner().invoke(
        cli,
        ["duel", "--variant", "kniffel", "--games", "4", "--seed", "1", "--late", "3", "--json"],
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert {"games", "wins", "ties", "win_rate", "ci95"} <= set(body)
    assert body["games"] == 4 and set(body["wins"]) == {"win", "best"}
    late = CliRunner().invoke(
        cli, ["duel", "--variant", "kniffel", "--games", "2", "--late", "2", "--json"]
    )
    assert late.exit_code == 0, late.output
    assert json.loads(late.output)["games"] == 2
    for args in (
        ["--games", "3"],
        ["--bots", "win"],
        ["--bots", "best,best"],
        ["--bots", "x,best"],
        ["--late", "0"],
    ):
        bad = CliRunner().invoke(cli, ["duel", "--variant", "kniffel", *args])
        assert bad.exit_code == 2, bad.output
        assert len(bad.output.strip().splitlines()) == 1


def test_the_plain_output_is_one_table_with_a_head() -> None:
    """The bots' rows and the ties are one table drawn by rich (plain columns in a pipe),
    not columns padded by hand (issue 34)."""
    result = CliRunner().invoke(cli, ["duel", "--bots", "random,greedy", "--games", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].split() == ["bot", "wins", "win", "rate", "95", "%", "interval"]
    assert [line.split()[0] for line in lines[2:]] == ["random", "greedy", "ties"]
    wins = lines[1].index("wins") + len("wins")  # figures aligned right, under their head
    assert all(line[wins - 1] != " " for line in lines[2:])
