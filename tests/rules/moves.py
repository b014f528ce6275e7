"""Short ways to set up positions in the rule tests: new games, entries and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from kniffel.record import state_dict
from kniffel.rules import Dice, Enter, Event, Game, KniffelError, get_variant, possible_points


def new_game(
    variant: str = "kniffel", players: tuple[str, ...] = ("Anna",), **options: Any
) -> Game:
    return Game(get_variant(variant, options), list(players))


def enter(
    game: Game,
    cell: str,
    dice: str | None = None,
    points: int | None = None,
    player: str | None = None,
) -> None:
    """An entry by ``player`` (default: the player to move) of typed dice, points or the roll."""
    name = player or game.current_name
    assert name is not None
    game.push(
        Enter(name, game.cell(cell), None if dice is None else Dice.parse(dice), points),
    )


def fill(game: Game, *cells: str) -> None:
    """Points entries by the player to move with the smallest non-zero value of each row."""
    for cell in cells:
        row = game.cell(cell).row
        enter(game, cell, points=min(v for v in possible_points(row, game.options) if v))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything an event could change: state, every player's pending dice and the history."""
    pending = [game.pending(name) for name in game.players]
    return state_dict(game), pending, list(game.log), game.last_event, game.can_undo


def refused(game: Game, event: Event, error: type[KniffelError] = KniffelError) -> str:
    """Push ``event``, expect ``error`` and no change at all; returns the message."""
    before = snapshot(game)
    with pytest.raises(error) as excinfo:
        game.push(event)
    assert snapshot(game) == before
    message = str(excinfo.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message
