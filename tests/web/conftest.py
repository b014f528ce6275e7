"""Fixtures for the web board: an app on a fresh SQLite file, a client, the service."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.web.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'kniffel.db'}"


@pytest.fixture
def app(db_url: str) -> FastAPI:
    return create_app(Settings(db=db_url))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client with the app's lifespan running (store open, migrated)."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def service(client: TestClient) -> GameService:
    board: GameService = client.app.state.service  # type: ignore[attr-defined]
    return board
