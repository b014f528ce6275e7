"""The sheet a phone draws itself offline names its cells as the server does (issue 31; docs/
board.md, "Installieren und ohne Netz"): a screen reader hears "Dolje, Jedinice, 3 boda" for a
cell entered offline, not the name the cell had before ("…, Pflichtfeld, moguća 3 boda").

The page words the cells with the words the server gives it (``data-cell-words``,
kniffel.board.sheet_view.offline_cell_words) and the state the rules in the page give
(static/tafel/paint.js); here every cell's name offline is compared with the server's for the
same game and the same dice, in Croatian (three plural forms), and so are the sheets' captions.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_board_state import new_game
from .test_offline import _cell, _enter_offline, _open_with_rules_kept

pytestmark = pytest.mark.e2e

NAMES = "Object.fromEntries(Array.from(document.querySelectorAll('.cell-btn'), (b) =>"
NAMES += " [b.id, b.getAttribute('aria-label')]))"
CAPTIONS = "Array.from(document.querySelectorAll('.caption-total'), (c) => c.textContent)"


def _type(page: Page, dice: str) -> None:
    page.locator("#dice-input").fill("")
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)


def test_cells_drawn_offline_have_the_names_the_server_gives_them(
    browser: Browser, server: str
) -> None:
    game = new_game(server, "rauf-runter", ["Ana", "Ivo"])
    path, _, fragment = game["url"].partition("#")
    context, page = _open_with_rules_kept(
        browser, server, {**game, "url": f"{path}?lang=hr#{fragment}"}
    )
    try:
        context.set_offline(True)
        _enter_offline(page, 0, "down.ones", "11123", "3")
        _enter_offline(page, 1, "up.chance", "66655", "28")
        _type(page, "22245")  # Ana's preview, drawn on the device
        expect(_cell(page, 0, "down.twos").locator(".preview")).to_have_text("6", timeout=90_000)
        offline = page.evaluate(NAMES)
        assert offline["c0-down.ones"] == "Dolje, Jedinice, 3 boda"
        assert offline["c1-up.chance"] == "Gore, Šansa, 28 bodova"
        # The sheets' captions count the points entered offline too (they kept "Ana: 0 bodova").
        captions = page.evaluate(CAPTIONS)
        assert sorted(captions) == ["Ana: 3 boda", "Ivo: 28 bodova"]

        context.set_offline(False)  # the kept entries go; the server draws the board again
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "2")
        expect(_cell(page, 0, "down.twos").locator(".preview")).to_have_text("6")
        assert page.evaluate(NAMES) == offline
        assert page.evaluate(CAPTIONS) == captions
    finally:
        context.close()
