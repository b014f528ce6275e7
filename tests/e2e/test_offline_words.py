"""What the page says while it draws the sheet itself offline is what the server says (issue 31;
docs/board.md, "Installieren und ohne Netz"): a refusal of the rules in the page reads in the
page's language, not in the engine's English, and the notes under the sheet (the upper bonus,
the rolls of the turn, the line under virtual dice, the undo note) follow the entries kept
offline.

The rules in the page answer codes and numbers (kniffel.offline); the server gives the words
with the page (``data-offline-words``, kniffel.web.present.offline_words; static/tafel/notes.js).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from kniffel.board.turn_view import roll_hint, rolls_note, undo_view
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import Dice, Enter, Game, IllegalMoveError, Roll, get_variant

from .test_board_state import post
from .test_offline import NOTES, _cell, _open_with_rules_kept, _tray

pytestmark = pytest.mark.e2e


def _in(game: dict[str, Any], lang: str) -> dict[str, Any]:
    path, _, fragment = game["url"].partition("#")
    return {**game, "url": f"{path}?lang={lang}#{fragment}"}


def test_refusals_and_notes_drawn_offline_are_the_servers_in_the_pages_language(
    browser: Browser, server: str
) -> None:
    """Croatian, virtual dice, offline (the sheet drawn on the device): after Ana's roll the
    rolls of the turn, the line under the dice and the undo note (a roll stands) are the
    server's; a tap on a cell she may not fill says why in the server's Croatian words, not the
    engine's English; after her entry the bonus note, Ivo's rolls and the undo note follow it,
    and back online the server draws the same notes."""
    body = {"variant": "rauf-runter", "players": ["Ana", "Ivo"], "dice_mode": "virtual"}
    game = post(server + "/api/games", body)
    context, page = _open_with_rules_kept(browser, server, _in(game, "hr"))
    t = Translator("hr", "rauf-runter")
    rules = Game(get_variant("rauf-runter"), ["Ana", "Ivo"])
    try:
        context.set_offline(True)
        page.locator(".roll-button").click()  # rolled on the device
        expect(page.locator(".roll .tray input")).to_have_count(5, timeout=90_000)
        expect(page.locator("form.roll .hint")).to_have_text(roll_hint(t, 1))
        expect(page.locator(".status .turn-rolls")).to_have_text(rolls_note(t, "virtual", 1))
        stands = IllegalMoveError("a roll of virtual dice stands", code="roll_stands")
        expect(page.locator(".undo-note")).to_have_text(refusal_text(stands, t))
        dice = _tray(page)
        rules.push(Roll("Ana", Dice.of(dice)))

        not_due = rules.check(Enter("Ana", rules.cell("down.threes"), points=0))
        assert not_due is not None
        _cell(page, 0, "down.threes").click(force=True)  # a finger taps a locked cell too
        expect(page.locator("#toast")).to_have_text(refusal_text(not_due, t))
        assert refusal_text(not_due, t) == (
            "Polje Dolje, Trojke nije sljedeće; sljedeće je polje Jedinice"
        )

        ones = dice.count(1)
        expect(_cell(page, 0, "down.ones").locator(".preview")).to_have_text(str(ones))
        _cell(page, 0, "down.ones").click()
        expect(_cell(page, 0, "down.ones").locator(".value")).to_have_text(str(ones))
        rules.push(Enter("Ana", rules.cell("down.ones")))
        offline = page.evaluate(NOTES)
        assert offline["bonus"][0][0] == t("noch {n} bis zum Bonus", n=63 - ones)
        assert offline["bonus"][1][0] == t("noch {n} bis zum Bonus", n=63)
        assert (offline["rolls"], offline["hint"]) == (rolls_note(t, "virtual", 0), "")
        assert offline["undo"] == undo_view(rules, t, "virtual").note

        context.set_offline(False)  # the kept roll and entry go; the server draws the board
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "2")
        assert page.evaluate(NOTES) == offline
    finally:
        context.close()
