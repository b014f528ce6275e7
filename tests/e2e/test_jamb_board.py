"""Jamb and Yams on the board, in the browser: the start page offers them with their own house
rules, and a Jamb game is played with its announce and first-roll columns (docs/board.md,
"Jamb und Yams")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e


def test_the_start_page_shows_jambs_house_rules_when_jamb_is_chosen(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/?lang=hr")
    page.locator("details.house-rules summary").click()
    chance = page.locator('input[name="chance"]')
    triling = page.locator('input[name="trips_bonus"]')
    expect(chance).to_be_visible()
    expect(triling).to_be_hidden()
    page.locator('input[name="variant"][value="jamb"]').check()
    # Jamb has no Chance and no joker: its own rules show instead.
    expect(triling).to_be_visible()
    expect(chance).to_be_hidden()
    expect(page.locator('input[name="announce"]')).to_be_hidden()  # Jamb's Najava is always there
    triling.check()
    page.locator('input[name="hand"]').check()
    page.locator("#player-1").fill("Ana")
    page.locator("#player-2").fill("Ivo")
    page.locator('form.new-game button[type="submit"]').click()
    expect(page.locator("#board")).to_be_visible()
    game_id = re.sub(r"[?#].*", "", page.url).rsplit("/", 1)[1]
    state = page.request.get(f"{server}/api/games/{game_id}").json()
    assert state["options"]["trips_bonus"] == 20 and state["options"]["hand"] is True
    assert [c["id"] for c in state["columns"]] == ["down", "free", "up", "announce", "hand"]
    # Back on the start page, Yams shows its columns and the Kniffel rules again.
    page.goto(f"{server}/?lang=hr")
    page.locator("details.house-rules summary").click()
    page.locator('input[name="variant"][value="yams"]').check()
    expect(page.locator('input[name="announce"]')).to_be_visible()
    expect(page.locator('input[name="middle"]')).to_be_hidden()
    expect(page.locator('input[name="chance"]')).to_be_visible()
    context.close()
