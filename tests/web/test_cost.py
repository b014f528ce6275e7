"""The cost of a keyless read does not grow with other games (docs/benchmarks.md, "Cost per
request"): the work is counted (statements, replays, drawings), never timed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from kniffel.board.bot_seats import BotSeats
from kniffel.board.players import exchange
from kniffel.board.players.sample import random_record
from kniffel.board.service import GameService
from kniffel.settings import Settings
from kniffel.store.results import ResultStore
from kniffel.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}", background=False),
        bots=BotSeats(delay=0),
    )
    with TestClient(app) as test_client:
        yield test_client


def _import_games(service: GameService, count: int, seed: int, seats: int = 4) -> None:
    """``count`` finished games of ``seats`` new players each (the attack's keyless imports)."""
    draw = random.Random(seed)
    for g in range(count):
        names = [f"P{seed}-{g}-{s}" for s in range(seats)]
        service.import_record(random_record("kniffel", names, draw))


@contextmanager
def _statements(client: TestClient) -> Iterator[list[str]]:
    """The SQL statements run while the block runs."""
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def take(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", take)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", take)


def _csv_statements(client: TestClient) -> int:
    client.get("/export/spieler.csv")  # the summary rows of the new games are written first
    with _statements(client) as seen:
        answer = client.get("/export/spieler.csv")
    assert answer.status_code == 200
    return len(seen)


def test_the_players_csv_reads_as_many_statements_for_eight_players_as_for_forty(
    client: TestClient, service: GameService
) -> None:
    _import_games(service, 2, seed=1)
    few = _csv_statements(client)
    _import_games(service, 8, seed=2)
    many = _csv_statements(client)
    lines = client.get("/export/spieler.csv").text.splitlines()
    assert len(lines) == 1 + 40
    assert many == few


def test_every_players_figures_read_at_once_are_the_player_pages_figures(
    client: TestClient, service: GameService
) -> None:
    draw = random.Random(7)
    names = ["Anna", "Ben", "Cleo", "Dora"]
    for g in range(12):
        variant = draw.choice(["kniffel", "rauf-runter", "yahtzee"])
        seated = draw.sample(names, draw.randint(1, 3))
        if g % 4 == 0:
            seated = [seated[0].upper(), *seated[1:]]  # the same player, spelt otherwise
        service.import_record(random_record(variant, seated, draw))
    results: ResultStore = client.app.state.players.results  # type: ignore[attr-defined]
    every = results.every_figures()
    assert [raw.key for raw in every] == sorted({name.casefold() for name in names})
    for raw in every:
        one = results.figures(raw.key)
        assert one is not None
        histograms = tuple(replace(preset, histogram=()) for preset in one.presets)
        assert raw == replace(one, opponents=(), latest=(), presets=histograms)


def test_the_end_chart_is_drawn_once_per_game_version(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kniffel.web.pages import board_pages

    drawn: list[str] = []
    draw = board_pages.totals_chart_svg

    def counted(game: Any, t: Any) -> str:
        drawn.append(game.players[0])
        return draw(game, t)

    monkeypatch.setattr(board_pages, "totals_chart_svg", counted)
    record = random_record("kniffel", ["Anna", "Ben"], random.Random(3))
    view = service.import_record(record)
    first = client.get(f"/g/{view.id}/chart.svg?v={view.version}")
    again = [client.get(f"/g/{view.id}/chart.svg?v={view.version}") for _ in range(3)]
    assert first.status_code == 200 and "<svg" in first.text
    assert all(answer.text == first.text for answer in again)
    assert drawn == ["Anna"]


def test_a_keyless_import_of_five_thousand_events_is_refused_and_stores_nothing(
    client: TestClient, service: GameService
) -> None:
    """A legal record (a Chance entered, then corrected again and again) longer than any
    game needs: replaying it inside the request cost the server about a CPU-second."""
    first = {"type": "enter", "player": "Solo", "cell": "chance", "points": 20}
    edits = [
        {"type": "edit", "player": "Solo", "cell": "chance", "points": 5 + n % 26}
        for n in range(4_999)
    ]
    document = {
        "format": "kniffel-record/1",
        "variant": "kniffel",
        "players": ["Solo"],
        "events": [first, *edits],
    }
    answer = client.post("/api/records", json=document)
    assert answer.status_code == 400, answer.text
    assert "at most 4,000 events" in answer.json()["detail"]
    assert client.get("/api/games").json() == []


def test_the_players_csv_is_made_again_only_when_the_summary_rows_change(
    client: TestClient, service: GameService
) -> None:
    _import_games(service, 3, seed=5)
    first = client.get("/export/spieler.csv").text
    with _statements(client) as seen:
        again = client.get("/export/spieler.csv").text
    assert again == first
    assert not any("player_results.total" in statement for statement in seen)
    # A link counts at once (the store that made it says so), and so does a new game.
    results: ResultStore = client.app.state.players.results  # type: ignore[attr-defined]
    key = first.splitlines()[1].split(",")[0]
    game = next(row for row in results.rows() if row.player == key)
    assert results.link(game.game_id, game.seat, "Umbenannt")
    assert "umbenannt,Umbenannt," in client.get("/export/spieler.csv").text
    _import_games(service, 1, seed=6)
    assert len(client.get("/export/spieler.csv").text.splitlines()) == 1 + 4 * 4


def test_the_games_csv_is_made_again_only_when_the_summary_rows_change(
    client: TestClient, service: GameService
) -> None:
    """``/export/spiele.csv`` read every summary row on every download (about 50 CPU-ms for
    the attack's 1,000 seats, growing with every import); now the text is kept until a row
    changes, like the players' CSV."""
    _import_games(service, 2, seed=7)
    first = client.get("/export/spiele.csv").text
    with _statements(client) as seen:
        again = client.get("/export/spiele.csv").text
    assert again == first
    assert not any("player_results.total" in statement for statement in seen)
    _import_games(service, 1, seed=8)
    assert len(client.get("/export/spiele.csv").text.splitlines()) == 1 + 3 * 4


def _spy_reads(results: ResultStore, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """The store's reads of rows and figures from here on (``rows``/``every`` and what each
    was asked for; empty arguments: every row)."""
    asked: list[tuple[str, object]] = []

    def spy(name: str, method: Any) -> Any:
        def called(*args: Any, **kwargs: Any) -> Any:
            asked.append((name, args or kwargs))
            return method(*args, **kwargs)

        return called

    monkeypatch.setattr(results, "rows", spy("rows", results.rows))
    monkeypatch.setattr(results, "every_figures", spy("every", results.every_figures))
    return asked


def test_the_first_csv_download_after_a_change_reads_only_what_the_change_touched(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both CSVs were made again from every summary row on the first download after any
    finished game (3.3 and 3.9 CPU-s for 10,000 players over 100,000 games, issue 33); now a
    change makes again only the lines of the games and players it touched, and the text is the
    one made from every row, through a new game, a link and a game reopened."""
    results: ResultStore = client.app.state.players.results  # type: ignore[attr-defined]
    _import_games(service, 3, seed=21)
    assert client.get("/export/spiele.csv").status_code == 200
    assert client.get("/export/spieler.csv").status_code == 200
    rows = results.rows
    asked = _spy_reads(results, monkeypatch)

    def whole() -> tuple[str, str]:
        """Both CSVs as made from every row."""
        return exchange.games_csv(rows()), exchange.players_csv(results)

    draw = random.Random(22)
    new = service.import_record(random_record("kniffel", ["Neu A", "Neu B"], draw))
    games = client.get("/export/spiele.csv").text
    players = client.get("/export/spieler.csv").text
    assert asked == [("rows", {"games": {new.id}}), ("every", ({"neu a", "neu b"},))]
    assert (games, players) == tuple(t for t in whole())
    game = next(r for r in rows() if r.player == "neu a")
    assert results.link(game.game_id, game.seat, "Umbenannt")
    assert (client.get("/export/spiele.csv").text, client.get("/export/spieler.csv").text) == (
        whole()
    )
    assert "umbenannt" in client.get("/export/spieler.csv").text


def test_a_csv_older_than_a_minute_is_made_anew_in_the_background_not_in_the_download(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``CSV_FRESH`` a CSV is made anew from every summary row (another process's changes),
    which cost 3.4–3.9 CPU-s for 100,000 games in the download that came first; where the
    background thread runs, it does that, and the download goes on with what changed here."""
    from kniffel.board.players import service as players_service

    players = client.app.state.players  # type: ignore[attr-defined]
    results: ResultStore = players.results
    _import_games(service, 2, seed=31)
    assert client.get("/export/spiele.csv").status_code == 200
    assert client.get("/export/spieler.csv").status_code == 200
    monkeypatch.setattr(players_service, "CSV_FRESH", 0.0)  # every CSV is old from here on
    monkeypatch.setattr(players, "csvs_in_background", True)
    rows = results.rows
    asked = _spy_reads(results, monkeypatch)
    _import_games(service, 1, seed=32)
    games, players_csv = (
        client.get("/export/spiele.csv").text,
        client.get("/export/spieler.csv").text,
    )
    assert [name for name, how in asked if not how] == []  # no read of every row
    assert players.refresh_csvs() is True
    assert [name for name, how in asked if not how] == ["rows", "every"]
    assert players.refresh_csvs() is False  # nobody downloaded since
    assert games == exchange.games_csv(rows()) == client.get("/export/spiele.csv").text
    assert players_csv == exchange.players_csv(results)


def test_a_second_visit_of_the_players_list_formats_no_share_again(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/spieler`` wrote each listed player's win rate with Babel on every visit (about
    0.3 ms each, a third of the page's cost for 100 players); the same share in the same
    language is written once."""
    from kniffel.web.present import advice_words

    _import_games(service, 2, seed=9)
    assert client.get("/spieler").status_code == 200
    calls: list[float] = []
    original = advice_words.format_percent

    def counted(share: float, *args: Any, **kwargs: Any) -> str:
        calls.append(share)
        return original(share, *args, **kwargs)

    monkeypatch.setattr(advice_words, "format_percent", counted)
    assert client.get("/spieler").status_code == 200
    assert calls == []


@pytest.mark.parametrize("route", ["/", "/spieler", "/api/players"])
def test_the_first_read_of_the_players_list_after_a_finished_game_groups_no_summary_row(
    client: TestClient, service: GameService, route: str
) -> None:
    """The players' list and the leaderboard read one page of the sums kept on write: the first
    read after any finished game (anyone can finish one) reads no summary row of any game, so
    it costs the same with 10 players or 10,000 (issue 33; it grouped every row, 0.7 CPU-s for
    10,000 players over 100,000 games)."""
    _import_games(service, 2, seed=1)
    assert client.get(route).status_code == 200
    counts = []
    for seed in (2, 3):
        _import_games(service, 4 * seed, seed=seed)  # more players each time, the last just now
        with _statements(client) as seen:
            answer = client.get(route)
        assert answer.status_code == 200
        assert f"P{seed}-0-0" in answer.text
        assert [s for s in seen if "player_results" in s] == []
        counts.append(len(seen))
    assert counts[0] == counts[1]
