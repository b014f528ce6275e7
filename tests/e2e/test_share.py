"""Joining from a phone at the table (issue 8): the share dialog's links and QR codes, in chromium.

The board listening on every address is simulated: its process binds 127.0.0.1 only, its
settings say ``0.0.0.0``, and its interface discovery answers a documentation address
(192.0.2.7, RFC 5737), so the browser and the test connect to loopback alone.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from kniffel.web.present.qr import qr_svg

from .conftest import PHONE, running_board
from .test_accessibility import violations
from .test_board_state import new_game

pytestmark = pytest.mark.e2e

NETWORK_ADDRESS = "192.0.2.7"

#: The board's process with its discovery answering :data:`NETWORK_ADDRESS`.
_LAUNCH = f"""
import sys
import uvicorn
from kniffel.web.present import addresses
addresses.network_addresses = lambda: [{NETWORK_ADDRESS!r}]
from kniffel.web.app import create_app
uvicorn.run(create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


@pytest.fixture(scope="module")
def everywhere(tmp_path_factory: pytest.TempPathFactory, preset_tables: None) -> Iterator[str]:
    """A board whose settings say it listens on every address (``KNIFFEL_HOST=0.0.0.0``)."""
    folder = tmp_path_factory.mktemp("share")
    command = [sys.executable, "-c", _LAUNCH, "{port}"]
    with running_board(folder, command, {"KNIFFEL_HOST": "0.0.0.0"}) as url:
        yield url


def _qr_modules(url: str) -> str:
    """The drawn modules of ``url``'s QR code as the board's qr module encodes them."""
    found = re.search(r'<path stroke="[^"]*" d="([^"]+)"', qr_svg(url, "QR"))
    assert found
    return found.group(1)


def _open_share(browser: Browser, server: str, game: dict[str, Any], lang: str) -> Page:
    # Past the board's Content-Security-Policy for axe-core's script alone (test_accessibility.py).
    context = browser.new_context(viewport=PHONE, locale=lang, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.goto(server + game["url"])  # the creator's link: this device may enter
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    page.locator(".share summary").tap()
    expect(page.locator("#play-url")).to_be_visible()
    return page


def test_a_page_opened_through_loopback_shares_the_network_address(
    browser: Browser, everywhere: str
) -> None:
    game = new_game(everywhere, "kniffel", ["Anna", "Ben"])
    page = _open_share(browser, everywhere, game, "de-DE")
    port = everywhere.rsplit(":", 1)[1]
    play = page.locator("#play-url").input_value()
    watch = page.locator("#watch-url").input_value()
    assert play == f"http://{NETWORK_ADDRESS}:{port}/g/{game['id']}#key={game['key']}"
    assert watch == f"http://{NETWORK_ADDRESS}:{port}/g/{game['id']}"
    codes = page.locator(".share .qr-box svg path[stroke]")
    assert codes.nth(0).get_attribute("d") == _qr_modules(play)
    assert codes.nth(1).get_attribute("d") == _qr_modules(watch)
    note = page.locator("[data-share-reach]")
    expect(note).to_have_text(
        "Handys im selben Netz (WLAN) erreichen die Tafel unter dieser Adresse des Computers."
    )
    expect(note).to_be_in_viewport()
    assert page.url.startswith("http://127.0.0.1:")  # the page itself stayed on loopback
    assert violations(page, "share dialog") == []
    page.context.close()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de-DE", "Handys können so nicht beitreten: Die Tafel hört nur auf 127.0.0.1"),
        ("en-GB", "Phones cannot join like this: the board listens on 127.0.0.1 only"),
    ],
)
def test_a_board_on_loopback_only_says_plainly_that_phones_cannot_join(
    browser: Browser, server: str, lang: str, words: str
) -> None:
    game = new_game(server, "kniffel", ["Anna", "Ben"])
    page = _open_share(browser, server, game, lang)
    play = page.locator("#play-url").input_value()
    assert play == f"{server}/g/{game['id']}#key={game['key']}"
    code = page.locator(".share .qr-box svg path[stroke]").first
    assert code.get_attribute("d") == _qr_modules(play)
    note = page.locator("[data-share-reach=loopback_only]")
    expect(note).to_contain_text(words)
    expect(note.locator("code")).to_have_text("kniffel serve --host 0.0.0.0")
    expect(note).to_be_in_viewport()
    assert violations(page, "share dialog") == []
    page.context.close()
