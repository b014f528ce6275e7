"""What the player holds and typed survives what should not drop it (issue 32 item 4): every
die held is released by a roll, also one that came out the same; an undone entry's dice come
back into the field; the Tipp panel stays open while dice are typed and follows them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .test_board_state import enter, new_game, open_board, phone, post, type_dice, wait_version

pytestmark = pytest.mark.e2e


def test_a_roll_releases_every_die_also_when_the_faces_come_out_the_same(
    browser: Browser, server: str
) -> None:
    game = post(
        server + "/api/games", {"variant": "kniffel", "players": ["Clara"], "dice_mode": "virtual"}
    )
    context = phone(browser)
    page = open_board(context, server, game)
    page.get_by_role("button", name="Würfeln").click()
    wait_version(page, 1)
    rolled = page.locator(".tray input[data-die]").evaluate_all("i => i.map(d => d.value)")
    # All five held: the second roll shows the very same faces.
    for die in page.locator(".die-toggle").all():
        die.click()
    expect(page.locator(".tray input[data-die]:checked")).to_have_count(5)
    page.get_by_role("button", name="Würfeln").click()
    wait_version(page, 2)
    assert page.locator(".tray input[data-die]").evaluate_all("i => i.map(d => d.value)") == rolled
    expect(page.locator(".tray input[data-die]:checked")).to_have_count(0)
    # So a tap holds again.
    page.locator(".die-toggle").first.click()
    expect(page.locator(".tray input[data-die]:checked")).to_have_count(1)
    context.close()


def test_an_undone_entry_gives_its_dice_back_to_the_field(browser: Browser, server: str) -> None:
    game = new_game(server, "kniffel", ["Anna", "Ben"])
    context = phone(browser)
    page = open_board(context, server, game)
    type_dice(page, "66655")
    page.get_by_role("button", name="Sechser, 18 Punkte möglich", exact=True).click()
    wait_version(page, 1)
    expect(page.locator(".turn-name")).to_have_text("Ben ist am Zug")
    expect(page.locator("#dice-input")).to_have_value("")
    page.get_by_role("button", name="↶ Rückgängig").click()
    wait_version(page, 2)
    expect(page.locator(".turn-name")).to_have_text("Anna ist am Zug")
    expect(page.locator("#dice-input")).to_have_value("55666")  # as the record keeps them
    # The dice are there to enter elsewhere: the sheet previews them.
    page.get_by_role("button", name="Full House, 25 Punkte möglich", exact=True).click()
    wait_version(page, 3)
    expect(page.locator(".turn-name")).to_have_text("Ben ist am Zug")
    context.close()


def test_the_tipp_stays_open_and_follows_the_dice_typed(browser: Browser, server: str) -> None:
    game = new_game(server, "kniffel", ["Anna", "Ben"])
    enter(server, game, "Anna", "sixes", "66655")
    context = phone(browser)
    page = open_board(context, server, game)
    type_dice(page, "66655")
    # (the solver may first build a table: as long as test_security.py allows)
    page.get_by_role("button", name="Tipp").click()
    situation = page.locator("#tipp .tipp-situation")
    expect(situation).to_have_text(re.compile(r"Zu den Würfeln 55666 "), timeout=180_000)
    page.keyboard.press("Escape")
    page.keyboard.type("1111")
    expect(page.locator("#tipp .tipp")).to_be_visible()
    page.keyboard.type("1")
    expect(situation).to_have_text(re.compile(r"Zu den Würfeln 11111 "), timeout=180_000)
    expect(page.locator("#tipp .tipp")).to_be_visible()
    context.close()
