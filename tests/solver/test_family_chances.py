"""Jamb's and Yams' simulated points to come: the sheet alone, seeded by the sheet."""

from __future__ import annotations

import numpy as np

from kniffel.rules import Announce, Cell, Dice, Enter, Game, Roll, Row, get_variant
from kniffel.solver.chances.family import family_finals, family_samples_for


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
    assert family_samples_for(0) == 0 and family_samples_for(52) == 24
    assert family_samples_for(2) == 400 and np.asarray(first).dtype == np.int64
