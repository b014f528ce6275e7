"""The Tipp of a house-rules game whose table is not built fills in once the table is ready
(issue 19 item 4: it stayed at "wird berechnet … 0 %", one request answered 202 and none after),
at once when the live socket says the table is built (issue 35): with the page's timers
stopped, so that its own looks every half second cannot bring it, the panel still fills in.

The board gets a cache directory of its own, so that no other test has built these rules'
table; the family's device holds the key, so its first Tipp starts the build.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE, running_board
from .jamb_pages import OTHER_ENGINE
from .test_accessibility import post
from .test_webkit import open_board, type_dice
from .webdriver import Driver

pytestmark = pytest.mark.e2e

#: The column table of these rules takes seconds to build, a minute or more on a busy machine.
BUILD_WAIT = 300_000


def test_the_tipp_fills_in_once_the_house_rules_table_is_built(
    browser: Browser, tmp_path: Path
) -> None:
    command = [sys.executable, "-m", "kniffel", "serve", "--port", "{port}"]
    env = {"KNIFFEL_CACHE_DIR": str(tmp_path / "cache"), "KNIFFEL_PREBUILD_TABLES": "0"}
    with running_board(tmp_path, command, env) as server:
        rules = {"chance": False, "kniffel_bonus": 50}
        game = post(
            server + "/api/games", {"variant": "kniffel", "players": ["Anna"], "options": rules}
        )
        page = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
        page.clock.install()  # the page's timers, stopped below
        page.goto(server + game["url"])
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        page.locator("#dice-input").focus()
        page.keyboard.type("66612")
        page.get_by_role("button", name="1. Wurf", exact=True).click()
        page.get_by_role("button", name="Tipp").click()
        expect(page.locator("#tipp")).to_contain_text("Der Tipp wird berechnet")
        # No timer fires from here on: only the socket's news can make the panel ask again.
        page.clock.pause_at(page.evaluate("Date.now()"))
        # Without a reload or a second tap: the panel asks again once the table is there.
        choices = page.locator("#tipp .tipp-choices li")
        expect(choices.first).to_contain_text("beste Wahl", timeout=BUILD_WAIT)
        expect(page.locator("#tipp")).not_to_contain_text("wird berechnet")
        expect(page.locator("#tipp [data-expected]")).to_have_text(re.compile(r"^\d+,\d$"))
        page.context.close()


#: Stops every timer of the page and every one it would set (WebDriver has no clock of its
#: own): from then on only the live socket's news can make the panel ask again.
_NO_TIMERS = """
    for (let id = 1; id < 100000; id++) clearTimeout(id);
    window.setTimeout = () => 0;
"""


@pytest.mark.webkit
@OTHER_ENGINE  # CI runs the chromium test above: docs/contributing.md
def test_the_tipp_fills_in_once_the_table_is_built_in_webkit(
    webkit: Driver, tmp_path: Path
) -> None:
    """The same in WebKit (iPhones' engine): the panel asks again when the socket says so."""
    command = [sys.executable, "-m", "kniffel", "serve", "--port", "{port}"]
    env = {"KNIFFEL_CACHE_DIR": str(tmp_path / "cache"), "KNIFFEL_PREBUILD_TABLES": "0"}
    with running_board(tmp_path, command, env) as server, webkit.session() as iphone:
        iphone.resize(PHONE["width"], PHONE["height"])
        rules = {"chance": False, "kniffel_bonus": 45}
        game = post(
            server + "/api/games", {"variant": "kniffel", "players": ["Anna"], "options": rules}
        )
        open_board(iphone, server + game["url"])
        type_dice(iphone, "66612")
        iphone.find(".tipp-button").click()
        iphone.wait(
            "return document.querySelector('#tipp').textContent"
            ".includes('Der Tipp wird berechnet')",
            what="the panel that says the table is being built",
        )
        iphone.run(_NO_TIMERS)
        iphone.wait(
            "const best = document.querySelector('#tipp .tipp-choices li');"
            " return !!best && best.textContent.includes('beste Wahl')",
            seconds=BUILD_WAIT / 1000,
            what="the Tipp once the table is built",
        )
