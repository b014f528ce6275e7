"""The in-process hub: versions reach every watcher of a game, from any thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from kniffel.board.hub import LocalHub


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
