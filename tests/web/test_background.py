"""The board's background chores: finished games are reviewed without anybody opening them."""

from __future__ import annotations

import html
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.background import Background
from kniffel.board.bot_seats import BotSeats
from kniffel.board.players.sample import random_record
from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.record import parse, replay
from kniffel.settings import Settings
from kniffel.solver.advice.review import review
from kniffel.web.app import create_app
from kniffel.web.present.review_words import ReviewWords

pytestmark = pytest.mark.usefixtures("table_cache")


def _until(found: Callable[[], Any], seconds: float = 120.0) -> Any:
    """Polls ``found()`` until it is truthy (the background thread works at its own pace)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := found():
            return value
        time.sleep(0.2)
    raise AssertionError("the background did not get there")


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("KNIFFEL_BACKGROUND", "1")
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}"), bots=BotSeats(delay=0))
    with TestClient(app) as test_client:
        yield test_client


def _accuracy(client: TestClient, name: str) -> float | None:
    data = client.get(f"/api/players/{name}").json()
    value: float | None = data["accuracy"]
    return value


def test_a_finished_game_is_reviewed_without_opening_its_review(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = random_record("kniffel", ["Anna", "Ben"], random.Random(5))
    opened: list[str] = []
    original = client.get

    def get(url: str, **kwargs: Any) -> Any:
        opened.append(url)
        return original(url, **kwargs)

    monkeypatch.setattr(client, "get", get)
    view = service.import_record(record)
    expected = review(replay(parse(record)))
    accuracy = _until(lambda: _accuracy(client, "anna"))
    assert accuracy == pytest.approx(expected.player("Anna").accuracy)
    data = client.get("/api/players/ben").json()
    ben = expected.player("Ben")
    assert data["accuracy"] == pytest.approx(ben.accuracy)
    assert data["reviewed_games"] == 1
    assert data["loss_per_decision"] == pytest.approx(ben.loss / ben.decisions)
    page = html.unescape(client.get("/spieler/anna").text)
    assert ReviewWords(Translator("de")).accuracy(accuracy) in page
    assert not any("/analyse" in url or "/review" in url for url in opened)
    assert view.id in client.get("/api/players/anna").text


def test_a_game_waits_while_its_tables_are_missing(tmp_path: Path) -> None:
    """Without ready tables a finished game stays unrated; the chore does not loop on it."""
    from kniffel.board.background import Reviews
    from kniffel.store import GameStore
    from kniffel.store.results import ResultStore

    store = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")

    class NoTables:
        def readiness(self, variant: Any) -> Any:
            return type("R", (), {"ready": False})()

        def on_built(self, listener: Callable[[], None]) -> None:
            self.listener = listener

    from kniffel.board.hub import LocalHub

    service = GameService(store, LocalHub())
    service.import_record(random_record("kniffel", ["Anna"], random.Random(1)))
    results = ResultStore(store.engine)
    reviewed: list[str] = []
    tables = NoTables()
    chore = Reviews(service, results, tables, lambda view: reviewed.append(view.id))  # type: ignore[arg-type]
    assert chore() is True  # looked at the game, put it aside
    assert chore() is False  # nothing else to do: it waits
    assert reviewed == [] and results.rows()[0].accuracy is None
    tables.listener()  # a table was built: the game is looked at again
    assert chore() is True and reviewed == []
    store.close()


def test_a_failing_chore_does_not_end_the_thread() -> None:
    calls: list[int] = []

    def failing() -> bool:
        calls.append(1)
        raise RuntimeError("boom")

    background = Background([failing], poll=0.01, first=0, rest=0)
    background.start()
    _until(lambda: len(calls) >= 3, seconds=30)
    background.close()
    assert background.stopped


def test_games_waiting_for_tables_do_not_hide_an_older_ready_one(tmp_path: Path) -> None:
    """More waiting games than one look takes (20) stand before a game whose tables are ready."""
    from kniffel.board.background import Reviews
    from kniffel.board.hub import LocalHub
    from kniffel.store import GameStore
    from kniffel.store.results import ResultStore

    store = GameStore.open(f"sqlite:///{tmp_path / 'k.db'}")
    service = GameService(store, LocalHub())
    older = service.import_record(random_record("yahtzee", ["Olga"], random.Random(9)))
    for seed in range(21):  # newer games whose (pretended) tables are missing
        service.import_record(random_record("kniffel", ["Nina"], random.Random(seed)))

    class OnlyYahtzee:
        def readiness(self, variant: Any) -> Any:
            return type("R", (), {"ready": variant.name == "yahtzee"})()

        def on_built(self, listener: Callable[[], None]) -> None:
            pass

    results = ResultStore(store.engine)
    reviewed: list[str] = []

    def reviewing(view: Any) -> Any:
        reviewed.append(view.id)
        return review(view.game)

    chore = Reviews(service, results, OnlyYahtzee(), reviewing)  # type: ignore[arg-type]
    for _ in range(30):
        if not chore():
            break
    assert reviewed == [older.id]
    (olga,) = results.rows("olga")
    assert olga.accuracy == pytest.approx(review(older.game).player("Olga").accuracy)
    assert all(r.accuracy is None for r in results.rows("nina"))
    store.close()


def test_a_database_outage_is_one_warning_and_one_line_when_it_is_over(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # PostgreSQL stopped under the board: its review chore logged a 40-line traceback twice a
    # second (issue 33, item 6). The chore meets the driver's error as it would.
    from sqlalchemy import create_engine, text

    gone = create_engine(f"sqlite:///file:{tmp_path / 'gone' / 'k.db'}?mode=ro&uri=true")
    calls: list[int] = []

    def chore() -> bool:
        calls.append(1)
        if 3 <= len(calls) <= 30:
            with gone.connect() as connection:
                connection.execute(text("SELECT 1"))
        return False

    background = Background([chore], poll=0.001, first=0, rest=0)
    caplog.set_level("INFO", logger="kniffel.board.background")
    background.start()
    try:
        _until(lambda: len(calls) > 40, seconds=60)
    finally:
        background.close()
        gone.dispose()
    lines = [r for r in caplog.records if r.name == "kniffel.board.background"]
    assert [r.exc_info for r in lines] == [None, None], [r.getMessage() for r in lines]
    assert "database unreachable" in lines[0].getMessage()
    assert "answers again" in lines[1].getMessage()
