"""Analysis: best play loses nothing, a bad move what the tables say; corrections are skipped."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from kniffel.record import RecordError, loads, new_record, record_of
from kniffel.rules import (
    Clear,
    Dice,
    Edit,
    Enter,
    EnterAction,
    Game,
    Roll,
    RollAction,
    Row,
    Undo,
    get_variant,
    standing_events,
)
from kniffel.solver.advice.analysis import analyse
from kniffel.solver.advice.position import evaluate
from kniffel.solver.exact.column import ColumnTable
from kniffel.solver.exact.sheet_space import SheetState
from kniffel.solver.play.bots import make_bot

PRESETS = ["kniffel", "yahtzee", "rauf-runter", "dreifach"]


def _play(variant: str, seats: dict[str, str], seed: int) -> Game:
    """A whole game of bots (``seats``: player -> bot), every action through the engine."""
    game = Game(get_variant(variant), list(seats))
    bots = {name: make_bot(bot, game.variant, seed) for name, bot in seats.items()}
    rng = random.Random(seed)
    while not game.is_finished:
        name = game.current_name
        assert name is not None
        action = bots[name].choose(game)
        if isinstance(action, RollAction):
            rest = [rng.randint(1, 6) for _ in range(5 - len(action.keep))]
            game.apply(action, Dice.of([*action.keep, *rest]))
        else:
            game.apply(action)
    return game


@pytest.mark.parametrize("variant", PRESETS)
def test_the_best_bot_loses_nothing(variant: str, solved: Callable[..., ColumnTable]) -> None:
    solved("kniffel")
    solved("yahtzee")
    game = _play(variant, {"Anna": "best", "Ben": "random"}, seed=5)
    result = analyse(game)
    assert result.finished
    assert result.exact == (variant in ("kniffel", "yahtzee"))
    anna = [d for d in result.decisions if d.player == "Anna"]
    assert all(d.loss <= 1e-9 for d in anna)
    assert result.players["Anna"].loss <= 1e-9
    # the random player gives points away, and the totals add its decisions up
    ben = [d for d in result.decisions if d.player == "Ben"]
    assert result.players["Ben"].loss == pytest.approx(sum(d.loss for d in ben))
    assert result.players["Ben"].loss > 10
    assert result.players["Ben"].decisions == len(ben)
    # one decision per entry and per keep before a later roll (every roll but a turn's first)
    rolls = sum(1 for e in game.log if isinstance(e, Roll))
    entries = sum(1 for e in game.log if isinstance(e, Enter))
    assert len(result.decisions) == entries + (rolls - entries)
    assert [d.event for d in result.decisions] == sorted(d.event for d in result.decisions)


def test_a_wasted_kniffel_loses_what_the_table_says(solved: Callable[..., ColumnTable]) -> None:
    table = solved("kniffel")
    game = Game(get_variant("kniffel"), ["Anna"])
    game.push(Roll("Anna", Dice.parse("66666")))
    game.push(Enter("Anna", game.cell("chance")))
    (decision,) = analyse(game).decisions
    rows = table.space.rows
    after_chance = 30 + table.value(SheetState(1 << rows.index(Row.CHANCE), 0, 0))
    after_kniffel = 50 + table.value(SheetState(1 << rows.index(Row.KNIFFEL), 0, 0))
    assert decision.made.action == EnterAction(game.cell("chance"))
    assert decision.made.expected == pytest.approx(after_chance, abs=1e-9)
    assert decision.best.action == EnterAction(game.cell("kniffel"))
    assert decision.best.expected == pytest.approx(after_kniffel, abs=1e-9)
    assert decision.loss == pytest.approx(after_kniffel - after_chance, abs=1e-9)
    assert decision.loss > 10
    assert (decision.event, decision.turn, decision.rolls, str(decision.dice)) == (2, 1, 1, "66666")


@pytest.mark.parametrize("variant", PRESETS)
def test_a_bad_keep_loses_the_mean_of_what_it_rolls(variant: str) -> None:
    game = Game(get_variant(variant), ["Anna"])
    game.push(Roll("Anna", Dice.parse("66661")))
    before = game.copy()
    game.push(Roll("Anna", Dice.parse("12345"), keep=(1,)))
    (decision,) = analyse(game).decisions
    mean = 0.0
    for dice, p in Game.chance_outcomes(RollAction((1,))):
        after = before.copy()
        after.push(Roll("Anna", dice, (1,)))
        mean += p * evaluate(after).expected
    assert decision.made.action == RollAction((1,))
    assert decision.made.expected == pytest.approx(mean, abs=1e-9)
    assert decision.best.expected == pytest.approx(evaluate(before).expected)
    assert decision.loss == pytest.approx(evaluate(before).expected - mean, abs=1e-9)
    assert decision.loss > 5


def test_keeping_all_five_and_rolling_is_a_decision() -> None:
    game = Game(get_variant("rauf-runter"), ["Anna"])
    game.push(Roll("Anna", Dice.parse("12345")))
    game.push(Roll("Anna", Dice.parse("12345"), keep=(1, 2, 3, 4, 5)))
    (decision,) = analyse(game).decisions
    assert decision.made.action == RollAction((1, 2, 3, 4, 5))
    assert decision.loss >= 0


def test_corrections_and_undone_events_are_not_decisions() -> None:
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    anna_ones = game.cell("ones")
    events = [
        Roll("Anna", Dice.parse("11166")),  # 1: first roll, no decision
        Enter("Anna", game.cell("chance")),  # 2: undone below
        Undo(),  # 3
        Enter("Anna", anna_ones),  # 4: a decision
        Enter("Ben", game.cell("sixes"), dice=Dice.parse("66612")),  # 5: dice given
        Edit("Anna", anna_ones, 2),  # 6: a correction
        Clear("Anna", anna_ones),  # 7: Anna is to move again
        Enter("Anna", game.cell("twos"), points=4),  # 8: points, no dice to judge
        Enter("Anna", game.cell("fives"), dice=Dice.parse("55512")),  # 9: Anna again (fewer cells)
    ]
    game.extend(events)
    assert [n for n, _ in standing_events(game.log)] == [1, 4, 5, 6, 7, 8, 9]
    result = analyse(game)
    assert [(d.event, d.player, d.rolls) for d in result.decisions] == [
        (4, "Anna", 1),
        (5, "Ben", None),
        (9, "Anna", None),
    ]
    ben = result.decisions[1]
    assert all(isinstance(c.action, EnterAction) for c in (ben.made, ben.best))
    assert result.players["Anna"].decisions == 2
    assert result.players["Ben"].decisions == 1
    assert not result.finished


def test_a_record_is_checked_first() -> None:
    record = new_record("kniffel", ["Anna"])
    record["events"] = [
        {"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 5]},
        {"type": "enter", "player": "Anna", "cell": "main.ones"},
        {"type": "enter", "player": "Anna", "cell": "main.ones", "dice": [1, 1, 1, 1, 1]},
    ]
    with pytest.raises(RecordError, match="event 3: ones is already filled") as caught:
        analyse(loads(_dump(record)))
    assert caught.value.event == 3


def test_a_record_and_its_game_give_the_same_analysis() -> None:
    game = _play("dreifach", {"Anna": "greedy"}, seed=2)
    from_record = analyse(loads(_dump(record_of(game))))
    assert from_record.as_dict() == analyse(game).as_dict()
    assert from_record.players["Anna"].loss > 0  # greedy is not the best bot


def test_as_dict_and_the_costliest_decisions() -> None:
    game = _play("kniffel", {"Anna": "greedy", "Ben": "best"}, seed=4)
    result = analyse(game)
    data = result.as_dict(top=3)
    assert set(data) == {"variant", "exact", "source", "finished", "decisions", "players"}
    assert data["source"] == "exact"
    assert len(data["decisions"]) == 3
    worst = sorted((d.loss for d in result.decisions), reverse=True)[:3]
    assert sorted((d["loss"] for d in data["decisions"]), reverse=True) == worst
    first = data["decisions"][0]
    assert set(first) == {"event", "turn", "player", "dice", "rolls", "choice", "best", "loss"}
    assert set(first["best"]) >= {"action", "label", "expected"}
    assert data["players"]["Ben"] == {
        "loss": result.players["Ben"].loss,
        "decisions": result.players["Ben"].decisions,
    }
    assert data["players"]["Ben"]["loss"] <= 1e-9 < data["players"]["Anna"]["loss"]


def _dump(record: dict[str, object]) -> str:
    return json.dumps(record)
