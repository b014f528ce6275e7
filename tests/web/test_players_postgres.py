"""The players' figures on PostgreSQL: the summary rows, the pairs of seats, a link.

Runs against a throwaway server started from the installed PostgreSQL binaries; skipped
(with the reason) where they are missing.
"""

from __future__ import annotations

import random

import pytest

from kniffel.board.hub import LocalHub
from kniffel.board.players.sample import random_record
from kniffel.board.service import GameService
from kniffel.store import GameStore
from kniffel.store.results import ResultStore

from .postgres import missing

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


def test_the_figures_and_the_tallies_on_postgresql(pg_url: str) -> None:
    store = GameStore.open(pg_url)
    service = GameService(store, LocalHub())
    games = [
        service.import_record(random_record("kniffel", ["Pia", "Paul"], random.Random(seed)))
        for seed in range(4)
    ]
    results = ResultStore(store.engine)
    raw = results.figures(" PIA ")
    assert raw is not None and raw.games == 4
    totals = [g.game.returns() for g in games]
    ((key, name, together, ahead, behind, tied),) = raw.opponents
    assert (key, name, together) == ("paul", "Paul", 4)
    assert (ahead, behind, tied) == (
        sum(a > b for a, b in totals),
        sum(a < b for a, b in totals),
        sum(a == b for a, b in totals),
    )
    (preset,) = raw.presets
    assert preset.mean == pytest.approx(sum(a for a, _ in totals) / 4)
    assert sum(n for _, _, n in preset.histogram) == 4
    assert results.link(games[0].id, 1, "Pia")  # Paul's seat of the first game counts as Pia
    again = results.figures("pia")
    assert again is not None and again.games == 5 and again.opponents[0][2] == 3
    store.close()
