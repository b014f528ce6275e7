"""Revanche and the games evening in the browser (docs/board.md, "Revanche"), in chromium.

A phone holds the play link of a finished game, a laptop watches it. Three games linked by the
end screen's Revanche button: each tap takes both devices to the next game (the phone may enter
there, the laptop still only watches), and the end screen shows the evening's running tally.
The games are played through the API (the shortest whole game: Kniffel without Chance, two
players, 24 entries); what the test is about happens on the pages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from kniffel.rules import get_variant, rows_for

from .conftest import DESKTOP
from .test_board_state import open_board, phone, post

pytestmark = pytest.mark.e2e

ROWS = [row.value for row in rows_for(get_variant("kniffel", {"chance": False}).options)]
DICE = {"Anna": [6, 6, 6, 6, 6], "Ben": [1, 2, 3, 4, 5]}  # Anna 140 points a game, Ben 85


def play(server: str, game: dict[str, Any]) -> None:
    """Every row of every player, the game's first player first."""
    order = [p["name"] for p in game["players"]]
    for row in ROWS:
        for player in order:
            event = {"type": "enter", "player": player, "cell": row, "dice": DICE[player]}
            post(f"{server}/api/games/{game['id']}/events", {"event": event}, game["key"])


def revanche_of(server: str, game: dict[str, Any]) -> dict[str, Any]:
    """The game's Revanche with its key, as a program asks for it (the same game the page
    started: a game has one)."""
    return post(f"{server}/api/games/{game['id']}/revanche", {}, game["key"])


def taken_to_the_revanche(page: Page, server: str, game_id: str) -> None:
    expect(page).to_have_url(re.compile(rf"/g/(?!{re.escape(game_id)}$)[^/]+$"), timeout=20_000)
    expect(page.locator(".game")).to_have_attribute("data-live", "open")


def test_three_games_linked_by_revanche_with_the_tally(browser: Browser, server: str) -> None:
    first = post(
        server + "/api/games",
        {"variant": "kniffel", "options": {"chance": False}, "players": ["Anna", "Ben"]},
    )
    play(server, first)
    at_table = phone(browser)
    laptop = browser.new_context(viewport=DESKTOP, locale="de-DE")
    try:
        a = open_board(at_table, server, first)  # the play link: this phone holds the key
        b = open_board(laptop, server, {"url": f"/g/{first['id']}"})  # watches only
        expect(b.get_by_role("button", name="Revanche")).to_have_count(0)

        game = first
        for number, starter in ((2, "Ben"), (3, "Anna")):
            a.get_by_role("button", name="Revanche").click()
            taken_to_the_revanche(a, server, game["id"])
            taken_to_the_revanche(b, server, game["id"])
            game = revanche_of(server, game)
            for page in (a, b):
                assert page.url.endswith(f"/g/{game['id']}")
                expect(page.locator(".turn-name")).to_have_text(f"{starter} ist am Zug")
            expect(a.locator("[data-entry]")).to_be_visible()  # the key came along
            expect(b.locator("[data-entry]")).to_have_count(0)  # a watcher stays one
            play(server, game)
            for page in (a, b):
                expect(page.locator("#evening-" + first["id"])).to_have_text(
                    f"Spieleabend: {number} Spiele", timeout=20_000
                )

        tally = a.locator(f"[data-evening='{first['id']}'] tbody tr")
        expect(tally).to_have_count(2)
        expect(tally.nth(0)).to_have_text(re.compile(r"Anna\s*3\s*420\s*140,0"))
        expect(tally.nth(1)).to_have_text(re.compile(r"Ben\s*0\s*255\s*85,0"))
        expect(a.locator(".evening-best")).to_have_text(
            "Bestes Spiel des Abends: Anna mit 140 Punkten (Spiel 1)"
        )
        # The first game, opened again, leads to its Revanche instead of starting another, and
        # stays open: its socket tells of the Revanche (for a device that missed it), but a page
        # drawn after the Revanche shows the link instead of following it.
        with a.expect_websocket() as opened:
            a.goto(f"{server}/g/{first['id']}")
        opened.value.expect_event("framereceived", lambda frame: "revanche" in str(frame))
        expect(a.get_by_role("link", name=re.compile("Zur Revanche"))).to_be_visible()
        expect(a.get_by_role("button", name="Revanche")).to_have_count(0)
        assert a.url == f"{server}/g/{first['id']}"
    finally:
        at_table.close()
        laptop.close()
