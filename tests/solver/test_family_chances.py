"""Jamb's and Yams' simulated points to come: the sheet alone, seeded by the sheet."""

from __future__ import annotations

import numpy as np

from kniffel.rules import Announce, Cell, Dice, Enter, Game, Roll, Row, get_variant, turns_of
from kniffel.solver.chances.family import (
    MAX_SAMPLES,
    SEED,
    family_finals,
    family_samples_for,
    sheet_key,
)
from kniffel.solver.play.family import make_family_bot, play_game


def _two_players() -> Game:
    game = Game(get_variant("jamb"), ["Ana", "Ivo"])
    game.push(Roll("Ana", Dice.of([6, 6, 6, 6, 2])))
    game.push(Enter("Ana", Cell("free", Row.POKER)))
    game.push(Roll("Ivo", Dice.of([1, 2, 3, 4, 5])))
    game.push(Enter("Ivo", Cell("free", Row.STRAIGHT)))
    game.push(Roll("Ana", Dice.of([5, 5, 5, 1, 2])))
    game.push(Announce("Ana", Cell("announce", Row.TRIPS)))
    return game


def test_alone_holds_the_sheet_at_the_start_of_the_next_turn() -> None:
    game = _two_players()
    solo = game.alone("Ana")
    assert solo.players == ("Ana",) and solo.total(0) == game.total("Ana") == 64
    assert solo.column_points(0, "free") == game.column_points("Ana", "free")
    assert solo.pending(0) is None and solo.announced(0) is None  # the turn does not count
    assert game.pending("Ana") is not None  # the game itself is untouched
    solo.push(Roll("Ana", Dice.of([1, 1, 1, 1, 1])))
    assert game.pending("Ana") == (Dice.of([5, 5, 5, 1, 2]), 1)


def test_the_same_sheet_gets_the_same_games_and_a_full_sheet_none() -> None:
    game = _two_players()
    first = family_finals(game, 0, 3)
    again = family_finals(game.alone("Ana"), 0, 3)  # the same sheet, another game around it
    assert first.tolist() == again.tolist() and len(first) == 3
    assert (first > 0).all()
    other = family_finals(game, 1, 3)
    assert other.tolist() != first.tolist()
    assert family_samples_for(0) == 0 and family_samples_for(52) == 117
    assert family_samples_for(13) == 1076 and family_samples_for(1) == MAX_SAMPLES
    assert np.asarray(first).dtype == np.int64


def test_the_games_are_the_bots_games_through_the_engine() -> None:
    """The light sheet and the bot kept between sheets play the games the engine plays from
    the sheet: game ``i`` of a sheet throws the dice of ``default_rng([SEED, key, i])``."""
    for game, player in ((_two_players(), 0), (_yams(), 1)):
        solo = game.alone(player)
        key = sheet_key(game, player)
        bot = make_family_bot("best", game.variant)
        expected = []
        for i in range(4):
            faces = np.random.default_rng([SEED, key, i]).integers(
                1, 7, size=(turns_of(game.variant), 3, 5)
            )
            played = play_game(bot, faces, solo.players[0], solo.copy())
            expected.append(played.total(0) - solo.total(0))
        assert family_finals(game, player, 4).tolist() == expected
        # the first games of a sheet are the same whatever their number
        assert family_finals(game, player, 2).tolist() == expected[:2]


def _yams() -> Game:
    game = Game(get_variant("yams", {"hand": True, "announce": True}), ["Léa", "Hugo"])
    game.push(Roll("Léa", Dice.of([6, 6, 6, 6, 2])))
    game.push(Enter("Léa", Cell("hand", Row.FOUR_KIND)))
    game.push(Roll("Hugo", Dice.of([5, 5, 5, 2, 2])))
    game.push(Enter("Hugo", Cell("down", Row.ONES)))
    return game
