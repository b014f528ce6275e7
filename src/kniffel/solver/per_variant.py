"""What the solver keeps in memory per set of house rules, bounded (issue 33, item 4).

The solver builds an object per variant that it hands out again: the best bot with its solved
tables (:func:`kniffel.solver.chances.distribution.best_bot`), the late distributions
(:func:`kniffel.solver.chances.endgame.shared_finals`), the win bots. Kept for ever, each new
house-rule combination a client asked about grew the process by megabytes that were never given
back. Here they share one least-recently-used store (:class:`kniffel.kept.Kept`) bounded by the
bytes of their arrays: ``KNIFFEL_VARIANT_MEMORY_MB`` (docs/deploy.md, "Limits"). The presets'
objects are never evicted (the board needs them at every moment), and do not count.

>>> from kniffel.rules import get_variant
>>> built = per_variant(lambda variant: [variant.name])
>>> built(get_variant("kniffel")) is built(get_variant("kniffel"))
True
>>> built(get_variant("kniffel", {"kniffel_bonus": 100})) is not None
True
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from kniffel.kept import Kept
from kniffel.rules import PRESETS, Options, Variant
from kniffel.settings import TableSettings

__all__ = ["kept_variants", "nbytes", "per_variant"]

V = TypeVar("V")

#: The presets' objects, by cache and variant: kept for good.
_PRESETS: dict[tuple[int, Hashable, tuple[Any, ...]], Any] = {}
_LOCK = threading.Lock()
_Key = tuple[int, Hashable, tuple[Any, ...]]
_store: Kept[_Key, tuple[Any, int]] | None = None


def kept_variants() -> Kept[_Key, tuple[Any, int]]:
    """The one store of every cache's objects for house rules other than the presets'
    (bounded by ``KNIFFEL_VARIANT_MEMORY_MB``, read when it is first used)."""
    global _store
    with _LOCK:
        if _store is None:
            limit = TableSettings().variant_memory_mb * 1024 * 1024
            _store = Kept(size=10_000, weight=lambda kept: kept[1], max_weight=limit)
        return _store


_PRESET_OPTIONS = {preset.options for preset in PRESETS.values()}


def is_preset(variant: Variant | Options) -> bool:
    """A preset as it stands (or its house rules): what the board serves at every moment."""
    if isinstance(variant, Variant):
        return PRESETS.get(variant.name) == variant
    return variant in _PRESET_OPTIONS


def per_variant(build: Callable[..., V]) -> Callable[..., V]:
    """``build(variant, *rest)`` once per variant or house rules (and ``rest``), as
    ``functools.cache`` did,
    but the objects of other house rules than the presets' go first when the store is full."""
    number = id(build)

    @functools.wraps(build)
    def cached(variant: Variant | Options, *rest: Any) -> V:
        key = (number, variant, rest)
        if is_preset(variant):
            found = _PRESETS.get(key)
            if found is None:
                found = _PRESETS.setdefault(key, build(variant, *rest))
            return found  # type: ignore[no-any-return]
        kept = kept_variants().get(key, lambda: _weighed(build(variant, *rest)))
        return kept[0]  # type: ignore[no-any-return]

    return cached


def _weighed(value: V) -> tuple[V, int]:
    return value, max(1, nbytes(value))


def nbytes(value: object, depth: int = 4) -> int:
    """The bytes of the arrays ``value`` holds (in its attributes, lists and dicts, ``depth``
    levels down): what a solver object weighs, the rest being small beside them."""
    seen: set[int] = set()

    def walk(item: object, level: int) -> int:
        if id(item) in seen or level < 0:
            return 0
        seen.add(id(item))
        size = getattr(item, "nbytes", None)
        if isinstance(size, int):
            return size
        if isinstance(item, dict):
            return sum(walk(v, level - 1) for v in list(item.values()))
        if isinstance(item, list | tuple):
            return sum(walk(v, level - 1) for v in item)
        fields = getattr(item, "__dict__", None)
        total = 0
        if isinstance(fields, dict):
            total += sum(walk(v, level - 1) for v in list(fields.values()))
        for name in getattr(type(item), "__slots__", ()):
            total += walk(getattr(item, name, None), level - 1)
        return total

    return walk(value, depth)
