"""The best bot's yardstick for house rules without documented figures: simulated in the
background, kept on disk, shown on the player page ("wird berechnet" until then)."""

from __future__ import annotations

import html
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.players import yardstick as module
from kniffel.board.players.sample import random_record
from kniffel.board.players.yardstick import DOCUMENTED, Simulations, yardstick
from kniffel.board.service import GameService
from kniffel.rules import get_variant
from kniffel.settings import Settings
from kniffel.store.results import options_key
from kniffel.web.app import create_app

pytestmark = pytest.mark.usefixtures("table_cache")

#: Yahtzee's rules (Kniffel bonus 100, forced joker) in the Kniffel preset: not its standard
#: options, but the tables are the Yahtzee preset's, ready in the test session.
YAHTZEE_RULES = get_variant("yahtzee").options.as_dict()
#: And the other way round, for the page's test.
KNIFFEL_RULES = get_variant("kniffel").options.as_dict()


def _until(found: Callable[[], Any], seconds: float = 240.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := found():
            return value
        time.sleep(0.3)
    raise AssertionError("the background did not get there")


def test_a_simulated_yardstick_is_the_best_bot_under_those_rules() -> None:
    """The Kniffel preset under Yahtzee's rules plays like the Yahtzee preset (the same single
    free column and rules): its simulated mean agrees with docs/bot.md's Yahtzee figure."""
    options = options_key(YAHTZEE_RULES)
    module._path("kniffel", options).unlink(missing_ok=True)  # another test may have left one
    assert yardstick("kniffel", options) is None
    simulations = Simulations(lambda variant, opts: True, games=200, chunk=100)
    simulations.want("kniffel", options)
    assert simulations.progress("kniffel", options) == 0.0
    assert simulations.step() is True
    assert simulations.progress("kniffel", options) == 0.5
    assert yardstick("kniffel", options) is None  # not before all games are played
    assert simulations.step() is True
    assert simulations.progress("kniffel", options) is None
    found = yardstick("kniffel", options)
    assert found is not None and found.games == 200 and found.source == "simulated"
    documented = DOCUMENTED["yahtzee"]
    assert abs(found.mean - documented.mean) < 5 * documented.std / 200**0.5
    assert found.p5 < found.p50 < found.p95
    assert simulations.step() is False  # nothing wanted any more
    # The standard options keep their documented figures; nothing is simulated for them.
    assert yardstick("kniffel", options_key(KNIFFEL_RULES)) is DOCUMENTED["kniffel"]


def test_nothing_is_simulated_while_the_tables_are_missing() -> None:
    options = options_key({**KNIFFEL_RULES, "chance": False})
    simulations = Simulations(lambda variant, opts: False, games=10, chunk=10)
    simulations.want("kniffel", options)
    assert simulations.step() is False
    assert simulations.progress("kniffel", options) == 0.0


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("KNIFFEL_BACKGROUND", "1")
    monkeypatch.setattr(module, "GAMES", 100)
    monkeypatch.setattr(module, "CHUNK", 50)
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}"), bots=BotSeats(delay=0))
    with TestClient(app) as test_client:
        yield test_client


def test_the_player_page_shows_the_bot_for_the_games_house_rules(
    client: TestClient, service: GameService
) -> None:
    # The Yahtzee preset under Kniffel's rules: no documented figure.
    record = random_record("yahtzee", ["Hedda"], random.Random(2), options=KNIFFEL_RULES)
    service.import_record(record)
    options = options_key(KNIFFEL_RULES)
    assert yardstick("yahtzee", options) is None
    first = html.unescape(client.get("/spieler/hedda").text)
    data = client.get("/api/players/hedda").json()
    (preset,) = data["presets"]
    assert preset["options"] == KNIFFEL_RULES
    if preset["bot"] is None:  # the background may already be done
        assert preset["bot_pending"]["status"] == "computing"
        assert "Der starke Bot mit diesen Hausregeln wird berechnet" in first
        # The paragraph asks again by itself (tests/e2e/test_player_yardstick.py in a browser).
        assert 'hx-trigger="load delay:2s" hx-select="#yardstick-1"' in _squeezed(first)
    found = _until(lambda: client.get("/api/players/hedda").json()["presets"][0]["bot"])
    assert found["games"] == 100 and found["source"] == "simulated"
    # Kniffel's rules in a single free column: the Kniffel preset's bot, within the noise.
    documented = DOCUMENTED["kniffel"]
    assert abs(found["mean"] - documented.mean) < 5 * documented.std / 100**0.5
    page = html.unescape(client.get("/spieler/hedda").text)
    assert "mit diesen Hausregeln, 100 simulierte Spiele" in page
    assert "wird berechnet" not in page
    assert 'id="yardstick-1" data-yardstick>' in page and "hx-trigger" not in page
    chart = client.get(f"/spieler/hedda/verteilung.svg?variant=yahtzee&options={options}")
    assert chart.status_code == 200 and "Der starke Bot" in chart.text


def test_rules_whose_tables_are_missing_wait_for_them(
    client: TestClient, service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty cache: another test of the session may have built these rules' tables.
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "empty-cache"))
    rules = {**KNIFFEL_RULES, "chance": False}
    service.import_record(random_record("kniffel", ["Ilse"], random.Random(3), options=rules))
    data = client.get("/api/players/ilse").json()
    assert data["presets"][0]["bot"] is None
    assert data["presets"][0]["bot_pending"] == {"status": "waiting_for_tables"}
    page = html.unescape(client.get("/spieler/ilse").text)
    assert "sobald ihre Tabellen berechnet sind" in page
    assert 'hx-trigger="load delay:15s"' in page  # seldom: a key holder's request builds them


def _squeezed(page: str) -> str:
    """``page`` with every run of white space as one blank (attributes across lines)."""
    return " ".join(page.split())


@pytest.mark.parametrize(
    ("variant", "options"),
    [("jamb", {}), ("yams", {"hand": True, "announce": True})],
    ids=["jamb", "yams-hand-announce"],
)
def test_jamb_and_yams_get_their_yardstick_without_tables(
    client: TestClient,
    service: GameService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    options: dict[str, Any],
) -> None:
    """The player page waited forever (``waiting_for_tables``) for Jamb and Yams games, whose
    best bot needs no tables (issue 32): their figures are simulated at once."""
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "empty-cache"))
    rules = get_variant(variant, options).options.as_dict()
    service.import_record(random_record(variant, ["Vesna"], random.Random(4), options=rules))
    pending = client.get("/api/players/vesna").json()["presets"][0]["bot_pending"]
    assert pending is None or pending["status"] == "computing"
    found = _until(lambda: client.get("/api/players/vesna").json()["presets"][0]["bot"])
    assert found["games"] == 100 and found["variant"] == variant
    page = html.unescape(client.get("/spieler/vesna?lang=hr").text)
    assert "jaki bot" in page.lower() or "jakog bota" in page.lower()
