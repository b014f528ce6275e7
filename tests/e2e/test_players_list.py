"""The players' list ``/spieler`` in pages of 100: a visitor goes on with "Weiter" and back
with "Zurück", and a page that is not there says so (docs/board.md, "Spieler und Bestenliste")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .test_accessibility import ROWS, post, violations

pytestmark = pytest.mark.e2e


def test_the_players_list_goes_on_over_pages(browser: Browser, server: str) -> None:
    for g in range(15):  # 120 new players (5 points each: no leaderboard of another test moves)
        names = [f"Blatt {g:02d}-{s}" for s in range(8)]
        events = [
            {"type": "enter", "player": name, "cell": row, "points": 5 if row == "chance" else 0}
            for row in ROWS
            for name in names
        ]
        record = {"format": "kniffel-record/1", "variant": "kniffel", "players": names}
        post(server + "/api/records", {**record, "events": events})
    context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/spieler", wait_until="domcontentloaded")
    pager = page.get_by_role("navigation", name="Seiten der Spielerliste")
    expect(pager).to_contain_text(re.compile(r"Spieler 1 bis 100 von \d+"))
    expect(page.locator(".players-page tbody tr")).to_have_count(100)
    expect(pager.get_by_role("link", name="Zurück")).to_have_count(0)
    pager.get_by_role("link", name="Weiter").click()
    expect(page).to_have_url(re.compile(r"/spieler\?seite=2$"))
    expect(pager).to_contain_text(re.compile(r"Spieler 101 bis \d+ von \d+"))
    assert violations(page, "/spieler?seite=2") == []
    pager.get_by_role("link", name="Zurück").click()
    expect(page).to_have_url(re.compile(r"/spieler\?seite=1$"))
    page.goto(server + "/spieler?seite=999", wait_until="domcontentloaded")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        re.compile(r"Seite 999 der Spielerliste gibt es nicht \(Seiten 1 bis \d+\)\.")
    )
    context.close()
