"""Solved tables for the solver tests: built once per session, in a private cache dir."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from kniffel.rules import Discipline, Row, get_variant
from kniffel.solver.exact.column import ColumnTable, solve_column

#: yatzy-solver's names of the rows that it names otherwise.
THEIR_NAMES = {
    Row.THREE_KIND: "three_of_a_kind",
    Row.FOUR_KIND: "four_of_a_kind",
    Row.KNIFFEL: "five_of_a_kind",
}


@cache
def _solved(
    variant: str, discipline: Discipline, options: tuple[tuple[str, Any], ...]
) -> ColumnTable:
    return solve_column(get_variant(variant, dict(options)).options, discipline)


@pytest.fixture(scope="session")
def solved(private_cache_dir: str) -> Callable[..., ColumnTable]:
    """``solved("yahtzee", joker="none")``: the table, built at most once per session."""

    def get(variant: str, discipline: Discipline = Discipline.FREE, **options: Any) -> ColumnTable:
        return _solved(variant, discipline, tuple(sorted(options.items())))

    return get


@cache
def _reference(name: str) -> Any:
    import yatzy_solver

    return yatzy_solver.Solver.build(yatzy_solver.Variant(name))


@pytest.fixture(scope="session")
def yatzy_reference() -> Callable[[str], Any]:
    """``yatzy_reference("american+no-joker")``: yatzy-solver's solved variant, built once."""
    return _reference
