"""Random finished games from the rules engine, for tests and benchmarks of the statistics.

Every move is one of the engine's legal actions (:meth:`Game.legal_actions`),
dice from a seeded ``random.Random``: the games are legal by construction and
the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert

from kniffel.record import event_to_json, record_of
from kniffel.rules import Dice, Game, RollAction, get_variant
from kniffel.store import GameStore, summary_of
from kniffel.store.models import EVENTS, GAMES

__all__ = ["fill", "play_randomly", "random_game", "random_record"]


def random_game(
    variant: str,
    players: Sequence[str],
    rng: random.Random,
    options: dict[str, Any] | None = None,
) -> Game:
    """A whole game of random legal moves (entries favoured after a roll, so games end)."""
    game = Game(get_variant(variant, options or {}), list(players))
    play_randomly(game, rng, lambda played: played.is_finished)
    return game


def play_randomly(game: Game, rng: random.Random, done: Callable[[Game], bool]) -> None:
    """Random legal moves on ``game`` until ``done(game)`` (entries favoured after a roll)."""
    while not done(game):
        actions = game.legal_actions()
        entries = [a for a in actions if not isinstance(a, RollAction)]
        action = rng.choice(entries) if entries and rng.random() < 0.6 else rng.choice(actions)
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)


def random_record(
    variant: str,
    players: Sequence[str],
    rng: random.Random,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``kniffel-record/1`` document of :func:`random_game`."""
    return record_of(random_game(variant, players, rng, options))


def fill(
    store: GameStore,
    games: int,
    *,
    players: Sequence[str] = ("Anna", "Ben"),
    variant: str = "kniffel",
    seed: int = 0,
    distinct: int = 100,
    batch: int = 500,
) -> None:
    """Store ``games`` finished random games of ``players`` (``distinct`` different ones, cycled:
    playing 10,000 games out move by move would take minutes), ``batch`` per transaction.

    The rows are those :meth:`GameStore.create` writes (the same models), written in
    batches because one transaction per game would make a benchmark's database slow to build.
    """
    rng = random.Random(seed)
    played = [random_game(variant, players, rng) for _ in range(min(games, distinct))]
    prepared = [
        ([event_to_json(event) for event in game.log], summary_of(game), game.options.as_dict())
        for game in played
    ]
    start = datetime.now(UTC) - timedelta(days=games)
    with store.engine.connect() as connection:
        for number in range(games):
            events, summary, options = prepared[number % len(prepared)]
            at = start + timedelta(days=number)  # one game a day, oldest first
            game_id = f"s{seed:03d}{number:08d}"
            connection.execute(
                insert(GAMES),
                {
                    "id": game_id,
                    "key": f"key-{seed}-{number}",
                    "variant": variant,
                    "options": dict(options),
                    "players": list(players),
                    "dice_mode": "physical",
                    "bots": {},
                    "created_at": at,
                    "updated_at": at,
                    "finished": summary.finished,
                    "version": len(events),
                    "turns": summary.turns,
                    "totals": list(summary.totals),
                    "winners": list(summary.winners),
                },
            )
            if events:
                connection.execute(
                    insert(EVENTS),
                    [
                        {"game_id": game_id, "seq": seq, "payload": payload, "created_at": at}
                        for seq, payload in enumerate(events, start=1)
                    ],
                )
            if (number + 1) % batch == 0:
                connection.commit()
        connection.commit()
