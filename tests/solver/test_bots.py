"""Bots: legal moves through the engine, the same choices for one game as for a batch, strength."""

from __future__ import annotations

import numpy as np
import pytest

from kniffel.rules import (
    Enter,
    EnterAction,
    Event,
    Game,
    IllegalMoveError,
    KniffelError,
    Roll,
    RollAction,
    get_variant,
)
from kniffel.solver.advice import advise
from kniffel.solver.exact.column import solve_column
from kniffel.solver.play.bots import BOT_NAMES, make_bot
from kniffel.solver.play.simulate import game_events, simulate


def play_through_engine(variant_name: str, bot_name: str, seed: int) -> Game:
    """A whole solitaire game of ``bot_name``, every action applied by ``Game.apply``."""
    variant = get_variant(variant_name)
    bot = make_bot(bot_name, variant, seed)
    game = Game(variant, ["Bot"])
    rng = np.random.default_rng(seed)
    while not game.is_finished:
        action = bot.choose(game)
        assert action in game.legal_actions()
        if isinstance(action, RollAction):
            outcomes = game.chance_outcomes(action)
            dice = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
            game.apply(action, dice)
        else:
            game.apply(action)
    return game


@pytest.mark.parametrize("variant", ["kniffel", "yahtzee", "rauf-runter", "dreifach"])
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_a_bot_finishes_a_game_with_legal_actions(variant: str, bot: str) -> None:
    game = play_through_engine(variant, bot, seed=len(variant))
    assert game.is_finished
    assert game.filled_count("Bot") == game.cells_per_player


def test_a_finished_game_has_no_move() -> None:
    game = play_through_engine("kniffel", "greedy", seed=1)
    with pytest.raises(IllegalMoveError):
        make_bot("greedy", game.variant).choose(game)


def test_unknown_bot() -> None:
    with pytest.raises(KniffelError, match="random, greedy, best"):
        make_bot("clever", get_variant("kniffel"))


@pytest.mark.parametrize(
    ("variant", "bot"), [("rauf-runter", "best"), ("kniffel", "best"), ("dreifach", "greedy")]
)
def test_one_game_gets_the_choices_of_the_batch(variant: str, bot: str) -> None:
    """Asked move by move through the engine, the bot repeats what it did in the simulator."""
    simulation = simulate(get_variant(variant), bot, 3, seed=21, keep_logs=3)
    player = make_bot(bot, get_variant(variant))
    for g in range(3):
        events = game_events(simulation, g)
        game = Game(simulation.variant, ["Bot"])
        for event in events:
            assert player.choose(game) == _action(event)
            game.push(event)
        assert game.total("Bot") == simulation.totals[g]


def _action(event: Event) -> RollAction | EnterAction:
    if isinstance(event, Roll):
        return RollAction(event.keep)
    assert isinstance(event, Enter)
    return EnterAction(event.cell)


@pytest.mark.parametrize("variant", ["kniffel", "yahtzee"])
def test_best_follows_the_exact_advice(variant: str) -> None:
    """In one-column games the bot's choice is the advice's best (or tied with it)."""
    simulation = simulate(get_variant(variant), "greedy", 2, seed=13, keep_logs=2)
    bot = make_bot("best", simulation.variant)
    for g in range(2):
        game = Game(simulation.variant, ["Bot"])
        for event in game_events(simulation, g):  # greedy's games: positions best would avoid
            advice = advise(game)
            top = advice.choices[0].expected
            tied = [c.action for c in advice.choices if c.expected > top - 1e-9]
            assert bot.choose(game) in tied
            game.push(event)


def test_best_plays_kniffel_optimally() -> None:
    """The one-column bot follows the exact table: its mean is the table's value."""
    variant = get_variant("kniffel")
    simulation = simulate(variant, "best", 400, seed=3)
    ev = solve_column(variant.options).ev
    stderr = simulation.totals.std(ddof=1) / np.sqrt(simulation.games)
    assert abs(simulation.totals.mean() - ev) < 3 * stderr


def test_best_beats_greedy_beats_random_in_rauf_runter() -> None:
    variant = get_variant("rauf-runter")
    best = simulate(variant, "best", 200, seed=8).totals.mean()
    greedy = simulate(variant, "greedy", 200, seed=8).totals.mean()
    random = simulate(variant, "random", 200, seed=8).totals.mean()
    assert best > greedy + 100
    assert greedy > random + 300
    assert best > 650


@pytest.mark.parametrize("variant", ["kniffel", "rauf-runter"])
def test_repeated_sheets_play_as_each_alone(variant: str) -> None:
    """The bot works a turn out once per distinct sheet (``SheetBatch.distinct``): games
    played on from one position, many copies of a sheet, play exactly as each alone."""
    from kniffel.solver.chances.distribution import best_bot, roller, sheets_of, turns_left

    game = Game(get_variant(variant), ["Anna"])
    bot = best_bot(game.variant)
    copies, turns = 6, 4
    faces = np.random.default_rng(7).integers(1, 7, size=(copies, turns, 3, 5))
    together = sheets_of(game, [0], copies)
    assert together.distinct()[0].size == 1
    for turn in range(turns):
        bot.play_turns(together, roller(faces, turn), np.zeros((copies, 3)))
    assert together.distinct()[0].size > 1  # the games went apart
    for b in range(copies):
        alone = sheets_of(game, [0], 1)
        for turn in range(turns):
            bot.play_turns(alone, roller(faces[b : b + 1], turn), np.zeros((1, 3)))
        assert alone.totals()[0] == together.totals()[b]
        assert (alone.filled[0] == together.filled[b]).all()
    assert turns_left(game, 0) > turns
