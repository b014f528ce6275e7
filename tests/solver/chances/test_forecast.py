"""The forecast: even at the start, decided at the end, and without simulation under house rules."""

from __future__ import annotations

import pytest

from kniffel.rules import Enter, Game, get_variant
from kniffel.solver.chances.forecast import forecast


@pytest.mark.parametrize(
    ("variant", "options", "method"),
    [
        ("kniffel", {}, "exact"),
        ("kniffel", {"joker": "none"}, "exact"),
        ("rauf-runter", {"joker": "none", "kniffel_bonus": 50}, "simulation"),
    ],
)
def test_an_empty_game_is_even_under_any_rules(
    variant: str, options: dict[str, object], method: str
) -> None:
    game = Game(get_variant(variant, options), ["A", "B", "C"])
    chances = forecast(game, budget=0)
    assert chances.method == method
    assert chances.samples == 0  # the measured spread: no games simulated
    assert [p.win for p in chances.players] == pytest.approx([1 / 3] * 3)
    first = chances.players[0]
    assert first.p10 < first.expected_total < first.p90


def test_a_budget_buys_simulated_games() -> None:
    game = Game(get_variant("kniffel"), ["A", "B"])
    for row in [r.value for r in game.rows][:-1]:
        for name in ("A", "B"):
            game.push(Enter(name, game.cell(row), points=0))
    chances = forecast(game, budget=600, seed=1)
    assert chances.samples == 300  # 600 bot turns, one entry left for each of two players
    assert sum(p.win for p in chances.players) == pytest.approx(1.0)
    assert chances.players[0].expected_total == pytest.approx(23.3, abs=0.05)  # Chance alone
