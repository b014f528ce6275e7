"""The replay cache: least recently used out, bounded by games and by events."""

from __future__ import annotations

import pytest

from kniffel.rules import Game, get_variant
from kniffel.store.replays import CachedReplay, ReplayCache


def _replay(events: int) -> CachedReplay:
    game = Game(get_variant("kniffel"), ["Anna"])
    return CachedReplay(game, tuple({"type": "undo"} for _ in range(events)))


def test_a_kept_replay_is_handed_out_again_for_its_version_only() -> None:
    cache = ReplayCache()
    kept = _replay(3)
    cache.put("g1", 3, kept)
    assert cache.get("g1", 3) is kept
    assert cache.get("g1", 2) is None
    assert cache.get("g2", 3) is None
    assert (cache.hits, cache.misses) == (1, 2)


def test_the_least_recently_used_game_goes_first() -> None:
    cache = ReplayCache(max_games=2)
    cache.put("a", 1, _replay(1))
    cache.put("b", 1, _replay(1))
    assert cache.get("a", 1) is not None  # "b" is now the least recently used
    cache.put("c", 1, _replay(1))
    assert cache.get("b", 1) is None
    assert cache.get("a", 1) is not None and cache.get("c", 1) is not None
    assert len(cache) == 2


def test_the_events_held_together_are_bounded() -> None:
    cache = ReplayCache(max_events=10)
    cache.put("a", 6, _replay(6))
    cache.put("b", 4, _replay(4))
    assert cache.events == 10
    cache.put("c", 5, _replay(5))
    assert cache.get("a", 6) is None
    assert cache.events == 9
    cache.put("huge", 11, _replay(11))  # larger than the whole cache: not kept
    assert cache.get("huge", 11) is None
    assert cache.events == 9


def test_a_newer_version_replaces_the_older_and_an_older_never_replaces_a_newer() -> None:
    cache = ReplayCache()
    cache.put("g", 1, _replay(1))
    newer = _replay(2)
    cache.put("g", 2, newer)
    assert cache.get("g", 1) is None
    assert len(cache) == 1 and cache.events == 2
    cache.put("g", 1, _replay(1))  # a slow reader of the old version comes late
    assert cache.get("g", 2) is newer
    assert cache.get("g", 1) is None


def test_negative_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        ReplayCache(max_games=-1)
