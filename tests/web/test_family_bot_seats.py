"""Bot seats in Jamb and Yams: the bots announce, roll and enter through the service."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from kniffel.board.bot_seats import BotSeats
from kniffel.board.hub import LocalHub
from kniffel.board.service import GameService
from kniffel.rules import Announce, Game
from kniffel.store import GameStore


@pytest.fixture
def store(db_url: str) -> Iterator[GameStore]:
    opened = GameStore.open(db_url)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("variant", "options", "bot"),
    [
        ("jamb", {}, "best"),
        ("jamb", {"hand": True}, "greedy"),
        ("yams", {"announce": True}, "best"),
    ],
)
def test_a_bot_seat_plays_a_whole_family_game(
    store: GameStore, variant: str, options: dict[str, bool], bot: str
) -> None:
    board = GameService(store, LocalHub(), bots=BotSeats(delay=0), dice=Random(11))
    view = board.create(variant, options, ["Robo"], dice_mode="virtual", bots={"Robo": bot})
    final = board.get(view.id)
    game = final.game
    assert game.is_finished
    # the stored events replay to the same sheet, and the bot announced through the service
    replay = Game(game.variant, ["Robo"])
    replay.extend(game.log)
    assert replay.total("Robo") == game.total("Robo") > 0
    assert any(isinstance(event, Announce) for event in game.log)
