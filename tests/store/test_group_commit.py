"""Group commit: the writer thread stores many requests' appends in one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kniffel.store import Append, Appended, GameStore, NewGame, VersionConflict, database
from kniffel.store.group_commit import GroupCommit

WAIT = 30  # seconds: generous, only a hang would take this long


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    opened = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")
    yield opened
    opened.close()


def _games(store: GameStore, count: int) -> list[str]:
    ids = [f"g{n:07d}" for n in range(count)]
    for game_id in ids:
        store.create(NewGame(game_id, "k" * 32, "kniffel", {}, ("Anna",), "physical"))
    return ids


def _note(game_id: str, expected: int, n: int = 0) -> Append:
    return Append(game_id, expected, {"type": "note", "n": n}, False)


def test_appends_that_wait_together_are_stored_in_one_round(store: GameStore) -> None:
    games = _games(store, 10)
    gate = database.write_gate(store.engine)
    assert gate is not None
    writer = GroupCommit(store)
    try:
        # While another writer holds the database, the requests queue up; the writer then
        # stores the waiting ones together, not one commit each.
        with gate.lock:
            futures = [writer.submit(_note(game_id, 0)) for game_id in games]
        results = [future.result(timeout=WAIT) for future in futures]
    finally:
        writer.close()
    assert all(isinstance(result, Appended) and result.version == 1 for result in results)
    assert [store.version(game_id) for game_id in games] == [1] * 10
    assert writer.stored == 10
    assert writer.rounds <= 2  # the first may have been taken before the others came


def test_an_append_behind_another_of_the_same_version_is_refused(store: GameStore) -> None:
    (game_id,) = _games(store, 1)
    gate = database.write_gate(store.engine)
    assert gate is not None
    writer = GroupCommit(store)
    try:
        with gate.lock:
            first = writer.submit(_note(game_id, 0, 1))
            second = writer.submit(_note(game_id, 0, 2))
            third = writer.submit(_note(game_id, 1, 3))
        assert first.result(timeout=WAIT).version == 1
        with pytest.raises(VersionConflict):
            second.result(timeout=WAIT)
        assert third.result(timeout=WAIT).version == 2
    finally:
        writer.close()
    stored = store.load(game_id)
    assert stored is not None
    assert [event["n"] for event in stored.events] == [1, 3]


def test_a_broken_append_does_not_take_its_round_with_it(store: GameStore) -> None:
    games = _games(store, 3)
    gate = database.write_gate(store.engine)
    assert gate is not None
    writer = GroupCommit(store)
    try:
        with gate.lock:
            good = writer.submit(_note(games[0], 0))
            # A payload the database cannot hold (a set is no JSON): its round fails.
            broken = writer.submit(Append(games[1], 0, {"type": "note", "n": {1, 2}}, False))
            also_good = writer.submit(_note(games[2], 0))
        assert good.result(timeout=WAIT).version == 1
        assert also_good.result(timeout=WAIT).version == 1
        with pytest.raises(Exception, match="JSON serializable"):
            broken.result(timeout=WAIT)
    finally:
        writer.close()
    assert [store.version(game_id) for game_id in games] == [1, 0, 1]


def test_closing_stores_what_was_submitted_and_refuses_more(store: GameStore) -> None:
    games = _games(store, 5)
    writer = GroupCommit(store)
    futures = [writer.submit(_note(game_id, 0)) for game_id in games]
    writer.close()
    assert all(future.done() for future in futures)
    assert [store.version(game_id) for game_id in games] == [1] * 5
    with pytest.raises(RuntimeError, match="closed"):
        writer.submit(_note(games[0], 1))
