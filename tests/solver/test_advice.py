"""Advice for one-column games: legal, exact (against yatzy-solver) and playable to the end."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from kniffel.rules import (
    ColumnSpec,
    Dice,
    Discipline,
    EnterAction,
    Game,
    KniffelError,
    Roll,
    RollAction,
    Variant,
    get_variant,
)
from kniffel.solver.advice import Advice, advise, column_table
from kniffel.solver.exact.column import ColumnTable

from .conftest import THEIR_NAMES


def _their_action(choice_action: EnterAction | RollAction) -> str:
    if isinstance(choice_action, EnterAction):
        return f"score {THEIR_NAMES.get(choice_action.cell.row, choice_action.cell.row.value)}"
    return "keep " + (" ".join(map(str, choice_action.keep)) or "-")


def _sheet(game: Game, player: int) -> str:
    """The sheet in yatzy-solver's notation."""
    filled = [
        THEIR_NAMES.get(row, row.value)
        for row in game.rows
        if game.points(player, game.cell(row.value)) is not None
    ]
    text = f"upper {game.column_totals(player, 'main').upper} | filled {','.join(filled) or '-'}"
    kniffel = game.points(player, game.cell("kniffel"))
    if kniffel is not None:
        text += f" | five_of_a_kind {kniffel}"
    return text


def _situation(game: Game, player: int) -> str:
    pending = game.pending(player)
    assert pending is not None
    dice, rolls = pending
    return f"dice {' '.join(map(str, dice.faces))} | rolls {3 - rolls} | {_sheet(game, player)}"


def _play(game: Game, rng: random.Random, check: Callable[[Game, Advice], None]) -> None:
    """Play ``game`` to the end with the advised actions and random dice."""
    while not game.is_finished:
        advice = advise(game, top=100)
        check(game, advice)
        action = advice.best
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)


def test_advised_yahtzee_games_agree_with_yatzy_solver(
    solved: Callable[..., ColumnTable], yatzy_reference: Callable[[str], Any]
) -> None:
    solved("yahtzee")  # built through the session's cache
    reference = yatzy_reference("american+forced-joker")
    compared = 0

    def check(game: Game, advice: Advice) -> None:
        nonlocal compared
        p = game.current_player()
        assert p is not None
        total = game.total(p)
        if game.pending(p) is None:
            value = reference.state_value(_sheet(game, p))
            assert advice.expected - total == pytest.approx(value, abs=1e-8)
            assert [c.action for c in advice.choices] == [RollAction()]
            return
        theirs = dict(reference.option_values(_situation(game, p)))
        ours = {_their_action(c.action): c.expected - total for c in advice.choices}
        assert ours.keys() <= theirs.keys()
        assert len(ours) == min(100, len(theirs))
        for action, value in ours.items():
            assert value == pytest.approx(theirs[action], abs=1e-8)
        best = {action for action, _ in reference.best_options(_situation(game, p))}
        assert _their_action(advice.best) in best
        compared += 1

    rng = random.Random(2024)
    for _ in range(2):
        game = Game(get_variant("yahtzee"), ["Anna"])
        _play(game, rng, check)
        assert game.is_finished and game.total("Anna") > 0
    assert compared > 26


def test_advice_lists_the_best_first_and_only_legal_entries(
    solved: Callable[..., ColumnTable],
) -> None:
    solved("kniffel")
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    game.push(Roll("Anna", Dice.parse("66665")))
    advice = advise(game, top=3)
    assert advice.player == "Anna" and advice.rolls == 1 and len(advice.choices) == 3
    values = [c.expected for c in advice.choices]
    assert values == sorted(values, reverse=True) and advice.expected == values[0]
    assert advice.best == RollAction((6, 6, 6, 6))
    assert advice.choices[0].label == "keep 6 6 6 6"
    game.push(Roll("Anna", Dice.parse("66665"), keep=(6, 6, 6, 6)))
    game.push(Roll("Anna", Dice.parse("66665"), keep=(6, 6, 6, 6)))
    last = advise(game, top=20)
    legal = {o.cell for o in game.entry_options()}
    assert {c.action.cell for c in last.choices if isinstance(c.action, EnterAction)} == legal
    sixes = next(c for c in last.choices if c.label.startswith("enter sixes"))
    assert sixes.points == 24 and sixes.label == "enter sixes (24)"


def test_advice_in_a_down_column() -> None:
    options = get_variant("kniffel", {"chance": False}).options
    variant = Variant("down", "Down", (ColumnSpec("main", "Runter", Discipline.DOWN),), options)
    game = Game(variant, ["Anna"])
    before = advise(game)
    assert before.expected == pytest.approx(column_table(options, Discipline.DOWN).ev)
    game.push(Roll("Anna", Dice.parse("11123")))
    advice = advise(game, top=50)
    entries = [c for c in advice.choices if isinstance(c.action, EnterAction)]
    assert [c.action.cell.row.value for c in entries] == ["ones"]
    assert advice.best == RollAction((1, 1, 1))
    _play(game, random.Random(5), lambda g, a: None)
    assert game.is_finished


def test_advice_refuses_finished_games() -> None:
    options = get_variant("kniffel", {"chance": False}).options
    variant = Variant("up", "Up", (ColumnSpec("main", "Rauf", Discipline.UP),), options)
    game = Game(variant, ["Anna"])
    _play(game, random.Random(1), lambda g, a: None)
    with pytest.raises(KniffelError, match="finished"):
        advise(game)
