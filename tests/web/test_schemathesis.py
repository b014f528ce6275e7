"""Schemathesis (>= 4) against the OpenAPI spec, in-process through ASGI.

Requests that fit the schema must never answer 422 (that means "malformed")
and requests that do not fit must answer 4xx; nothing may answer 5xx, and
every answer must match the spec. A rules violation of a well-formed request
answers 400, so 400 counts as an accepted answer to valid data: a schema can
describe the shape of an event, not whose turn it is.

Two runs: one against the spec as it is (random ids: mostly 404), one with
every path pointing at a real game and its key (the rules engine answers).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import schemathesis

from kniffel.board.hub import LocalHub
from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.store import GameStore
from kniffel.web.app import create_app

# The schemas load when pytest collects this module (schemathesis' lazy
# fixture loader does not run on pytest 9); the folder goes at exit.
_FOLDER = Path(tempfile.mkdtemp(prefix="kniffel-fuzz-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)

CONFIG = """
seed = 20240611
{top}

[generation]
max-examples = {examples}
database = "none"

[phases.stateful]
enabled = false

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "400", "403", "404", "409"]
"""


def _schema(name: str, examples: int, top: str = "", extra: str = "") -> Any:
    url = f"sqlite:///{_FOLDER / name}.db"
    config = schemathesis.Config.from_str(CONFIG.format(examples=examples, top=top) + extra)
    # Made while the tests are collected, before tests/conftest.py sets the test session's
    # environment: so the app is told itself not to build tables, review games or tune the
    # collector of this process.
    settings = Settings(db=url, prebuild_tables=False, background=False, gc_freeze=False)
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(settings), config=config)


def _game_schema() -> Any:
    url = f"sqlite:///{_FOLDER / 'game'}.db"
    store = GameStore.open(url)
    try:
        view = GameService(store, LocalHub()).create("rauf-runter", {}, ["Anna", "Ben"])
    finally:
        store.close()
    top = f'headers = {{ "X-Kniffel-Key" = "{view.key}" }}'
    extra = f'[parameters]\n"path.game_id" = "{view.id}"\n'
    return _schema("game", 40, top, extra)


open_api = _schema("open", 15)
game_api = _game_schema()


@open_api.parametrize()
def test_the_api_keeps_its_spec(case: schemathesis.Case) -> None:
    case.call_and_validate()


@game_api.parametrize()
def test_the_api_keeps_its_spec_on_a_real_game(case: schemathesis.Case) -> None:
    case.call_and_validate()
