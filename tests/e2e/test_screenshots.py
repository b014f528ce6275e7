"""Screenshots of the board for the README, at phone and desktop size.

The game is set up through the JSON API (the same service the pages use),
then shown in the browser with typed dice, so the pictures show the due
cells, the locked cells and the previews.

Opt-in: the test runs only with ``KNIFFEL_SCREENSHOTS=1`` and only then writes
``docs/screenshots/`` (``KNIFFEL_SCREENSHOTS=1 uv run pytest tests/e2e/test_screenshots.py``);
the default test run never rewrites tracked files.
"""

from __future__ import annotations

import json
import os
import struct
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE
from .test_phone_geometry import HIDDEN_DUE

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        os.environ.get("KNIFFEL_SCREENSHOTS") != "1",
        reason="writes docs/screenshots/: opt in with KNIFFEL_SCREENSHOTS=1",
    ),
]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

#: A few turns of a Rauf-Runter-Kniffel evening for three: (player, cell, dice).
TURNS = [
    ("Anna", "down.ones", "11146"),
    ("Ben", "up.chance", "65542"),
    ("Çağla", "free.sixes", "66631"),
    ("Anna", "free.sixes", "66662"),
    ("Ben", "down.ones", "11356"),
    ("Çağla", "down.ones", "11145"),
    ("Anna", "down.twos", "22235"),
    ("Ben", "free.full_house", "33355"),
    ("Çağla", "up.chance", "65443"),
    ("Anna", "up.chance", "65443"),
    ("Ben", "up.kniffel", "44444"),
    ("Çağla", "free.small_straight", "12346"),
]
FINISHED = {
    "format": "kniffel-record/1",
    "variant": "kniffel",
    "players": ["Anna", "Ben", "Clara"],
    "events": [
        {"type": "enter", "player": player, "cell": row, "points": points}
        for row, scores in [
            ("ones", (3, 2, 4)),
            ("twos", (6, 8, 4)),
            ("threes", (9, 12, 6)),
            ("fours", (12, 8, 16)),
            ("fives", (15, 20, 10)),
            ("sixes", (24, 18, 12)),
            ("three_kind", (22, 17, 25)),
            ("four_kind", (0, 24, 13)),
            ("full_house", (25, 25, 0)),
            ("small_straight", (30, 30, 30)),
            ("large_straight", (40, 0, 40)),
            ("kniffel", (50, 0, 0)),
            ("chance", (23, 21, 26)),
        ]
        for player, points in zip(("Anna", "Ben", "Clara"), scores, strict=True)
    ],
}


def post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Kniffel-Key"] = key
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def show_typed_dice(page: Page, dice: str) -> None:
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)
    expect(page.locator(".sheet.to-move .cell.open .preview").first).to_be_visible()
    page.locator("#dice-input").blur()


def test_screenshots_of_the_board(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = ["Anna", "Ben", "Çağla"]
    game = post(server + "/api/games", {"variant": "rauf-runter", "players": players})
    for player, cell, dice in TURNS:
        event = {"type": "enter", "player": player, "cell": cell, "dice": [int(d) for d in dice]}
        post(f"{server}/api/games/{game['id']}/events", {"event": event}, game["key"])
    play_link = server + game["url"]

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="de-DE")
    page = phone.new_page()
    page.goto(play_link)
    show_typed_dice(page, "44456")
    # Every name and total in view, and no due cell under anything (docs/board.md, "The phone
    # layout"): the picture shows what a phone at the table shows.
    with urllib.request.urlopen(f"{server}/api/games/{game['id']}", timeout=10) as response:
        totals = [str(seat["total"]) for seat in json.load(response)["players"]]
    for seat, player in enumerate(players):
        tab = page.locator(f"#tab-{seat}")
        expect(tab).to_be_in_viewport(ratio=1)
        expect(tab.locator(".player-name")).to_have_text(player)
        expect(tab.locator(".player-total")).to_have_text(totals[seat])
        cut = tab.locator(".player-name").evaluate("name => name.scrollWidth > name.clientWidth")
        assert not cut, f"{player}'s name is cut short in the strip"
    assert page.evaluate(HIDDEN_DUE) == []
    page.screenshot(path=SHOTS / "board-phone.png")
    page.goto(server + "/")
    # Only the form: the lists beside it show the dates of this run's games.
    page.locator("section", has=page.locator("#new-game-title")).screenshot(
        path=SHOTS / "new-game-phone.png"
    )

    finished = post(server + "/api/records", FINISHED)
    page.goto(server + finished["url"])
    end = page.locator(".end")
    expect(end).to_contain_text("Anna gewinnt")
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0",
        arg=end.get_by_role("img", name="Punktestand nach jedem Zug").element_handle(),
    )
    end.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "end-phone.png")
    phone.close()

    desktop = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = desktop.new_page()
    page.goto(play_link)
    show_typed_dice(page, "44456")
    page.screenshot(path=SHOTS / "board-desktop.png")
    desktop.close()

    assert png_size(SHOTS / "board-phone.png") == (2 * PHONE["width"], 2 * PHONE["height"])
    assert png_size(SHOTS / "end-phone.png") == (2 * PHONE["width"], 2 * PHONE["height"])
    assert png_size(SHOTS / "board-desktop.png") == (DESKTOP["width"], DESKTOP["height"])
