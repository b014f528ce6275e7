"""The game service: store-before-notify, concurrency, the bot hook, virtual dice, and the changes
made from the event loop (group commit, retries, cancellation)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from kniffel.board.errors import Conflict, Forbidden, GameNotFound
from kniffel.board.hub import LocalHub
from kniffel.board.limits import LimitError
from kniffel.board.service import GameService, GameView
from kniffel.record import RecordError, state_dict
from kniffel.rules import KniffelError
from kniffel.store import GameStore, database
from kniffel.store.group_commit import GroupCommit

from .table import enter


class RecordingHub(LocalHub):
    """Remembers every publish and what the store held at that moment."""

    def __init__(self, store: GameStore) -> None:
        super().__init__()
        self.store = store
        self.published: list[tuple[str, int, int | None]] = []

    def publish(self, game_id: str, version: int) -> None:
        self.published.append((game_id, version, self.store.version(game_id)))
        super().publish(game_id, version)


@pytest.fixture
def store(db_url: str) -> Iterator[GameStore]:
    opened = GameStore.open(db_url)
    yield opened
    opened.close()


@pytest.fixture
def hub(store: GameStore) -> RecordingHub:
    return RecordingHub(store)


@pytest.fixture
def board(store: GameStore, hub: RecordingHub) -> GameService:
    return GameService(store, hub)


def test_every_change_is_stored_before_it_is_announced(
    board: GameService, hub: RecordingHub
) -> None:
    view = board.create("rauf-runter", {}, ["Anna", "Ben"])
    board.apply(view.id, view.key, enter("Anna", "down.ones", "11156"))
    board.apply(view.id, view.key, {"type": "undo"})
    assert hub.published == [(view.id, 1, 1), (view.id, 2, 2)]


def test_a_refused_change_is_neither_stored_nor_announced(
    board: GameService, hub: RecordingHub
) -> None:
    view = board.create("kniffel", {}, ["Anna"])
    with pytest.raises(KniffelError, match="nothing to undo"):
        board.apply(view.id, view.key, {"type": "undo"})
    with pytest.raises(Forbidden):
        board.apply(view.id, "not-the-key", enter("Anna", "chance", "66666"))
    with pytest.raises(GameNotFound):
        board.apply("unknown", view.key, {"type": "undo"})
    assert hub.published == []
    assert board.get(view.id).version == 0


def test_names_are_kept_in_normal_form_and_must_be_text(board: GameService) -> None:
    # " Anna" and "Anna" look the same on the board: they are one name (kniffel.board.limits).
    assert board.create("kniffel", {}, [" Anna ", "Ben"]).players == ("Anna", "Ben")
    with pytest.raises(LimitError, match="distinct"):
        board.create("kniffel", {}, [" Anna", "Anna"])
    with pytest.raises(LimitError, match="U\\+D800"):
        board.create("kniffel", {}, ["\ud800"])


@pytest.mark.parametrize("game_id", ["", "x" * 40, "a b", "a\x00", "ü", "../etc"])
def test_ids_that_cannot_be_games_are_not_found(board: GameService, game_id: str) -> None:
    with pytest.raises(GameNotFound):
        board.get(game_id)
    with pytest.raises(GameNotFound):
        board.version(game_id)


def _race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same moment in threads; their results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:  # the race's loser raises; that is what we check
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_changes_on_the_same_version_one_wins_one_conflicts(board: GameService) -> None:
    for _ in range(5):
        view = board.create("rauf-runter", {}, ["Anna", "Ben"])
        results = _race(
            lambda v=view: board.apply(v.id, v.key, enter("Anna", "down.ones", "11156"), 0),
            lambda v=view: board.apply(v.id, v.key, enter("Anna", "up.chance", "66655"), 0),
        )
        wins = [r for r in results if isinstance(r, GameView)]
        losses = [r for r in results if isinstance(r, Conflict)]
        assert len(wins) == 1 and len(losses) == 1, results
        stored = board.get(view.id)
        assert stored.version == 1
        assert stored.events == wins[0].events


def test_changes_without_an_expected_version_are_rechecked_not_lost(board: GameService) -> None:
    view = board.create("rauf-runter", {}, ["Anna", "Ben"])
    board.apply(view.id, view.key, enter("Anna", "down.ones", "11156"))
    board.apply(view.id, view.key, enter("Ben", "down.ones", "11123"))
    results = _race(
        lambda: board.apply(
            view.id, view.key, {"type": "edit", "player": "Anna", "cell": "down.ones", "points": 5}
        ),
        lambda: board.apply(
            view.id, view.key, {"type": "edit", "player": "Ben", "cell": "down.ones", "points": 2}
        ),
    )
    assert all(isinstance(r, GameView) for r in results), results
    final = board.get(view.id)
    assert final.version == 4
    assert final.game.returns() == [5, 2]


def test_the_board_rolls_with_its_dice_and_keeps_the_kept_faces(
    store: GameStore, hub: RecordingHub
) -> None:
    board = GameService(store, hub, dice=Random(7))
    view = board.create("kniffel", {}, ["Anna"], dice_mode="virtual")
    twin = Random(7)
    first = [twin.randint(1, 6) for _ in range(5)]
    rolled = board.roll(view.id, view.key, "Anna").game.pending("Anna")
    assert rolled is not None
    assert (list(rolled[0].faces), rolled[1]) == (sorted(first), 1)
    keep = sorted(first)[:3]
    fresh = [twin.randint(1, 6) for _ in range(2)]
    again = board.roll(view.id, view.key, "Anna", keep)
    pending = again.game.pending("Anna")
    assert pending is not None
    assert (list(pending[0].faces), pending[1]) == (sorted(keep + fresh), 2)
    assert again.events[-1] == {
        "type": "roll",
        "player": "Anna",
        "keep": keep,
        "dice": sorted(keep + fresh),
    }


class FirstEntryBot:
    """A bot driver for the test: rolls once and takes the first legal entry."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def after_change(self, service: GameService, view: GameView) -> None:
        self.calls.append(view.version)
        name = view.game.current_name
        if name is None or name not in view.bots:
            return
        pending = view.game.pending(name)
        if pending is None:
            service.roll(view.id, view.key, name)
        else:
            cell = view.game.entry_options()[0].cell
            service.apply(view.id, view.key, {"type": "enter", "player": name, "cell": str(cell)})


def test_the_bot_hook_runs_after_every_stored_change(store: GameStore, hub: RecordingHub) -> None:
    bot = FirstEntryBot()
    board = GameService(store, hub, bots=bot, dice=Random(3))
    view = board.create("kniffel", {}, ["Anna", "Robo"], dice_mode="virtual", bots={"Robo": "best"})
    assert bot.calls == [0]
    board.roll(view.id, view.key, "Anna")
    after = board.apply(view.id, view.key, enter("Anna", "main.chance"))
    # Anna's entry made Robo the player to move: the hook rolled and entered for him.
    final = board.get(view.id)
    assert final.version == 4
    assert final.game.current_name == "Anna"
    assert final.game.filled_count("Robo") == 1
    assert bot.calls == [0, 1, 2, 3, 4]
    assert after.version == 2  # the caller sees the state its own change produced


def test_an_illegal_import_stores_nothing(board: GameService) -> None:
    document = {
        "format": "kniffel-record/1",
        "variant": "kniffel",
        "players": ["Anna"],
        "events": [enter("Anna", "chance", "66666"), enter("Anna", "chance", "11111")],
    }
    with pytest.raises(RecordError) as refused:
        board.import_record(document)
    assert refused.value.event == 2
    assert str(refused.value) == "event 2: chance is already filled"
    assert board.list_games() == []


# ------------------------------------------------ changes from the event loop (group commit)

WAIT = 30  # seconds: generous, only a hang would take this long


@pytest.fixture
def writer(store: GameStore) -> Iterator[GroupCommit]:
    made = GroupCommit(store)
    yield made
    made.close()


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


def test_a_replay_behind_another_process_catches_up_with_the_newer_events_only(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two services on one database are two server processes: each keeps its own replays.
    here, there = GameService(store, LocalHub()), GameService(store, LocalHub())
    view = here.create("rauf-runter", {}, ["Anna", "Ben"])
    there.get(view.id)  # "there" keeps the replay of version 0
    loads: list[int] = []
    load = store.load

    def counting_load(game_id: str, *, with_events: bool = True, after: int = 0) -> Any:
        loaded = load(game_id, with_events=with_events, after=after)
        loads.append(len(loaded.events) if loaded is not None else -1)
        return loaded

    monkeypatch.setattr(store, "load", counting_load)
    moves: list[tuple[GameService, dict[str, Any]]] = [
        (here, enter("Anna", "down.ones", "11156")),
        (here, enter("Ben", "up.chance", "66655")),
        (there, enter("Anna", "down.twos", "22256")),
        (here, {"type": "undo"}),
        (here, enter("Anna", "free.kniffel", "33333")),
        (there, enter("Ben", "down.ones", "11111")),
    ]
    for changer, event in moves:
        changer.apply(view.id, view.key, event)
        other = there if changer is here else here
        caught_up = other.get(view.id)
        fresh = GameService(store, LocalHub()).get(view.id)  # a process just started
        assert caught_up.version == fresh.version
        assert caught_up.events == fresh.events
        assert state_dict(caught_up.game) == state_dict(fresh.game)
    # Each catch-up loaded the one event it missed (the fresh services loaded every event).
    catch_ups = loads[0::2]
    assert catch_ups == [1, 1, 1, 1, 1, 1]
    assert loads[1::2] == [1, 2, 3, 4, 5, 6]


def test_a_change_on_a_kept_replay_asks_the_store_for_no_version_first(
    store: GameStore, writer: GroupCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's version was read before every change (about 45 µs of an entry's 1 ms,
    docs/benchmarks.md); the append stores only on the version the change was made on, so the
    kept replay is tried first, and the change is stored all the same."""
    board = GameService(store, LocalHub(), writer=writer)
    view = board.create("rauf-runter", {}, ["Anna", "Ben"])
    asked: list[str] = []
    version = store.version
    monkeypatch.setattr(store, "version", lambda game_id: asked.append(game_id) or version(game_id))

    async def play() -> GameView:
        await board.apply_async(view.id, view.key, enter("Anna", "down.ones", "11156"), 0)
        return await board.apply_async(view.id, view.key, enter("Ben", "up.chance", "66655"), 1)

    assert asyncio.run(play()).version == 2
    assert asked == []
    assert store.version(view.id) == 2


def test_a_change_on_a_replay_behind_another_process_is_made_on_the_stored_version(
    store: GameStore, hub: RecordingHub
) -> None:
    """Two services on one database are two server processes. "here" keeps the replay of
    version 0 while "there" stores Anna's entry: Ben's entry through "here" (not his turn in the
    kept replay) and one on the version "here" has not seen are made on the stored version; a
    change on a version that is no longer the game's is refused as a conflict."""
    writers = GroupCommit(store), GroupCommit(store)
    try:
        here = GameService(store, hub, writer=writers[0])
        there = GameService(store, LocalHub(), writer=writers[1])
        view = here.create("rauf-runter", {}, ["Anna", "Ben"])

        async def play() -> list[int]:
            await there.apply_async(view.id, view.key, enter("Anna", "down.ones", "11156"), 0)
            ben = await here.apply_async(view.id, view.key, enter("Ben", "up.chance", "66655"))
            await there.apply_async(view.id, view.key, enter("Anna", "down.twos", "22256"), 2)
            anna = await here.apply_async(view.id, view.key, enter("Ben", "down.ones", "11111"), 3)
            return [ben.version, anna.version]

        assert asyncio.run(play()) == [2, 4]

        async def stale() -> None:
            await here.apply_async(view.id, view.key, enter("Anna", "down.threes", "33356"), 3)

        with pytest.raises(Conflict):
            asyncio.run(stale())
        stored = store.load(view.id)
        assert stored is not None
        assert [(e["player"], e["cell"]) for e in stored.events] == [
            ("Anna", "down.ones"),
            ("Ben", "up.chance"),
            ("Anna", "down.twos"),
            ("Ben", "down.ones"),
        ]
    finally:
        for writer in writers:
            writer.close()
