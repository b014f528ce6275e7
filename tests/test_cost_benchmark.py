"""``benchmarks/cost.py`` runs its attack and names its routes with any ``--rules`` it allows.

``--rules 0`` (imports only, no house-rule table builds) crashed after the imports: the
house-rule game to measure was the last one the build requests had made, and there was none
(docs/benchmarks.md, "Cost per request").
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from kniffel.settings import Settings
from kniffel.web.app import create_app

COST = Path(__file__).resolve().parents[1] / "benchmarks" / "cost.py"


def _cost() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cost_benchmark", COST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}", background=False))
    with TestClient(app) as test_client:
        yield test_client


def test_the_attack_without_house_rules_measures_every_route_but_the_house_rule_advice(
    client: TestClient,
) -> None:
    cost = _cost()
    made = cost.attack(client, players=16, rules=0, positions=1)
    assert len(made["games"]) == 2 and len(made["positions"]) == 1
    assert made["asked"] == {}
    measured = cost.routes(lambda: client, made)
    assert "GET /api/games/ID/advice (house rules, key)" not in measured
    assert measured["GET /api/games/ID"](0).status_code == 200
