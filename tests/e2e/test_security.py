"""The board under its Content-Security-Policy: nothing the page does is blocked (issue 9,
finding 6), and the Tipp still marks what it recommends."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e

#: Runs before any page script (Playwright injects it past the policy) and records violations.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.lineNumber}`);
});
"""


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_a_game_with_tipp_breaks_no_rule_of_the_policy(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    context.add_init_script(WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.get_by_label("Name von Spieler 1").fill("Clara")
    page.get_by_role("radio", name="Virtuelle Würfel").check()
    page.get_by_role("button", name="Spiel beginnen").click()
    page.get_by_role("button", name="Würfeln").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "1")
    page.locator(".tipp-button").click()
    # The Tipp answers at once (its panel, or "wird berechnet" while the solver builds a table).
    expect(page.locator("#tipp .tipp")).to_be_visible(timeout=60_000)
    # The panel names its best choice in data attributes; tafel.js marks it with classes (no
    # style element). A panel as the server sends it, swapped in the way htmx does:
    page.evaluate(
        """() => {
          const place = document.getElementById("tipp");
          place.innerHTML = '<section class="tipp" data-highlight-cell="c0-free.chance" '
            + 'data-highlight-dice="1 3"><button type="button" data-close-tipp '
            + 'aria-label="Tipp schließen">x</button></section>';
          const detail = { target: place, elt: place, requestConfig: { verb: "get" } };
          place.dispatchEvent(new CustomEvent("htmx:afterSwap", { bubbles: true, detail }));
        }"""
    )
    expect(page.locator("#c0-free\\.chance")).to_have_class(re.compile("tipp-best-cell"))
    expect(page.locator(".die-toggle.tipp-keep")).to_have_count(2)
    page.get_by_role("button", name="Tipp schließen").click()
    expect(page.locator(".tipp")).to_have_count(0)
    expect(page.locator(".tipp-best-cell, .tipp-keep")).to_have_count(0)
    page.get_by_role("button", name="Würfeln").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2")
    assert violations(page) == []
    assert errors == []
    context.close()


def test_the_play_link_with_the_key_in_its_fragment_lets_another_device_play(
    browser: Browser, server: str
) -> None:
    first = browser.new_context(viewport=PHONE, locale="de-DE")
    page = first.new_page()
    page.goto(server + "/")
    page.get_by_label("Name von Spieler 1").fill("Anna")
    page.get_by_role("button", name="Spiel beginnen").click()
    play_url = page.locator("#play-url").input_value()
    assert "#key=" in play_url and "?key=" not in play_url
    first.close()

    phone = browser.new_context(viewport=PHONE, locale="de-DE")
    phone.add_init_script(WATCH)
    other = phone.new_page()
    requested: list[str] = []
    other.on("request", lambda request: requested.append(request.url))
    other.goto(play_url)
    # The page trades the key for the cookie, drops the fragment and shows the entry.
    expect(other.locator("#dice-input")).to_be_visible()
    assert "#key=" not in other.url
    assert not [url for url in requested if "key=" in url]
    assert violations(other) == []
    phone.close()
