"""axe-core on every page a family meets, at phone and desktop size: no serious or critical
violation (issue 8, "Accessible everywhere").

axe-core is vendored in ``tests/e2e/vendor/`` (see its README); it is injected into each
page, so the contexts bypass the board's Content-Security-Policy for that one script.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
ROWS = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
    "full_house", "small_straight", "large_straight", "kniffel", "chance",
]  # fmt: skip


def post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Kniffel-Key"] = key
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def enter(server: str, game: dict[str, Any], player: str, cell: str, dice: str) -> None:
    event = {"type": "enter", "player": player, "cell": cell, "dice": [int(d) for d in dice]}
    post(f"{server}/api/games/{game['id']}/events", {"event": event}, game["key"])


def violations(page: Page, where: str) -> list[str]:
    """The serious and critical axe violations of the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ["violations"] });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => {
              const nodes = v.nodes.slice(0, 4).map((n) => n.target.join(" "));
              return `${v.id} (${v.impact}): ${nodes.join(" | ")}`;
            });
        }"""
    )
    return [f"{where}: {line}" for line in found]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_serious_violation_on_any_page(browser: Browser, server: str, size: str) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    found: list[str] = []

    page.goto(server + "/")
    found += violations(page, "start page")

    # A board mid-game with typed dice (previews), a correction dialog, the Tipp.
    game = post(server + "/api/games", {"variant": "kniffel", "players": ["Anna", "Ben"]})
    enter(server, game, "Anna", "ones", "11123")
    enter(server, game, "Ben", "chance", "65542")
    page.goto(server + game["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    page.locator("#dice-input").focus()
    page.keyboard.type("22245")
    expect(page.locator(".sheet:not(.is-back) .preview").first).to_be_visible()
    found += violations(page, "board with previews")
    page.get_by_role("button", name="Tipp").click()
    expect(page.locator("#tipp .tipp-choices li").first).to_be_visible(timeout=180_000)
    found += violations(page, "Tipp panel")
    page.get_by_role("radio", name="Auf Sieg").check()
    expect(page.locator("#tipp [data-tipp-mode=sieg]")).to_be_visible()
    found += violations(page, "Tipp panel, Auf Sieg")
    page.get_by_role("radio", name="Auf Punkte").check()
    page.get_by_role("tab").filter(has_text="Ben").click()
    page.get_by_role("button", name="Chance, 22 Punkte", exact=True).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    found += violations(page, "correction dialog")
    page.get_by_role("dialog").get_by_role("button", name="Abbrechen").click()

    # Yahtzee with the forced joker: a second Kniffel is explained in the entry panel.
    joker = post(server + "/api/games", {"variant": "yahtzee", "players": ["Clara"]})
    enter(server, joker, "Clara", "kniffel", "55555")
    page.goto(server + joker["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    page.locator("#dice-input").focus()
    page.keyboard.type("33333")
    expect(page.locator(".extra-kniffel")).to_be_visible()
    found += violations(page, "joker")

    # The end screen and the analysis of a finished game.
    events = [
        {"type": "enter", "player": name, "cell": row, "points": 5 if row == "chance" else 0}
        for row in ROWS
        for name in ("Anna", "Ben")
    ]
    record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna", "Ben"]}
    finished = post(server + "/api/records", {**record, "events": events})
    page.goto(server + finished["url"], wait_until="domcontentloaded")
    # The play link's key is traded for the cookie and the page loads once more (docs/board.md):
    # axe runs on that page, once it is live, not on the one being left.
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    expect(page.locator(".end")).to_be_visible()
    found += violations(page, "end screen")
    page.goto(f"{server}/g/{finished['id']}/analyse", wait_until="domcontentloaded")
    # The review is made off the request: the page loads again until it is there.
    expect(page.locator("#review-title")).to_be_visible(timeout=180_000)
    found += violations(page, "analysis")
    context.close()
    assert found == [], "\n".join(found)


def test_the_table_of_every_decision_scrolls_by_keyboard_too(browser: Browser, server: str) -> None:
    """``/g/{id}/analyse/alle`` on a phone: the wide table of decisions scrolls, so it must take
    the focus (axe ``scrollable-region-focusable``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    game = post(server + "/api/games", {"variant": "kniffel", "players": ["Anna", "Ben"]})
    for row, dice in (("ones", "11123"), ("sixes", "66612")):
        enter(server, game, "Anna", row, dice)
        enter(server, game, "Ben", row, dice)
    page.goto(f"{server}/g/{game['id']}/analyse/alle", wait_until="domcontentloaded")
    expect(page.locator(".analyse-decisions tbody tr").first).to_be_visible(timeout=180_000)
    wide = page.locator(".analyse-decisions").evaluate(
        "table => table.parentElement.scrollWidth > table.parentElement.clientWidth"
    )
    assert wide, "the table fits the phone: this test would check nothing"
    found = violations(page, "every decision")
    context.close()
    assert found == [], "\n".join(found)
