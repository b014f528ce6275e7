"""Properties over random legal games of every preset with random options."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kniffel.record import loads, record_of, replay, state_dict
from kniffel.rules import Cell, Discipline, Enter, Game, Undo, Variant, possible_points
from strategies import (
    KNIFFEL_PRESETS,
    all_cells,
    finished_games,
    games,
    play_turn,
    standing_events,
    variants,
)

# A whole game is a big example by design; on a busy machine drawing one can take longer
# than Hypothesis expects of a strategy, which says nothing about the engine.
GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WHOLE_GAMES = settings(GAMES, max_examples=40)


def full_state(game: Game) -> tuple[Any, ...]:
    return state_dict(game), [game.pending(name) for name in game.players]


def replayed(game: Game, events: list[Any]) -> Game:
    twin = Game(game.variant, game.players)
    twin.extend(events)
    return twin


#: The Kniffel sheet's sums and fill order (§2 to §4); Jamb's are in tests/rules/test_jamb.py.
KNIFFEL_GAMES = games(variants(KNIFFEL_PRESETS))


@GAMES
@given(KNIFFEL_GAMES)
def test_totals_are_the_sums_of_the_cells(game: Game) -> None:
    for name in game.players:
        player_total = 0
        for spec in game.columns:
            cells = [Cell(spec.id, row) for row in game.rows]
            values = {c.row: game.points(name, c) or 0 for c in cells}
            upper = sum(v for row, v in values.items() if row.is_upper)
            lower = sum(v for row, v in values.items() if not row.is_upper)
            extra = sum(game.cell_bonus(name, c) for c in cells)
            bonus = 35 if upper >= 63 else 0
            totals = game.column_totals(name, spec.id)
            assert (totals.upper, totals.bonus, totals.lower) == (upper, bonus, lower)
            assert totals.kniffel_bonus == extra
            assert totals.total == spec.factor * (upper + bonus + lower + extra)
            player_total += totals.total
            assert game.column_points(name, spec.id) == tuple(game.points(name, c) for c in cells)
        assert game.total(name) == player_total
    # The replay state shows the same cells and totals.
    for seat, shown in enumerate(state_dict(game)["players"]):
        assert shown["total"] == game.total(seat)
        for spec in game.columns:
            column = shown["columns"][spec.id]
            assert list(column["cells"].values()) == list(game.column_points(seat, spec.id))
            assert column["total"] == game.column_totals(seat, spec.id).total


@settings(max_examples=100, deadline=None)
@given(variants(KNIFFEL_PRESETS), st.data())
def test_the_upper_bonus_is_35_exactly_from_63(variant: Variant, data: st.DataObject) -> None:
    game = Game(variant, ["Anna"])
    free_column = next(c for c in game.columns if c.discipline is Discipline.FREE).id
    upper = 0
    for row in game.rows[:6]:
        if data.draw(st.booleans()):
            value = data.draw(st.sampled_from(sorted(possible_points(row, game.options))))
            game.push(Enter("Anna", Cell(free_column, row), points=value))
            upper += value
        totals = game.column_totals("Anna", free_column)
        assert totals.upper == upper
        assert totals.bonus == (35 if upper >= 63 else 0)


@GAMES
@given(KNIFFEL_GAMES)
def test_allowed_cells_are_the_due_cells_and_the_open_free_cells(game: Game) -> None:
    for name in game.players:
        expected = []
        for spec in game.columns:
            if spec.discipline is Discipline.FREE:
                expected += [
                    Cell(spec.id, row)
                    for row in game.rows
                    if game.points(name, Cell(spec.id, row)) is None
                ]
                continue
            rows = game.rows if spec.discipline is Discipline.DOWN else game.rows[::-1]
            empty = [row for row in rows if game.points(name, Cell(spec.id, row)) is None]
            assert game.due_row(name, spec.id) == (empty[0] if empty else None)
            expected += [Cell(spec.id, empty[0])] if empty else []
        assert sorted(game.allowed_cells(name)) == sorted(expected)
        column_order = [c.id for c in game.columns]
        assert game.allowed_cells(name) == sorted(
            expected, key=lambda c: (column_order.index(c.column), game.rows.index(c.row))
        )
    assert game.allowed_cells() == (
        [] if game.current_name is None else game.allowed_cells(game.current_name)
    )


@GAMES
@given(games())
def test_turn_order_follows_the_filled_counts(game: Game) -> None:
    counts = [game.filled_count(name) for name in game.players]
    assert counts == [
        sum(game.points(name, c) is not None for c in all_cells(game)) for name in game.players
    ]
    if min(counts) == game.cells_per_player:
        assert game.current_player() is None and game.is_finished
    else:
        assert game.current_player() == counts.index(min(counts))


@GAMES
@given(games())
def test_replaying_a_record_twice_gives_the_same_state(game: Game) -> None:
    record = loads(json.dumps(record_of(game)))
    first, second = replay(record), replay(record)
    assert full_state(first) == full_state(second) == full_state(game)


@GAMES
@given(games(), st.integers(1, 20))
def test_undo_is_replay_without_the_undone_events(game: Game, depth: int) -> None:
    standing = standing_events(game.log)
    depth = min(depth, len(standing))
    for _ in range(depth):
        game.push(Undo())
    assert full_state(game) == full_state(replayed(game, standing[: len(standing) - depth]))
    assert standing_events(game.log) == standing[: len(standing) - depth]


@WHOLE_GAMES
@given(finished_games(corrections=0.0))
def test_a_game_ends_after_rows_times_columns_entries_per_player(game: Game) -> None:
    entries = [e for e in game.log if isinstance(e, Enter)]
    per_player = len(game.rows) * len(game.columns)
    assert len(entries) == per_player * len(game.players)
    for name in game.players:
        assert sum(e.player == name for e in entries) == per_player
    assert game.is_finished and game.current_player() is None
    assert state_dict(game)["turn"] is None
    best = max(game.returns())
    assert game.winners() == [
        n for n, t in zip(game.players, game.returns(), strict=True) if t == best
    ]
    game.pop()
    assert not game.is_finished and game.winners() == []


@WHOLE_GAMES
@given(finished_games(corrections=0.15), st.randoms(use_true_random=True))
def test_a_game_with_corrections_still_ends_with_every_cell_filled(
    game: Game, rng: random.Random
) -> None:
    assert game.is_finished
    assert all(game.filled_count(name) == game.cells_per_player for name in game.players)
    game.push(Undo())
    while not game.is_finished:
        play_turn(game, rng)
    assert game.is_finished


@GAMES
@given(games())
def test_writing_then_reading_a_record_is_the_identity(game: Game) -> None:
    record = record_of(game)
    text = json.dumps(record, ensure_ascii=False)
    again = replay(loads(text))
    assert record_of(again) == record
    assert full_state(again) == full_state(game)
    assert record_of(replay(loads(text.encode("utf-8")))) == record
