"""The board on a phone: due cells never sit under the entry panel, and every player's name
and total are visible at once (issue 8, friction)."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e


def new_game(server: str, variant: str, players: list[str]) -> dict[str, Any]:
    body = json.dumps({"variant": variant, "players": players}).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(server + "/api/games", body, headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return found


def open_board(browser: Browser, server: str, game: dict[str, Any]) -> Page:
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.goto(server + game["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    return page


def test_no_due_cell_sits_under_the_entry_panel(browser: Browser, server: str) -> None:
    page = open_board(browser, server, new_game(server, "rauf-runter", ["Anna", "Ben"]))
    panel_top = box(page.locator(".entry"))["y"]
    due = page.locator(".sheet:not(.is-back) td.cell.due")
    expect(due).to_have_count(2)  # ↓ Einser and ↑ Chance
    page.wait_for_timeout(200)
    for i in range(2):
        cell = box(due.nth(i))
        assert cell["y"] >= 0 and cell["y"] + cell["height"] <= panel_top, (i, cell, panel_top)
    page.context.close()


def test_every_players_name_and_total_are_visible_at_once(browser: Browser, server: str) -> None:
    names = ["Annemarie Sophie", "Bartholomäus", "Christiane Charlotte", "Dietrich"]
    page = open_board(browser, server, new_game(server, "rauf-runter", names))
    for name in names:
        tab = page.get_by_role("tab", name=re.compile(re.escape(name)))
        expect(tab).to_be_in_viewport(ratio=1)
        total = box(tab.locator(".player-total"))
        assert total["x"] >= 0 and total["x"] + total["width"] <= PHONE["width"]
    page.context.close()
