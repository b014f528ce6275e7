"""The Tipp and the win chances of a Jamb game in the browser: keeps, entries and announcements
as the best bot plays them, in Croatian, marked as the bot's heuristic; the chances from its
games, worked out in the background (docs/solver.md, "Jamb and Yams: the bot's heuristic")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .jamb_pages import roll, start_game
from .test_accessibility import post

pytestmark = pytest.mark.e2e


def test_the_tipp_of_a_jamb_game_in_croatian_suggests_a_keep_an_entry_or_an_announcement(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    start_game(page, server, lang="hr", variant="jamb", players=("Ana", "Ivo"), dice_mode="virtual")
    roll(page)

    page.get_by_role("button", name="Savjet").click()
    choices = page.locator("#tipp .tipp-choices li")
    expect(choices.first).to_contain_text(re.compile(r"^\s*(Zadrži|Upiši|Najavi): "))
    expect(choices.first).to_contain_text("najbolji izbor")
    assert choices.count() >= 2
    # the panel says whose values these are: the bot's heuristic, not an optimum
    expect(page.locator("#tipp [data-tipp-heuristic]")).to_contain_text(
        "Heuristika jakog bota, ne optimum"
    )
    expect(page.locator("#tipp .tipp-sum")).to_contain_text("Vrijednost po heuristici bota")
    expect(page.locator("#tipp [data-expected]")).to_have_text(re.compile(r"^[\d.]+,\d$"))
    context.close()


DATA = Path(__file__).parent.parent / "data"


def test_the_win_chances_of_a_jamb_game_appear_once_simulated(
    browser: Browser, server: str
) -> None:
    record = json.loads((DATA / "jamb-announce.json").read_text(encoding="utf-8"))
    game = post(f"{server}/api/records", record)
    context = browser.new_context(viewport=PHONE, locale="hr")
    page = context.new_page()
    page.goto(f"{server}/g/{game['id']}?lang=hr")
    switch = page.locator("[data-chances-switch]")
    switch.check()
    chances = page.locator(".player-chance")
    # ~50 entries left to each: the best bot's games through the engine take a while, in
    # the board's background; the page asks again until they are there
    expect(chances).to_have_count(2, timeout=400_000)
    expect(page.locator("#tab-0 .player-chance")).to_have_attribute("data-method", "simulation")
    expect(chances.first).to_have_text(re.compile(r"^(≈ \d+–\d+\s%|[<>]? ?\d+\s%)$"))
    context.close()
