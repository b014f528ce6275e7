"""A player page that waits for the strong bot's figures shows them by itself once they are there.

The page asks for the figures of house rules that have none (docs/board.md, the player page); the
background plays the bot's games, and the page, showing "wird berechnet", fetches its
paragraph again every few seconds until they are there, without a reload by the person.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from kniffel.board.players.sample import random_record
from kniffel.board.players.yardstick import _path
from kniffel.rules import get_variant
from kniffel.store.results import options_key

from .conftest import PHONE, running_board
from .test_screenshots import post

pytestmark = pytest.mark.e2e

#: The tables are the session's (the Yahtzee preset's); the 1,000 bot games take seconds, more on
#: a busy machine.
SIMULATION_WAIT = 240_000


def test_the_bot_figures_appear_on_the_player_page_without_a_reload(
    browser: Browser, tmp_path: Path, preset_tables: None
) -> None:
    # Kniffel's single column under Yahtzee's rules: tables of a preset, no documented figures.
    rules = get_variant("yahtzee").options.as_dict()
    kept = _path("kniffel", options_key(rules))
    kept.unlink(missing_ok=True)  # tests/web/test_yardstick.py simulates these rules as well
    try:
        _show_the_figures(browser, tmp_path, rules)
    finally:
        kept.unlink(missing_ok=True)  # leaves the session's cache as it found it


def _show_the_figures(browser: Browser, tmp_path: Path, rules: dict[str, object]) -> None:
    command = [sys.executable, "-m", "kniffel", "serve", "--port", "{port}"]
    with running_board(tmp_path, command, {"KNIFFEL_BACKGROUND": "1"}) as server:
        record = random_record("kniffel", ["Wenzel"], random.Random(5), options=rules)
        post(server + "/api/records", record)
        page = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
        page.goto(f"{server}/spieler/wenzel")
        yardstick = page.locator("[data-yardstick]")
        expect(yardstick).to_contain_text("Der starke Bot mit diesen Hausregeln wird berechnet")
        loaded = page.evaluate("performance.getEntriesByType('navigation').length")
        expect(yardstick).to_contain_text(
            "mit diesen Hausregeln, 1000 simulierte Spiele", timeout=SIMULATION_WAIT
        )
        expect(yardstick).to_contain_text("Der starke Bot:")
        # The same page, not a new one: the paragraph came by itself.
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loaded
        assert page.evaluate("document.querySelectorAll('[data-yardstick]').length") == 1
        page.context.close()
