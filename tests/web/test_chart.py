"""The end chart: names are text, and each line has one point per standing entry."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from kniffel.board import chart
from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.rules import Clear, Dice, Enter, Game, get_variant


def _game(*players: str) -> Game:
    game = Game(get_variant("kniffel"), list(players))
    for player in players:
        game.push(Enter(player, game.cell("chance"), points=20))
    return game


def glyphs(svg: str) -> set[str]:
    """The glyphs the chart draws (its text is paths, one definition per glyph used)."""
    return set(re.findall(r'<path id="(DejaVu[^"]*)"', svg))


def drawn(name: str) -> set[str]:
    return glyphs(chart.totals_chart_svg(_game(name, "Ben"), Translator("de")))


def test_a_name_with_dollars_is_drawn_as_written() -> None:
    # The same characters in another order: the same glyphs, "$" among them
    # (as mathtext, "$1 & $2" would lose both "$" and draw "1&2").
    assert drawn("Bäcker $1 & $2") == drawn("Bäcker 1 & 2 $")
    assert drawn("Bäcker $1 & $2") != drawn("Bäcker 1 & 2")


def test_a_name_that_is_broken_mathtext_still_draws() -> None:
    assert drawn("Ich $^$ du") == drawn("Ich du $^")


def test_the_chart_of_a_game_with_dollar_names_answers(
    client: TestClient, service: GameService
) -> None:
    view = service.create("kniffel", None, ["Ich $^$ du", "Bäcker $1 & $2"])
    response = client.get(f"/g/{view.id}/chart.svg")
    assert response.status_code == 200 and "<svg" in response.text


def test_a_cleared_and_refilled_cell_is_one_turn() -> None:
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66612")))
    game.push(Enter("Ben", game.cell("chance"), points=20))
    game.push(Clear("Anna", game.cell("sixes")))
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66661")))
    game.push(Enter("Anna", game.cell("chance"), points=25))
    assert chart.running_totals(game) == [[0, 24, 49], [0, 20]]
