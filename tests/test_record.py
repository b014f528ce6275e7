"""Game records kniffel-record/1: reading, checking, replaying and writing them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kniffel.record import (
    FORMAT,
    Record,
    RecordError,
    dumps,
    event_from_json,
    event_to_json,
    loads,
    parse,
    record_of,
    replay,
    state_dict,
)
from kniffel.rules import ROWS as KNIFFEL_ROWS
from kniffel.rules import Cell, Clear, Dice, Edit, Enter, Game, Roll, Row, Undo
from strategies import standing_events


def document(variant: str = "kniffel", players: Any = ("Anna", "Ben"), **fields: Any) -> Any:
    return {"format": FORMAT, "variant": variant, "players": list(players), **fields}


def replayed(*events: Any, **fields: Any) -> Game:
    return replay(parse(document(events=list(events), **fields)))


def refused(events: list[Any], **fields: Any) -> RecordError:
    with pytest.raises(RecordError) as excinfo:
        replay(parse(document(events=events, **fields)))
    return excinfo.value


# ------------------------------------------------------------------ reading


def test_a_minimal_record() -> None:
    record = loads(json.dumps(document()))
    assert record == Record("kniffel", ("Anna", "Ben"), {}, ())
    game = replay(record)
    assert game.players == ("Anna", "Ben") and game.log == []


@pytest.mark.parametrize("fields", [{}, {"events": None}, {"events": []}])
def test_events_may_be_missing_or_null(fields: dict[str, Any]) -> None:
    assert parse(document(**fields)).events == ()


@pytest.mark.parametrize("options", [None, {}])
def test_options_null_counts_as_absent(options: Any) -> None:
    game = replay(parse(document("yahtzee", options=options)))
    assert game.options.kniffel_bonus == 100


def test_options_override_the_preset() -> None:
    game = replay(parse(document("rauf-runter", options={"kniffel_bonus": 100, "joker": None})))
    assert game.options.kniffel_bonus == 100
    assert game.options.joker.value == "free"


def test_loads_reads_bytes_too() -> None:
    record = loads(json.dumps(document(players=["Jürgen"])).encode("utf-8"))
    assert record.players == ("Jürgen",)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "the file is not valid JSON"),
        (b"\xff\xfe{", "the file is not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "the file is not valid JSON"),
        ("[]", "a record is a JSON object"),
        ('"kniffel"', "a record is a JSON object"),
        ("null", "a record is a JSON object"),
    ],
)
def test_a_file_that_is_no_record(text: str | bytes, words: str) -> None:
    with pytest.raises(RecordError) as excinfo:
        loads(text)
    assert words in str(excinfo.value)
    assert excinfo.value.event is None


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        (
            {"format": "kniffel-record/2"},
            "the format must be 'kniffel-record/1', got 'kniffel-record/2'",
        ),
        ({"format": None}, "the format must be 'kniffel-record/1', got null"),
        ({"variant": "skat"}, "unknown variant 'skat'; the variants are kniffel, yahtzee"),
        ({"variant": ["kniffel"]}, 'unknown variant ["kniffel"]'),
        ({"options": []}, "options must be a JSON object"),
        ({"options": {"bonus": 1}}, "unknown option 'bonus'"),
        ({"options": {"joker": "wild"}}, "option joker must be one of free, forced, none"),
        ({"options": {"kniffel_bonus": 1.5}}, "kniffel_bonus must be 0 or a positive whole"),
        ({"players": []}, "players must be a list of 1 to 8 names"),
        ({"players": [f"P{i}" for i in range(9)]}, "players must be a list of 1 to 8 names"),
        ({"players": "Anna"}, "players must be a list of 1 to 8 names"),
        ({"players": ["Anna", "Anna"]}, "player names must be distinct"),
        ({"players": ["Anna", "  "]}, "every player name must be non-blank text"),
        ({"players": ["Anna", 7]}, "every player name must be non-blank text"),
        ({"events": {}}, "events must be a list"),
    ],
)
def test_a_broken_record_names_the_problem(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as excinfo:
        parse({**document(), **changes})
    assert words in str(excinfo.value)
    assert excinfo.value.event is None


def test_player_names_are_case_sensitive() -> None:
    assert parse(document(players=["anna", "Anna"])).players == ("anna", "Anna")


# ------------------------------------------------------------------ events


ANNA_ROLLS = {"type": "roll", "player": "Anna", "dice": [2, 3, 3, 5, 6]}


def test_a_roll_then_an_entry_of_that_roll() -> None:
    game = replayed(
        ANNA_ROLLS,
        {"type": "roll", "player": "Anna", "keep": [3, 3], "dice": [3, 3, 3, 1, 4]},
        {"type": "enter", "player": "Anna", "cell": "threes"},
    )
    assert game.points("Anna", game.cell("threes")) == 9


def test_the_bare_row_id_means_the_only_column() -> None:
    game = replayed({"type": "enter", "player": "Anna", "cell": "main.chance", "points": 23})
    assert game.points("Anna", game.cell("chance")) == 23


def test_null_fields_count_as_absent() -> None:
    game = replayed(
        {"type": "roll", "player": "Anna", "dice": [6, 6, 6, 1, 2], "keep": None},
        {"type": "enter", "player": "Anna", "cell": "sixes", "dice": None, "points": None},
    )
    assert game.points("Anna", game.cell("sixes")) == 18


def test_fields_that_do_not_belong_are_ignored() -> None:
    game = replayed(
        {"type": "enter", "player": "Anna", "cell": "chance", "points": 20, "meta": {"at": 1}},
        {"type": "clear", "player": "Anna", "cell": "chance", "points": 3, "dice": "x"},
        {"type": "undo", "player": "Nobody", "cell": "nowhere"},
        {"type": "edit", "player": "Anna", "cell": "chance", "points": 25, "dice": [1, 1, 1, 1, 1]},
        {"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 5], "cell": "x", "points": 3},
        {"type": "enter", "player": "Ben", "cell": "large_straight", "timestamp": "now"},
    )
    assert game.points("Anna", game.cell("chance")) == 25
    assert game.points("Ben", game.cell("large_straight")) == 40


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "enter", "player": "Anna", "cell": "chance", "points": 20.0}, "got 20.0"),
        ({"type": "enter", "player": "Anna", "cell": "chance", "points": True}, "got true"),
        ({"type": "enter", "player": "Anna", "cell": "chance", "points": "20"}, "got '20'"),
        ({"type": "enter", "player": "Anna", "cell": "chance", "dice": [1, 2, 3, 4, 5.0]}, "5.0"),
        ({"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, True]}, "got true"),
        ({"type": "roll", "player": "Anna", "dice": "12345"}, "dice must be a list of faces"),
        ({"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4]}, "exactly 5 dice, got 4"),
        ({"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 7]}, "from 1 to 6, got 7"),
        ({"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 5], "keep": [1]}, "first roll"),
        ({"type": "roll", "player": "Anna"}, "a roll event needs 'dice'"),
        ({"type": "roll", "player": "Anna", "dice": None}, "a roll event needs 'dice'"),
        ({"type": "roll", "dice": [1, 2, 3, 4, 5]}, "needs 'player'"),
        ({"type": "roll", "player": 1, "dice": [1, 2, 3, 4, 5]}, "'player' must be text, got 1"),
        ({"type": "roll", "player": "Zoe", "dice": [1, 2, 3, 4, 5]}, "unknown player 'Zoe'"),
        ({"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 5]}, "not Ben's turn"),
        ({"type": "enter", "player": "Anna", "points": 5}, "needs 'cell'"),
        ({"type": "enter", "player": "Anna", "cell": 5, "points": 5}, "'cell' must be text"),
        ({"type": "enter", "player": "Anna", "cell": "main.eights"}, "unknown row 'eights'"),
        ({"type": "enter", "player": "Anna", "cell": "down.ones"}, "unknown column 'down'"),
        (
            {
                "type": "enter",
                "player": "Anna",
                "cell": "ones",
                "dice": [1, 1, 1, 1, 1],
                "points": 5,
            },
            "dice or points, not both",
        ),
        ({"type": "edit", "player": "Anna", "cell": "ones"}, "needs 'points'"),
        ({"type": "edit", "player": "Anna", "cell": "ones", "points": 3}, "ones is empty"),
        ({"type": "clear", "player": "Anna", "cell": "ones"}, "ones is empty"),
        ({"type": "undo"}, "there is nothing to undo"),
        ({"type": "pass", "player": "Anna"}, "unknown event type 'pass'"),
        ({"player": "Anna"}, "unknown event type null"),
        ([], "an event is a JSON object"),
        ("undo", "an event is a JSON object"),
    ],
)
def test_a_bad_event_is_named_plainly(event: Any, words: str) -> None:
    error = refused([event])
    assert error.event == 1
    assert str(error) == f"event 1: {error.reason}"
    assert words in error.reason
    assert "\n" not in str(error)


def test_events_are_counted_from_one() -> None:
    error = refused(
        [
            {"type": "enter", "player": "Anna", "cell": "chance", "points": 20},
            {"type": "enter", "player": "Ben", "cell": "chance", "points": 20},
            {"type": "enter", "player": "Anna", "cell": "chance", "points": 20},
        ]
    )
    assert error.event == 3
    assert str(error) == "event 3: chance is already filled"


def test_replay_reports_the_rule_that_breaks() -> None:
    error = refused(
        [
            {"type": "enter", "player": "Anna", "cell": "down.ones", "dice": [1, 1, 1, 5, 6]},
            {"type": "enter", "player": "Ben", "cell": "down.threes", "dice": [3, 3, 3, 5, 6]},
        ],
        variant="rauf-runter",
    )
    assert str(error) == "event 2: down.threes is not due; the due cell of down is ones"


def test_an_enter_event_gives_dice_or_points_in_an_edit_dice_do_not_belong() -> None:
    both = {"type": "enter", "player": "Anna", "cell": "ones", "dice": [1, 1, 2, 3, 4], "points": 2}
    assert "not both" in refused([both]).reason
    game = replayed(
        {"type": "enter", "player": "Anna", "cell": "ones", "points": 2},
        {"type": "edit", "player": "Anna", "cell": "ones", "points": 3, "dice": [1, 1, 1, 2, 3]},
    )
    assert game.points("Anna", game.cell("ones")) == 3


def test_event_from_json_builds_engine_events() -> None:
    game = parse(document()).new_game()
    ones = Cell("main", Row.ONES)
    assert event_from_json({"type": "roll", "player": "Anna", "dice": [3, 1, 2, 6, 6]}, game) == (
        Roll("Anna", Dice.of([1, 2, 3, 6, 6]))
    )
    raw_roll = {"type": "roll", "player": "Anna", "keep": [6, 1, 6], "dice": [1, 6, 6, 5, 5]}
    assert event_from_json(raw_roll, game) == Roll("Anna", Dice.parse("15566"), (1, 6, 6))
    assert event_from_json({"type": "enter", "player": "Ben", "cell": "ones"}, game) == Enter(
        "Ben", ones
    )
    assert event_from_json(
        {"type": "edit", "player": "Ben", "cell": "ones", "points": 2}, game
    ) == (Edit("Ben", ones, 2))
    assert event_from_json({"type": "clear", "player": "Ben", "cell": "ones"}, game) == Clear(
        "Ben", ones
    )
    assert event_from_json({"type": "undo"}, game) == Undo()


# ------------------------------------------------------------------ writing


EVENTS: list[dict[str, Any]] = [
    {"type": "roll", "player": "Anna", "dice": [2, 3, 3, 5, 6]},
    {"type": "roll", "player": "Anna", "keep": [3, 3], "dice": [1, 3, 3, 3, 4]},
    {"type": "enter", "player": "Anna", "cell": "free.threes"},
    {"type": "enter", "player": "Ben", "cell": "down.ones", "dice": [1, 1, 4, 5, 6]},
    {"type": "enter", "player": "Anna", "cell": "up.chance", "points": 23},
    {"type": "edit", "player": "Anna", "cell": "up.chance", "points": 25},
    {"type": "clear", "player": "Ben", "cell": "down.ones"},
    {"type": "undo"},
]


def test_event_to_json_writes_each_event_as_the_record_format_shows() -> None:
    game = replayed(*EVENTS, variant="rauf-runter")
    assert [event_to_json(e) for e in game.log] == EVENTS


def test_record_of_writes_every_event_undos_included_and_the_options() -> None:
    game = replayed(*EVENTS, variant="rauf-runter", options={"kniffel_bonus": 100})
    record = record_of(game)
    assert record == {
        "format": FORMAT,
        "variant": "rauf-runter",
        "options": {
            "chance": True,
            "pasch": "all_dice",
            "kniffel_bonus": 100,
            "joker": "free",
            "zero_only_upper": False,
        },
        "players": ["Anna", "Ben"],
        "events": EVENTS,
    }
    assert len(standing_events(game.log)) == len(EVENTS) - 2


def test_dumps_writes_json_that_reads_back() -> None:
    events = [{**e, "player": "Jürgen"} if e.get("player") == "Anna" else e for e in EVENTS]
    game = replayed(*events, variant="rauf-runter", players=["Jürgen", "Ben"])
    text = dumps(game)
    assert "Jürgen" in text
    assert record_of(replay(loads(text))) == record_of(game)
    assert "\n" not in dumps(game, indent=None)


# ------------------------------------------------------------------ state


def test_state_dict_of_a_game_in_progress() -> None:
    game = replayed(*EVENTS[:-1], variant="rauf-runter")
    state = state_dict(game)
    assert state["variant"] == "rauf-runter"
    assert (state["finished"], state["winners"]) == (False, [])
    assert state["turn"] == {
        "player": "Ben",
        "rolls": 0,
        "dice": None,
        "allowed": [
            "down.ones",
            "up.chance",
            *(f"free.{row.value}" for row in KNIFFEL_ROWS),
        ],
    }
    anna, ben = state["players"]
    assert (anna["name"], anna["total"], ben["total"]) == ("Anna", 34, 0)
    assert list(anna["columns"]) == ["down", "up", "free"]
    assert anna["columns"]["up"] == {
        "cells": {row.value: 25 if row is Row.CHANCE else None for row in KNIFFEL_ROWS},
        "upper": 0,
        "bonus": 0,
        "lower": 25,
        "kniffel_bonus": 0,
        "total": 25,
    }
    assert anna["columns"]["free"]["cells"]["threes"] == 9


def test_state_dict_counts_the_rolls_of_the_player_to_move() -> None:
    state = state_dict(replayed(*EVENTS[:2], variant="rauf-runter"))
    assert state["turn"]["player"] == "Anna"
    assert state["turn"]["rolls"] == 2
    assert state["turn"]["dice"] == [1, 3, 3, 3, 4]


def test_allowed_is_positional_whatever_the_dice() -> None:
    game = replayed(
        {"type": "enter", "player": "Anna", "cell": "kniffel", "points": 50},
        {"type": "roll", "player": "Anna", "dice": [4, 4, 4, 4, 4]},
        variant="yahtzee",
        players=["Anna"],
    )
    assert len(state_dict(game)["turn"]["allowed"]) == 12
    assert [str(o.cell) for o in game.entry_options()] == ["main.fours"]


def test_state_dict_of_a_finished_game_with_a_tie() -> None:
    players = ["Anna", "Ben", "Clara"]
    events = [
        {
            "type": "enter",
            "player": name,
            "cell": row.value,
            "points": 5 if row is Row.CHANCE else 0,
        }
        for row in KNIFFEL_ROWS
        for name in players
    ]
    state = state_dict(replayed(*events, players=players))
    assert state["finished"] is True and state["turn"] is None
    assert state["winners"] == players
    events[-2] = {**events[-2], "points": 6}
    assert state_dict(replayed(*events, players=players))["winners"] == ["Ben"]


def test_replay_continues_a_given_game() -> None:
    anna = {"type": "enter", "player": "Anna", "cell": "ones", "points": 1}
    ben = {"type": "enter", "player": "Ben", "cell": "ones", "points": 2}
    game = replay(parse(document(events=[anna])))
    replay(parse(document(events=[ben])), game)
    assert state_dict(game) == state_dict(replayed(anna, ben))
    with pytest.raises(RecordError, match="event 1: it is not Ben's turn; Anna is to move"):
        replay(parse(document(events=[ben])), game)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {"type": "edit", "player": "Anna", "cell": "ones"},
            "event 1: an edit event needs 'points'",
        ),
        ({"type": "enter", "player": "Anna"}, "event 1: an enter event needs 'cell'"),
    ],
)
def test_a_missing_field_is_named_in_plain_english(event: Any, message: str) -> None:
    assert str(refused([event])) == message
