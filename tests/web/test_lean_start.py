"""``kniffel serve`` starts without what its first requests do not need (issue 9, item 7;
issue 22, "Start").

numpy (the solver) is imported by the first request that needs it (and matplotlib by none),
not at start: a fresh interpreter that loads the command, builds the app, serves the start page,
creates a game and reads it, and lets the table worker look at every preset table, has imported
neither. Nor has an SQLite board imported psycopg (PostgreSQL's driver), SQLAlchemy's ORM (the
store speaks Core), segno (the QR codes of a game's page) or Alembic: a fresh database gets its
tables and the head's stamp, one at the newest schema is only asked its revision (Alembic runs
for a migration alone). The time to the first answer is
printed by ``benchmarks/start.py``, not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from kniffel.solver import builds

_SCRIPT = """
import json, sys

from fastapi.testclient import TestClient

from kniffel.cli import cli
from kniffel.settings import Settings
from kniffel.solver.builds import TableBuilds, preset_tables

cli.commands["serve"]  # the command's module, as `kniffel serve` loads it
from kniffel.web.app import create_app

heavy = ("numpy", "matplotlib", "alembic", "psycopg", "sqlalchemy.orm", "segno")
seen = {}
with TestClient(create_app(Settings(db=sys.argv[1]))) as client:
    pass  # a fresh database: its tables and the head's stamp, without Alembic
seen["fresh database"] = [m for m in heavy if m in sys.modules]
with TestClient(create_app(Settings(db=sys.argv[1]))) as client:  # at the newest schema
    seen["start"] = [m for m in heavy if m in sys.modules]
    page = client.get("/")
    assert page.status_code == 200, page.status_code
    seen["start page"] = [m for m in heavy if m in sys.modules]
    body = {"variant": "rauf-runter", "players": ["Anna", "Ben"]}
    game = client.post("/api/games", json=body)
    assert game.status_code == 201, game.text
    read = client.get("/api/games/" + game.json()["id"])
    assert read.status_code == 200, read.status_code
    seen["game created and read"] = [m for m in heavy if m in sys.modules]
ready = [TableBuilds().is_ready(table) for table in preset_tables()]
seen["the worker's look at the preset tables"] = [m for m in heavy if m in sys.modules]
print(json.dumps({"seen": seen, "ready": ready}))
"""


def _fresh(script: str, tmp_path: Path) -> Any:
    """What ``script`` prints last (JSON), run in a fresh interpreter on a database of its own."""
    done = subprocess.run(
        [sys.executable, "-c", script, f"sqlite:///{tmp_path / 'k.db'}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _run(tmp_path: Path) -> dict[str, object]:
    result: dict[str, object] = _fresh(_SCRIPT, tmp_path)
    return result


def test_serving_the_start_page_imports_no_solver_migrations_driver_orm_or_qr_codes(
    tmp_path: Path,
) -> None:
    result = _run(tmp_path)
    seen = result["seen"]
    assert isinstance(seen, dict)
    assert seen == {key: [] for key in seen}, seen
    assert set(seen) == {
        "fresh database",
        "start",
        "start page",
        "game created and read",
        "the worker's look at the preset tables",
    }


def test_the_worker_looks_at_stored_tables_without_numpy(
    tmp_path: Path, preset_tables: None
) -> None:
    """With every preset table on disk (the ↓↑ one too), the look still imports no numpy."""
    result = _run(tmp_path)
    assert result["ready"] == [True] * len(builds.preset_tables())
    seen = result["seen"]
    assert isinstance(seen, dict)
    assert seen == {key: [] for key in seen}, seen


_WAITING = """
import json, sys, time

from fastapi.testclient import TestClient

from kniffel.board.tables import TIPP_MODULES
from kniffel.settings import Settings
from kniffel.solver.builds import TableBuilds
from kniffel.web.app import create_app

def held(builds, table):  # a build that never ends before the app closes: nothing is built
    while not builds._stopped:
        time.sleep(0.01)
    return False

TableBuilds._build = held
settings = Settings(db=sys.argv[1], tables_at_creation=True, prebuild_tables=False)
with TestClient(create_app(settings)) as client:
    body = {"variant": "kniffel", "players": ["Anna"], "options": {"kniffel_bonus": 61}}
    assert client.post("/api/games", json=body).status_code == 201
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(m in sys.modules for m in TIPP_MODULES):
        time.sleep(0.05)
    print(json.dumps([m for m in TIPP_MODULES if m not in sys.modules]))
"""


def test_a_game_that_waits_for_its_tables_has_the_tipps_modules_imported_meanwhile(
    tmp_path: Path,
) -> None:
    """A house rule's game queues its tables when it is created; while they are built the
    server imports what its Tipp needs (about 0.4 s of CPU a fresh server's first Tipp spent),
    so that the Tipp answers as soon as they are there (issue 35)."""
    assert _fresh(_WAITING, tmp_path) == []
