"""The one least-recently-used store (``kniffel.kept``): what it keeps, for how long, and that
threads computing the same key share one value."""

from __future__ import annotations

import threading

import pytest

from kniffel.kept import Kept


def test_a_kept_value_is_handed_out_again_without_computing() -> None:
    kept: Kept[str, list[int]] = Kept(size=4)
    first = kept.get("a", lambda: [1])
    assert kept.get("a", lambda: [2]) is first
    assert (kept.hits, kept.misses) == (1, 1)


def test_the_least_recently_used_goes_first() -> None:
    kept: Kept[str, int] = Kept(size=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.find("a") == 1  # "b" is now the least recently used
    assert kept.put("c", 3) == [("b", 2)]
    assert kept.find("b") is None
    assert (kept.find("a"), kept.find("c"), len(kept)) == (1, 3, 2)


def test_peek_neither_uses_a_value_nor_counts() -> None:
    kept: Kept[str, int] = Kept(size=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.peek("a") == 1 and kept.peek("x") is None
    kept.put("c", 3)  # "a" was only peeked at: still the least recently used
    assert "a" not in kept
    assert (kept.hits, kept.misses) == (0, 0)


def test_the_weight_held_together_is_bounded_and_a_too_heavy_value_is_not_kept() -> None:
    kept: Kept[str, str] = Kept(size=10, weight=len, max_weight=6)
    kept.put("a", "xxxx")
    kept.put("b", "xx")
    assert kept.weight == 6
    assert kept.put("c", "xxx") == [("a", "xxxx")]
    assert kept.weight == 5
    assert kept.put("huge", "x" * 7) == []
    assert "huge" not in kept and kept.weight == 5


def test_putting_a_key_again_replaces_its_value_and_weight() -> None:
    kept: Kept[str, str] = Kept(size=3, weight=len)
    kept.put("a", "xxx")
    kept.put("a", "x")
    assert (kept.find("a"), kept.weight, len(kept)) == ("x", 1, 1)
    assert kept.pop("a") == "x" and kept.pop("a") is None
    assert kept.weight == 0


def test_a_size_of_nothing_keeps_nothing() -> None:
    kept: Kept[str, int] = Kept(size=0)
    assert kept.get("a", lambda: 1) == 1
    assert len(kept) == 0


def test_the_newest_wish_is_served_first() -> None:
    wanted: Kept[str, int] = Kept(size=2)
    wanted.put("old", 1)
    wanted.put("middle", 2)
    wanted.put("new", 3)  # "old" falls out
    assert wanted.pop_newest() == ("new", 3)
    assert wanted.pop_newest() == ("middle", 2)
    assert wanted.pop_newest() is None


def test_negative_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Kept(size=-1)
    with pytest.raises(ValueError, match="negative"):
        Kept(weight=len, max_weight=-1)


def test_threads_computing_one_key_at_once_all_get_the_first_kept_value() -> None:
    kept: Kept[str, list[int]] = Kept(size=4)
    inside = threading.Barrier(4)
    got: list[list[int]] = []

    def compute() -> list[int]:
        inside.wait(timeout=30)  # all four compute at once: none found the key kept
        return []

    def ask() -> None:
        got.append(kept.get("k", compute))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(got) == 4
    assert all(value is got[0] for value in got)
    assert kept.peek("k") is got[0]
