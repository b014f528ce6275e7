"""Random finished games from the rules engine, for tests and benchmarks of the statistics.

Every move is one of the engine's legal actions (:meth:`Game.legal_actions`),
dice from a seeded ``random.Random``: the games are legal by construction and
the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kniffel.record import record_of
from kniffel.rules import Dice, Game, RollAction, get_variant

__all__ = ["random_game", "random_record"]


def random_game(variant: str, players: Sequence[str], rng: random.Random) -> Game:
    """A whole game of random legal moves (entries favoured after a roll, so games end)."""
    game = Game(get_variant(variant), list(players))
    while not game.is_finished:
        actions = game.legal_actions()
        entries = [a for a in actions if not isinstance(a, RollAction)]
        action = rng.choice(entries) if entries and rng.random() < 0.6 else rng.choice(actions)
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)
    return game


def random_record(variant: str, players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """The ``kniffel-record/1`` document of :func:`random_game`."""
    return record_of(random_game(variant, players, rng))
