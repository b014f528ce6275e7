"""The service's changes from the event loop: group commit, retries, cancellation."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest

from kniffel.board.errors import Conflict
from kniffel.board.service import GameService
from kniffel.store import GameStore, database
from kniffel.store.group_commit import GroupCommit

from .table import enter
from .test_service import RecordingHub

WAIT = 30  # seconds: generous, only a hang would take this long


@pytest.fixture
def store(db_url: str) -> Iterator[GameStore]:
    opened = GameStore.open(db_url)
    yield opened
    opened.close()


@pytest.fixture
def writer(store: GameStore) -> Iterator[GroupCommit]:
    made = GroupCommit(store)
    yield made
    made.close()


@pytest.fixture
def hub(store: GameStore) -> RecordingHub:
    return RecordingHub(store)


def test_a_change_through_the_writer_is_stored_before_it_is_told(
    store: GameStore, writer: GroupCommit, hub: RecordingHub
) -> None:
    board = GameService(store, hub, writer=writer)
    view = board.create("rauf-runter", {}, ["Anna", "Ben"])

    async def play() -> int:
        after = await board.apply_async(view.id, view.key, enter("Anna", "down.ones", "11156"))
        return after.version

    assert asyncio.run(play()) == 1
    assert writer.stored == 1
    # The hub heard of it once the store held it; a fresh store reads it back.
    assert hub.published == [(view.id, 1, 1)]
    fresh = GameStore.open(store.url)
    try:
        stored = fresh.load(view.id)
        assert stored is not None
        assert stored.events[0]["cell"] == "down.ones"
    finally:
        fresh.close()
    # The service's read is the cached replay of the new version.
    assert board.peek(view.id) is not None
    assert board.get(view.id).game.points(0, board.get(view.id).game.cell("down.ones")) == 3


def test_many_changes_at_once_on_one_game_are_all_stored_in_order(
    store: GameStore, writer: GroupCommit, hub: RecordingHub
) -> None:
    board = GameService(store, hub, writer=writer)
    view = board.create("kniffel", {}, ["Anna"])
    rows = ["ones", "twos", "threes", "fours"]

    async def play() -> None:
        # No expected version: each is checked again against the newer state when the
        # writer finds the game moved on.
        await asyncio.gather(
            *(
                board.apply_async(view.id, view.key, enter("Anna", f"main.{row}", "11111"))
                for row in rows
            )
        )

    asyncio.run(play())
    stored = store.load(view.id)
    assert stored is not None
    assert sorted(event["cell"] for event in stored.events) == [f"main.{r}" for r in sorted(rows)]
    assert [version for _, version, _ in hub.published] == [1, 2, 3, 4]


def test_a_stale_version_is_refused_and_nothing_is_stored(
    store: GameStore, writer: GroupCommit, hub: RecordingHub
) -> None:
    board = GameService(store, hub, writer=writer)
    view = board.create("kniffel", {}, ["Anna"])
    board.apply(view.id, view.key, enter("Anna", "main.ones", "11111"))

    async def play() -> None:
        await board.apply_async(view.id, view.key, enter("Anna", "main.twos", "22222"), 0)

    with pytest.raises(Conflict):
        asyncio.run(play())
    assert store.version(view.id) == 1


def test_watchers_hear_of_a_stored_change_whose_request_went_away(
    store: GameStore, writer: GroupCommit, hub: RecordingHub
) -> None:
    board = GameService(store, hub, writer=writer)
    view = board.create("kniffel", {}, ["Anna"])
    gate = database.write_gate(store.engine)
    assert gate is not None

    async def leave_early() -> None:
        with gate.lock:  # the database is busy: the change waits in the writer
            change = asyncio.ensure_future(
                board.apply_async(view.id, view.key, enter("Anna", "main.ones", "11111"))
            )
            await _until(lambda: writer.taken == 1)
            change.cancel()  # its device went away before the answer
        with pytest.raises(asyncio.CancelledError):
            await change

    asyncio.run(leave_early())
    writer.close()  # waits until the writer has stored what it was given
    assert store.version(view.id) == 1
    assert hub.published == [(view.id, 1, 1)]


def test_a_change_whose_request_went_away_before_the_writer_took_it_is_not_stored(
    store: GameStore, writer: GroupCommit, hub: RecordingHub
) -> None:
    board = GameService(store, hub, writer=writer)
    first = board.create("kniffel", {}, ["Anna"])
    second = board.create("kniffel", {}, ["Ben"])
    gate = database.write_gate(store.engine)
    assert gate is not None

    async def leave_early() -> None:
        with gate.lock:  # the writer is stuck on the first change
            storing = asyncio.ensure_future(
                board.apply_async(first.id, first.key, enter("Anna", "main.ones", "11111"))
            )
            await _until(lambda: writer.taken == 1)
            withdrawn = asyncio.ensure_future(
                board.apply_async(second.id, second.key, enter("Ben", "main.ones", "11111"))
            )
            await _until(lambda: writer.submitted == 2)  # queued behind the first
            withdrawn.cancel()
            with pytest.raises(asyncio.CancelledError):
                await withdrawn
        assert (await storing).version == 1

    asyncio.run(leave_early())
    writer.close()
    assert (store.version(first.id), store.version(second.id)) == (1, 0)
    assert hub.published == [(first.id, 1, 1)]


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(WAIT * 100):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("waited in vain")


def test_without_a_writer_a_change_runs_in_a_worker_thread(
    store: GameStore, hub: RecordingHub
) -> None:
    board = GameService(store, hub)
    view = board.create("kniffel", {}, ["Anna"])

    async def play() -> int:
        after = await board.apply_async(view.id, view.key, enter("Anna", "main.ones", "11111"))
        return after.version

    assert asyncio.run(play()) == 1
    assert hub.published == [(view.id, 1, 1)]
