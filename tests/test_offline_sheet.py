"""The sheet the page computes offline (``kniffel.offline``, issue 31) equals the server's board
(``kniffel.board.sheet_view.board_view``) at every position of seeded games of every preset,
with typed dice, typed points and virtual dice, and the entries not yet sent play on top of the
record as the server would store them (docs/decisions.md, "The board offline")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kniffel.board.sheet_view import BONUS_NOTES, BoardView, board_view
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.offline import asks_roll, sheet_state, sheet_state_json
from kniffel.record import record_of
from kniffel.rules import (
    PRESETS,
    Dice,
    Enter,
    Game,
    KniffelError,
    RollAction,
    Undo,
    get_variant,
)

EN = Translator("en")


def _same(game: Game, board: BoardView, state: dict[str, Any], t: Translator = EN) -> None:
    """Every value the board draws equals the offline state's."""
    assert state["to_move"] == next((p.seat for p in board.players if p.to_move), None)
    assert state["finished"] == board.finished
    assert state["turn_key"] == board.turn_key
    assert state["winners"] == list(board.winners)
    assert (state["undo"] is None) == board.undo.possible
    # The undo note's parts, as the board words them (kniffel.web.present.offline_words).
    assert (state["undo_note"] is not None) == board.undo.possible
    turn = state["turn"]
    if board.turn is None:
        assert turn is None
    else:
        assert (turn["player"], tuple(turn["dice"])) == (board.turn.player, board.turn.dice)
        assert (turn["rolls"], turn["rolls_left"]) == (board.turn.rolls, board.turn.rolls_left)
    assert [t.number(p["total"]) for p in state["players"]] == [p.total for p in board.players]
    for sheet in board.sheets:
        mine = state["sheets"][sheet.seat]
        assert (mine["player"], mine["to_move"]) == (sheet.player, sheet.to_move)
        assert t.number(mine["total"]) == sheet.total
        for column in sheet.columns:
            sums = dict(mine["columns"][column.id])
            bonus, short = sums.pop("bonus_note")
            assert t(BONUS_NOTES[bonus], n=short) == column.bonus_note
            drawn = {name: getattr(column, name) for name in sums}
            assert {name: t.number(value) for name, value in sums.items()} == drawn
        for row in sheet.rows:
            for cell in row.cells:
                got = mine["cells"][cell.name]
                where = f"{cell.name} of seat {sheet.seat} at event {len(game.log)}"
                expected = (
                    cell.points,
                    cell.state.value,
                    cell.due,
                    cell.preview,
                    cell.preview_bonus,
                    cell.joker,
                    cell.bonus,
                    bool(cell.announce),
                    cell.announced,
                    cell.possible,
                )
                found = (
                    got["points"],
                    got["state"],
                    got["due"],
                    got["preview"],
                    got["preview_bonus"],
                    got["joker"],
                    got["bonus"],
                    got["announce"],
                    got["announced"],
                    got["possible"],
                )
                assert found == expected, where
                refusal = got["refusal"]
                words = "" if refusal is None else refusal_text(_error(refusal), t)
                assert words == cell.reason, where


def _error(refusal: dict[str, Any]) -> KniffelError:
    return KniffelError(refusal["message"], code=refusal["code"], **refusal["params"])


def _virtual_game(variant: str, seed: int, players: int = 2) -> Game:
    """A game played to the end with virtual dice, announcements and a few undos."""
    rng = random.Random(seed)
    game = Game(get_variant(variant), [f"P{n}" for n in range(players)])
    while not game.is_finished:
        if game.announce_options() and rng.random() < 0.3:
            game.apply(rng.choice(game.announce_options()))
            continue
        action = rng.choice(game.legal_actions())
        if isinstance(action, RollAction):
            outcomes = game.chance_outcomes(action)
            dice = rng.choices([d for d, _ in outcomes], [w for _, w in outcomes])[0]
            game.apply(action, dice)
        else:
            game.apply(action)
            if rng.random() < 0.05:
                game.push(Undo())
    return game


def _typed(game: Game, rng: random.Random) -> tuple[Dice, int | None]:
    dice = Dice.of([rng.randint(1, 6) for _ in range(5)])
    return dice, (rng.randint(1, 3) if asks_roll(game) else None)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_position_of_a_game_draws_the_same_offline(variant: str) -> None:
    played = _virtual_game(variant, seed=31)
    rng = random.Random(variant)
    game = Game(played.variant, played.players)
    positions = 0
    for number, event in enumerate(played.log, start=1):
        game.push(event)
        # One position in five (and the last): each offline state replays the record from the
        # start, so every position of a Jamb game took 24 s.
        if rng.random() > 0.2 and number < len(played.log):
            continue
        record = record_of(game)
        board = board_view(game, EN, dice_mode="virtual")
        _same(game, board, sheet_state(record, dice_mode="virtual"))
        if game.pending(game.current_player() or 0) is None and not game.is_finished:
            # The same position as a family with real dice sees it: typed dice, typed points.
            dice, roll = _typed(game, rng)
            board = board_view(game, EN, dice=dice, roll=roll)
            _same(game, board, sheet_state(record, dice=str(dice), roll=roll))
            points = rng.choice([0, 5, 25, 50])
            _same(game, board_view(game, EN, points=points), sheet_state(record, points=points))
        positions += 1
    assert game.is_finished and positions > len(played.log) // 10


@pytest.mark.parametrize("variant", ["kniffel", "rauf-runter", "jamb"])
def test_entries_not_yet_sent_play_on_the_record_in_order(variant: str) -> None:
    played = _virtual_game(variant, seed=7, players=3)
    events = record_of(played)["events"]
    half = len(events) // 2
    record = {**record_of(played), "events": events[:half]}
    state = sheet_state(record, events[half:], dice_mode="virtual")
    assert (state["version"], state["refused"]) == (half, [])
    _same(played, board_view(played, EN, dice_mode="virtual"), state)


def test_a_refused_entry_comes_back_in_words_and_changes_nothing() -> None:
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66613")))
    record = record_of(game)
    pending = [
        {"type": "enter", "player": "Anna", "cell": "fives", "dice": [5, 5, 1, 2, 3]},
        {"type": "enter", "player": "Ben", "cell": "fives", "dice": [5, 5, 1, 2, 3]},
    ]
    state = sheet_state(record, pending)
    (refused,) = state["refused"]
    assert (refused["index"], refused["code"]) == (0, "not_your_turn")
    assert refusal_text(_error(refused), Translator("de")) == refusal_text(
        game.check(Enter("Anna", game.cell("fives"), dice=Dice.parse("55123"))) or Exception(),
        Translator("de"),
    )
    game.push(Enter("Ben", game.cell("fives"), dice=Dice.parse("55123")))
    _same(game, board_view(game, EN), state)


def test_the_page_calls_it_with_json_and_gets_a_broken_record_in_words() -> None:
    game = Game(get_variant("yams"), ["Anna", "Ben"])
    text = sheet_state_json(
        __import__("json").dumps(record_of(game)), "[]", '{"dice": "66666", "roll": 1}'
    )
    assert '"preview": 50' in text
    broken = sheet_state_json("[]")
    assert broken.startswith('{"error": {"code": "record_not_object"')


def _extra_lines(state: dict[str, Any], notes: dict[str, Any]) -> tuple[str, ...]:
    """The lines of a further Kniffel as the page words them offline (static/tafel/notes.js)."""
    note = state["extra_kniffel"]
    if note is None:
        return ()
    extra = notes["extra"]
    lines = [extra["title"]]
    if note["bonus"] is not None:
        bonus = extra["bonus"].replace("{n}", str(note["bonus"]))
        lines.append(bonus if note["bonus"] else extra["no_bonus"])
    if note["joker"] == "matching":
        cells = " / ".join(notes["cells"][cell] for cell in note["cells"])
        lines.append(extra["matching"].replace("{cells}", cells))
    else:
        lines.append(extra[note["joker"]])
    return tuple(lines)


@pytest.mark.parametrize(
    ("variant", "options", "lang"),
    [
        ("kniffel", {"kniffel_bonus": 100}, "de"),
        ("yahtzee", {}, "en"),
        ("yahtzee", {"kniffel_bonus": 0}, "fr"),
        ("kniffel", {"joker": "none", "kniffel_bonus": 50}, "hr"),
        ("rauf-runter", {}, "de"),
    ],
)
def test_a_further_kniffel_is_explained_offline_in_the_boards_words(
    variant: str, options: dict[str, Any], lang: str
) -> None:
    """The lines above the dice field when the dice are a further Kniffel (docs/rules.md §5):
    the page offline words the rules' note (``kniffel.offline.extra_kniffel``) with the server's
    words as the board words it, at positions of a game where a Kniffel cell holds 50, 0 or
    nothing, for every Kniffel typed (the joker free, forced into the matching row, into the
    lower block or the upper one, or none)."""
    from kniffel.web.present.offline_words import offline_words

    rng = random.Random(variant + lang)
    game = Game(get_variant(variant, options), ["Ana", "Ivo"])
    t = Translator(lang, variant)
    notes = offline_words(game.variant, t)["notes"]
    explained = set()
    while not game.is_finished:
        mover = game.current_player()
        assert mover is not None
        if rng.random() < 0.3:
            record = record_of(game)
            for face in range(1, 7):
                dice = Dice.of([face] * 5)
                state = sheet_state(record, dice=str(dice))
                board = board_view(game, t, dice=dice)
                assert board.turn is not None
                assert _extra_lines(state, notes) == board.turn.extra_kniffel
                if state["extra_kniffel"] is not None:
                    explained.add(state["extra_kniffel"]["joker"])
        faces = [rng.randint(1, 6)] * 5 if rng.random() < 0.4 else None
        dice = Dice.of(faces or [rng.randint(1, 6) for _ in range(5)])
        allowed = [option.cell for option in game.entry_options(mover, dice)]
        kniffel = [cell for cell in allowed if cell.row.value == "kniffel"]
        cell = kniffel[0] if kniffel and rng.random() < 0.5 else rng.choice(allowed)
        game.push(Enter(game.players[mover], cell, dice=dice))
    assert explained  # a further Kniffel came up and was explained
