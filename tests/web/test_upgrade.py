"""Upgrading a database written by the 0001 release: every game comes back intact.

The database is built as the release wrote it (the 0001 schema, a games row and
its events per game), then opened by today's store, which upgrades it; every
game must replay to the state its record replays to, and the summary columns
(migration 0002_game_summary) must hold what the replay says. On SQLite and,
where PostgreSQL is installed, on a throwaway PostgreSQL server.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, text

from kniffel.board.hub import LocalHub
from kniffel.board.service import GameService
from kniffel.record import RecordError, loads, record_of, replay, state_dict
from kniffel.store import GameStore, summary_of
from kniffel.store.database import MIGRATIONS

DATA = Path(__file__).parents[1] / "data"


def _records() -> list[tuple[str, str]]:
    """Every legal record of the golden set: (name, text)."""
    found = []
    for path in sorted(DATA.glob("*.json")):
        content = path.read_text(encoding="utf-8")
        try:
            replay(loads(content))
        except RecordError:
            continue
        found.append((path.stem, content))
    assert len(found) >= 5
    return found


def _write_release_database(engine: Engine) -> dict[str, str]:
    """The 0001 schema holding every record as a game; returns game id → record text."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    games: dict[str, str] = {}
    now = datetime(2026, 11, 1, tzinfo=UTC)
    with engine.begin() as connection:
        for number, (name, content) in enumerate(_records()):
            record = loads(content)
            game = replay(record)
            game_id = f"old{number:03d}"
            connection.execute(
                text(
                    "INSERT INTO games (id, key, variant, options, players, dice_mode, bots,"
                    " created_at, updated_at, finished, version) VALUES (:id, :key, :variant,"
                    " :options, :players, 'physical', '{}', :at, :at, :finished, :version)"
                ),
                {
                    "id": game_id,
                    "key": f"key-{name}",
                    "variant": game.variant.name,
                    "options": json.dumps(game.options.as_dict()),
                    "players": json.dumps(list(game.players)),
                    "at": now,
                    "finished": game.is_finished,
                    "version": len(record.events),
                },
            )
            for seq, payload in enumerate(record.events, start=1):
                connection.execute(
                    text(
                        "INSERT INTO events (game_id, seq, payload, created_at)"
                        " VALUES (:id, :seq, :payload, :at)"
                    ),
                    {"id": game_id, "seq": seq, "payload": json.dumps(payload), "at": now},
                )
            games[game_id] = content
    return games


def _check_upgrade(url: str) -> None:
    engine = create_engine(url)
    try:
        written = _write_release_database(engine)
    finally:
        engine.dispose()
    store = GameStore.open(url)  # upgrades to the newest revision
    try:
        service = GameService(store, LocalHub())
        listed = {summary.id: summary for summary in service.list_games(limit=1000)}
        assert set(listed) == set(written)
        for game_id, content in written.items():
            expected = replay(loads(content))
            view = service.get(game_id)
            assert state_dict(view.game) == state_dict(expected), game_id
            assert view.version == len(loads(content).events)
            summary = summary_of(expected)
            assert (listed[game_id].turns, listed[game_id].totals, listed[game_id].winners) == (
                summary.turns,
                summary.totals,
                summary.winners,
            ), game_id
            assert listed[game_id].finished == expected.is_finished
            assert service.export_record(game_id)["events"] == record_of(expected)["events"]
        assert any(s.finished for s in listed.values())
        assert any(s.turns for s in listed.values())
    finally:
        store.close()


def test_a_release_sqlite_database_upgrades_with_every_game_intact(tmp_path: Path) -> None:
    _check_upgrade(f"sqlite:///{tmp_path / 'release.db'}")


def test_a_release_postgresql_database_upgrades_with_every_game_intact(pg_url: str) -> None:
    _check_upgrade(pg_url)


@pytest.mark.parametrize(
    "command", [["serve", "--port", "1"], ["export", "--csv", "out"], ["import", "."]]
)
def test_a_database_of_a_newer_release_is_refused_in_one_line(
    tmp_path: Path, command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from kniffel.cli import cli

    url = f"sqlite:///{tmp_path / 'k.db'}"
    GameStore.open(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:  # as a later release's migration would leave it
        connection.execute(text("UPDATE alembic_version SET version_num = '0099_later'"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*command, "--db", url])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "newer release" in line and "0099_later" in line
    with engine.connect() as connection:  # left as it was
        found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert found == "0099_later"
    engine.dispose()


@pytest.mark.parametrize(
    ("column", "value"),
    [("variant", "kniffel_2099"), ("options", json.dumps({"laser_dice": True}))],
)
def test_a_game_of_a_newer_release_is_listed_as_unreadable(
    db_url: str, column: str, value: str
) -> None:
    # During a rolling restart a newer process may store a variant or an option this release
    # does not know (issue 33, item 8): the lists show it as such, and every other game as
    # before; the game itself answers in plain words, never 400 for the reader's request.
    from fastapi.testclient import TestClient

    from kniffel.settings import Settings
    from kniffel.web.app import create_app

    body = {"variant": "kniffel", "players": ["Ann", "Ben"]}
    with TestClient(create_app(Settings(db=db_url))) as client:
        newer, older = (client.post("/api/games", json=body).json()["id"] for _ in range(2))
    engine = create_engine(db_url)
    with engine.begin() as connection:  # as a newer release would have stored it
        connection.execute(
            text(f"UPDATE games SET {column} = :v WHERE id = :id"), {"v": value, "id": newer}
        )
    engine.dispose()
    with TestClient(create_app(Settings(db=db_url))) as client:
        listed = client.get("/api/games")
        assert listed.status_code == 200, listed.text
        by_id = {game["id"]: game for game in listed.json()}
        assert by_id[older]["readable"] is True and by_id[older]["unreadable"] is None
        assert by_id[newer]["readable"] is False
        assert "cannot read" in by_id[newer]["unreadable"]
        page = client.get("/", headers={"Accept-Language": "en"})
        assert page.status_code == 200, page.text
        assert f"/g/{older}" in page.text and "This version of the board cannot read" in page.text
        answer = client.get(f"/api/games/{newer}")
        assert answer.status_code == 409 and answer.json()["code"] == "game_unreadable"
        shown = client.get(f"/g/{newer}", headers={"Accept-Language": "en"})
        assert shown.status_code == 409 and "cannot read" in shown.text
        assert client.get(f"/api/games/{older}").status_code == 200
