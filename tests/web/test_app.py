"""The app: settings, the default database, restarts, static files and ``kniffel serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from kniffel.cli import cli
from kniffel.settings import Settings
from kniffel.web.app import create_app

from .table import enter, new_game, send, state


def test_the_default_database_is_a_file_in_the_users_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("KNIFFEL_DB", raising=False)
    settings = Settings()
    expected = tmp_path / "data" / "kniffel" / "kniffel.db"
    assert settings.db == f"sqlite:///{expected}"
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    with TestClient(create_app(settings)) as client:
        new_game(client)
    assert expected.exists()


def test_the_environment_chooses_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNIFFEL_DB", f"sqlite:///{tmp_path}/env.db")
    monkeypatch.setenv("KNIFFEL_PORT", "8123")
    settings = Settings()
    assert settings.db == f"sqlite:///{tmp_path}/env.db"
    assert settings.port == 8123


def test_a_restarted_app_shows_the_same_game(db_url: str) -> None:
    with TestClient(create_app(Settings(db=db_url))) as client:
        game = new_game(client)
        send(client, game, enter("Anna", "down.ones", "11156"))
        send(client, game, enter("Ben", "up.chance", "66655"))
        send(client, game, {"type": "undo"})
        before = state(client, game)
    with TestClient(create_app(Settings(db=db_url))) as client:
        assert state(client, game) == before
        # ... and the key still works after the restart.
        assert send(client, game, enter("Ben", "down.ones", "11123")).status_code == 200


def test_static_files_are_served(client: TestClient) -> None:
    assert client.get("/static/.gitkeep").status_code == 200
    assert client.get("/static/missing.css").status_code == 404


class _Served:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, app: Any, **kwargs: Any) -> None:
        self.calls.append({"app": app, **kwargs})


@pytest.mark.parametrize(
    ("args", "host", "port", "db"),
    [
        (["serve"], "127.0.0.1", 8000, "from-env"),
        ([], "127.0.0.1", 8000, "from-env"),
        (["--port", "9001"], "127.0.0.1", 9001, "from-env"),
        (
            ["serve", "--db", "sqlite:///{tmp}/opt.db", "--host", "10.0.0.11"],
            "10.0.0.11",
            8000,
            "opt",
        ),
    ],
)
def test_kniffel_serve_runs_the_board_with_its_options(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    host: str,
    port: int,
    db: str,
) -> None:
    import uvicorn

    served = _Served()
    monkeypatch.setattr(uvicorn, "run", served)
    monkeypatch.setenv("KNIFFEL_DB", f"sqlite:///{tmp_path}/from-env.db")
    monkeypatch.delenv("KNIFFEL_PORT", raising=False)
    monkeypatch.delenv("KNIFFEL_HOST", raising=False)
    result = CliRunner().invoke(cli, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert (call["host"], call["port"]) == (host, port)
    assert call["app"].state.settings.db == f"sqlite:///{tmp_path}/{db}.db"
    assert f"http://{host}:{port}/" in result.output


def test_kniffel_serve_documents_its_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--db", "--host", "--port", "KNIFFEL_DB"):
        assert option in result.output


def test_two_apps_in_one_process_show_each_its_own_game(tmp_path: Path) -> None:
    """Each app keeps what it worked out (game states, boards, fragments) for itself, on its
    own ``app.state`` (docs/architecture.md): two boards in one process, each with a game of
    the same id at the same version, show each its own players, read after the other."""
    from kniffel.rules import get_variant
    from kniffel.store import GameStore, NewGame

    options = get_variant("kniffel").options.as_dict()
    urls = {}
    for player in ("Anna", "Ben"):
        urls[player] = f"sqlite:///{tmp_path / player}.db"
        store = GameStore.open(urls[player])
        store.create(NewGame("same", "k" * 32, "kniffel", options, (player,), "physical"))
        store.close()
    anna, ben = (TestClient(create_app(Settings(db=urls[name]))) for name in ("Anna", "Ben"))
    with anna, ben:
        for path in ("/api/games/same", "/g/same", "/g/same/board"):
            for client, player, other in ((anna, "Anna", "Ben"), (ben, "Ben", "Anna")):
                answer = client.get(path)
                assert answer.status_code == 200, (path, answer.text)
                assert player in answer.text and other not in answer.text, path
