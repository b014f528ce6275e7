"""The in-process hub: versions reach every watcher of a game, from any thread, and so does
the news that a game's solver tables are built (docs/board.md, "Tipp")."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from kniffel.board.hub import TABLES, LocalHub
from kniffel.board.pghub import PgHub


async def _watch_while(hub: LocalHub, publish: Callable[[], None]) -> list[int]:
    async with hub.subscribe("g") as subscription, hub.subscribe("g") as second:
        assert hub.watcher_count("g") == 2
        publish()
        first = await asyncio.wait_for(subscription.next_version(), timeout=2)
        other = await asyncio.wait_for(second.next_version(), timeout=2)
        return [first, other]


def test_a_version_published_from_another_thread_reaches_every_watcher() -> None:
    hub = LocalHub()

    def from_a_worker() -> None:
        worker = threading.Thread(target=hub.publish, args=("g", 4))
        worker.start()
        worker.join()

    assert asyncio.run(_watch_while(hub, from_a_worker)) == [4, 4]
    assert hub.watcher_count("g") == 0


async def _burst() -> tuple[int, bool]:
    hub = LocalHub()
    async with hub.subscribe("g") as subscription:
        subscription.mark_seen(2)
        for version in (1, 2, 3, 5, 4):
            hub.publish("g", version)
        hub.publish("other", 9)
        newest = await asyncio.wait_for(subscription.next_version(), timeout=2)
        # Nothing older may follow: the next version the subscription yields is the one
        # published after the burst (an older one would come first), so the test waits for
        # that event instead of for a quiet spell.
        hub.publish("g", 6)
        following = await asyncio.wait_for(subscription.next_version(), timeout=2)
        return newest, following


def test_a_burst_is_merged_into_its_newest_version_and_nothing_older_follows() -> None:
    assert asyncio.run(_burst()) == (5, 6)


def test_publishing_to_a_game_nobody_watches_is_harmless() -> None:
    hub = LocalHub()
    hub.publish("nobody", 1)
    assert hub.watched_games() == []


async def _tables_news() -> list[object]:
    hub = LocalHub()
    async with hub.subscribe("g") as subscription, hub.subscribe("other") as other:
        subscription.mark_seen(3)
        worker = threading.Thread(target=hub.tables, args=("g",))
        worker.start()
        worker.join()
        hub.publish("g", 4)
        heard: list[object] = [await asyncio.wait_for(subscription.next_news(), timeout=2)]
        heard.append(await asyncio.wait_for(subscription.next_news(), timeout=2))
        # Told once: the next news is the next version, not the tables again.
        hub.publish("g", 5)
        heard.append(await asyncio.wait_for(subscription.next_news(), timeout=2))
        # The watcher of another game heard nothing.
        heard.append(other._tables)
        return heard


def test_the_tables_news_reaches_the_game_s_watchers_once_after_its_newer_version() -> None:
    assert asyncio.run(_tables_news()) == [4, TABLES, 5, False]


def test_the_tables_news_through_postgresql_reaches_the_local_watchers() -> None:
    async def watch() -> list[object]:
        hub = PgHub("postgresql://nobody@127.0.0.1:1/none")  # connects only when started
        async with hub._local.subscribe("g") as subscription:
            subscription.mark_seen(2)
            hub._heard("g tables")  # from the process that built them
            heard: list[object] = [await asyncio.wait_for(subscription.next_news(), timeout=2)]
            hub._heard("g 3")
            heard.append(await asyncio.wait_for(subscription.next_news(), timeout=2))
            return heard

    assert asyncio.run(watch()) == [TABLES, 3]
