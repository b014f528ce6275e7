"""The game review and a player page on a phone: readable without sideways scrolling.

With ``KNIFFEL_SCREENSHOTS=1`` (``uv run python benchmarks/screenshots.py``) it also writes their
screenshots for the README (``docs/screenshots/review-phone.png``, ``player-phone.png``); a plain
test run never rewrites tracked files.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from kniffel.board.players.sample import random_record

from .conftest import PHONE
from .test_screenshots import SHOTS, png_size, post

pytestmark = pytest.mark.e2e

SCREENSHOTS = os.environ.get("KNIFFEL_SCREENSHOTS") == "1"
#: The review waits for the preset's solver table, built in the background at the server's start:
#: generous on a busy machine.
TABLE_WAIT = 180_000


def _shoot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=SHOTS / name)


def _fits(page: Page) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def _chart_loaded(page: Page, name: str) -> None:
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0",
        arg=page.get_by_role("img", name=name).first.element_handle(),
    )


def test_the_review_and_a_player_page_fit_a_phone(browser: Browser, server: str) -> None:
    if SCREENSHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
    games = [
        post(server + "/api/records", random_record("kniffel", ["Hanne", "Jost"], random.Random(s)))
        for s in range(3)
    ]
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="de-DE")
    page = phone.new_page()
    page.goto(f"{server}/g/{games[0]['id']}/analyse")
    heading = page.get_by_role("heading", name="Spielbericht: Kniffel")
    expect(heading).to_be_visible(timeout=TABLE_WAIT)
    expect(page.locator(".review-costliest li").first).to_be_visible()
    _chart_loaded(page, "Erwartete Endsumme nach jeder Entscheidung")
    _fits(page)
    _shoot(page, "review-phone.png")
    page.get_by_role("link", name="Alle Entscheidungen als Tabelle").click()
    expect(page.locator("table.analyse-decisions")).to_be_visible()

    page.goto(f"{server}/spieler/hanne")  # a name no other test plays under
    expect(page.get_by_role("heading", name="Spieler: Hanne")).to_be_visible()
    expect(page.locator("[data-yardstick]")).to_contain_text("Der starke Bot: 246,1 im Schnitt")
    _chart_loaded(page, "Punkteverteilung: Kniffel")
    _fits(page)
    _shoot(page, "player-phone.png")
    page.goto(server + "/")
    expect(page.get_by_role("heading", name="Bestenliste")).to_be_visible()
    _fits(page)
    phone.close()
    if SCREENSHOTS:
        for shot in ("review-phone.png", "player-phone.png"):
            assert png_size(Path(SHOTS / shot)) == (2 * PHONE["width"], 2 * PHONE["height"])


def test_one_entry_of_points_only_is_counted_in_the_singular(browser: Browser, server: str) -> None:
    """The review counts what it could not rate by the language's plural rule: "1 Eintrag",
    not "1 Einträge" (issue 22: plurals by ngettext)."""
    events = [
        {"type": "roll", "player": "Ida", "dice": [6, 6, 6, 6, 6]},
        {"type": "enter", "player": "Ida", "cell": "chance"},
        {"type": "enter", "player": "Ole", "cell": "fours", "points": 12},  # not rated
    ]
    record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Ida", "Ole"]}
    game = post(server + "/api/records", {**record, "events": events})
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(f"{server}/g/{game['id']}/analyse")
    expect(page.get_by_role("heading", name="Spielbericht: Kniffel")).to_be_visible(
        timeout=TABLE_WAIT
    )
    expect(page.locator("[data-not-rated]")).to_have_text(
        "nicht bewertet: 1 Eintrag nur mit Punkten"
    )
    page.goto(f"{server}/g/{game['id']}/analyse?lang=en")
    expect(page.locator("[data-not-rated]")).to_have_text("not rated: 1 entry of points only")
    context.close()
