"""Fixtures for the web board: an app on a fresh SQLite file, a client, the service.

Tests that read solved tables (the Tipp, the analysis, the review) ask for ``table_cache``
(the presets' tables, built once per session) and for ``bot_client``: an app whose bots
move inside the request that made them the player to move (``BotSeats(delay=0)``).
``handed_over`` names what a request handed to a worker thread.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio import to_thread
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.web.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'kniffel.db'}"


#: The work of a Jamb or Yams end chart in the tests' apps: two bot games a sheet and round, a
#: few seconds (the built-in bound is some 40 s of CPU; tests/solver/chances/test_rounds.py).
CHART_WORK = 20_000
#: Jamb's and Yams's live chances are not narrowed after their first answer in the tests' apps
#: (16 times its work in the background, under the test's feet): the tests of the narrowing
#: make an app of their own (tests/web/test_chances.py).
CHANCES_REFINE = 1


@pytest.fixture
def app(db_url: str) -> FastAPI:
    return create_app(Settings(db=db_url, chart_work=CHART_WORK, chances_refine=CHANCES_REFINE))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client with the app's lifespan running (store open, migrated)."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def service(client: TestClient) -> GameService:
    board: GameService = client.app.state.service  # type: ignore[attr-defined]
    return board


@pytest.fixture
def handed_over(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions handed to a worker thread (anyio's, which Starlette's
    ``run_in_threadpool`` and FastAPI's plain ``def`` handlers and dependencies use)."""
    names: list[str] = []
    original = to_thread.run_sync

    async def counting(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        named = function.func if isinstance(function, functools.partial) else function
        names.append(getattr(named, "__name__", repr(named)))
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(to_thread, "run_sync", counting)
    return names


@pytest.fixture(scope="module")
def table_cache(tmp_path_factory: pytest.TempPathFactory, preset_tables: None) -> Iterator[None]:
    """The presets' tables, ready; solved tables go to the test session's folder, never the
    user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        if "KNIFFEL_CACHE_DIR" not in os.environ:
            patch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "tables"))
        yield


@pytest.fixture
def bot_client(db_url: str) -> Iterator[TestClient]:
    """A client of an app whose bots move at once (no delay between their events)."""
    app = create_app(
        Settings(db=db_url, chart_work=CHART_WORK, chances_refine=CHANCES_REFINE),
        bots=BotSeats(delay=0),
    )
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """One throwaway PostgreSQL server for the whole session (starting one takes seconds);
    skipped where it cannot start here (the modules say so with ``pytestmark``)."""
    from .postgres import binaries, missing, throwaway_postgres

    reason = missing()
    folder = binaries()
    if reason is not None or folder is None:
        pytest.skip(reason or "PostgreSQL binaries are missing")
    with throwaway_postgres(folder) as url:
        yield url


@pytest.fixture(scope="module")
def pg_url(pg_server: str) -> Iterator[str]:
    """An empty database of the session's server for the module that asks, dropped after it:
    each module starts from no tables, as with a server of its own."""
    from .postgres import fresh_database

    with fresh_database(pg_server) as url:
        yield url


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty solver cache of this test's own (no table of the session's cache is found)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(folder))
    return folder
