"""The solver's objects per set of house rules are bounded in memory, the presets' kept
(issue 33, item 4: about 8 MB per combination asked about, never given back)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from kniffel.rules import PRESETS, Variant, get_variant
from kniffel.solver import per_variant as module
from kniffel.solver.chances.distribution import best_bot
from kniffel.solver.chances.endgame import shared_finals
from kniffel.solver.exact.roll_scores import raw_scores
from kniffel.solver.per_variant import kept_variants, nbytes, per_variant


@pytest.fixture
def one_mb(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh store bounded to 1 MB (``KNIFFEL_VARIANT_MEMORY_MB``)."""
    monkeypatch.setenv("KNIFFEL_VARIANT_MEMORY_MB", "1")
    monkeypatch.setattr(module, "_store", None)
    yield
    monkeypatch.setattr(module, "_store", None)


def _house_rules(n: int) -> list[Variant]:
    return [get_variant("kniffel", {"kniffel_bonus": 10 * (i + 1)}) for i in range(n)]


@pytest.mark.usefixtures("one_mb")
def test_house_rules_go_first_when_the_memory_bound_is_reached_and_presets_stay() -> None:
    built: list[str] = []

    @per_variant
    def tables(variant: Variant) -> np.ndarray:
        built.append(variant.name)
        return np.zeros(40_000)  # 320 kB: three fit in 1 MB

    preset = tables(PRESETS["kniffel"])
    rules = _house_rules(6)
    kept = [tables(v) for v in rules]
    assert kept_variants().weight <= 1024 * 1024
    assert tables(rules[-1]) is kept[-1]  # the latest are kept
    assert tables(rules[0]) is not kept[0]  # the oldest went and is built again
    for _ in range(10):  # however many house rules come and go, the preset stays
        [tables(v) for v in _house_rules(8)]
        assert tables(PRESETS["kniffel"]) is preset
    assert built.count("kniffel") > 7


@pytest.mark.usefixtures("one_mb")
def test_the_solver_caches_keyed_by_house_rules_are_bounded() -> None:
    # raw_scores, best_bot and shared_finals were functools.cache: kept for ever.
    for f in (raw_scores, best_bot, shared_finals):
        assert f.__wrapped__ is not None and not hasattr(f, "cache_clear"), f
    for variant in _house_rules(200):
        raw_scores(variant.options)
    assert 0 < kept_variants().weight <= 1024 * 1024
    assert len(kept_variants()) < 200


def test_nbytes_counts_the_arrays_an_object_holds() -> None:
    class Bot:
        def __init__(self) -> None:
            self.table = np.zeros(1000)
            self.more = {"a": np.zeros(10, dtype=np.int8), "b": [np.zeros(5)]}

    assert nbytes(Bot()) == 8000 + 10 + 40
