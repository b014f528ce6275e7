"""The forecast: even at the start, seeded by the position, exact where it can be."""

from __future__ import annotations

import pytest

from kniffel.rules import Enter, Game, get_variant
from kniffel.solver.chances.forecast import forecast


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("kniffel", {}),
        ("kniffel", {"joker": "none"}),
        ("rauf-runter", {"joker": "none", "kniffel_bonus": 50}),
    ],
)
def test_an_empty_game_is_even_under_any_rules(variant: str, options: dict[str, object]) -> None:
    game = Game(get_variant(variant, options), ["A", "B", "C"])
    chances = forecast(game, samples=20)
    assert chances.method == "simulation"  # an empty sheet reaches every state: simulated
    assert chances.samples == 20
    # the same sheet gets the same games, so equal sheets have equal chances
    assert [p.win for p in chances.players] == pytest.approx([1 / 3] * 3)
    first = chances.players[0]
    assert first.low < first.win < first.high
    assert first.p10 < first.expected_total < first.p90


def _chance_left(game: Game) -> None:
    for row in [r.value for r in game.rows][:-1]:
        for name in game.players:
            game.push(Enter(name, game.cell(row), points=0))


def test_one_entry_left_is_exact() -> None:
    game = Game(get_variant("kniffel"), ["A", "B"])
    _chance_left(game)
    chances = forecast(game)
    assert chances.method == "exact" and chances.samples == 0
    assert [p.win for p in chances.players] == pytest.approx([0.5, 0.5])
    assert chances.players[0].expected_total == pytest.approx(23.3, abs=0.05)  # Chance alone


def test_the_same_position_gives_the_same_figures() -> None:
    game = Game(get_variant("rauf-runter"), ["A", "B"])
    game.push(Enter("A", game.cell("down.ones"), points=3))
    first = forecast(game, samples=30)
    again = forecast(game.copy(), samples=30)
    assert first == again
    assert first.method == "simulation"
    assert [p.samples for p in first.players] == [30, 30]
