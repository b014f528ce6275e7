"""Virtual dice: the board rolls, the player holds dice, three rolls at most, then enters."""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e


def faces(page: Page) -> list[int]:
    return [
        int(v)
        for v in page.locator(".tray input[data-die]").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
    ]


def roll(page: Page, version: int) -> None:
    page.get_by_role("button", name="Würfeln").click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(version))


def test_roll_hold_and_enter(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.goto(server + "/")
    page.get_by_label("Name von Spieler 1").fill("Clara")
    page.get_by_role("radio", name="Virtuelle Würfel").check()
    page.get_by_role("button", name="Spiel beginnen").click()
    expect(page.locator(".turn-rolls")).to_have_text("noch 3 Würfe")
    expect(page.locator("#dice-input")).to_have_count(0)

    roll(page, 1)
    expect(page.locator(".turn-rolls")).to_have_text("Wurf 1 von 3 · noch 2 Würfe")
    first = faces(page)
    assert len(first) == 5 and all(1 <= f <= 6 for f in first)
    # A roll stands: there is nothing the undo button may take back.
    expect(page.get_by_role("button", name="↶ Rückgängig")).to_be_disabled()

    # Hold the first two dice, release the second again, hold the last one.
    toggles = page.locator(".die-toggle")
    toggles.nth(0).click()
    toggles.nth(1).click()
    toggles.nth(1).click()
    toggles.nth(4).click()
    held = [first[0], first[4]]
    expect(page.locator(".tray input[data-die]:checked")).to_have_count(2)
    roll(page, 2)
    second = faces(page)
    assert not Counter(held) - Counter(second), f"held {held}, rolled {second}"
    expect(page.locator(".turn-rolls")).to_have_text("Wurf 2 von 3 · noch 1 Wurf")

    roll(page, 3)
    third = faces(page)
    expect(page.locator(".turn-rolls")).to_have_text("Wurf 3 von 3 · keine Würfe mehr")
    expect(page.get_by_role("button", name="Würfeln")).to_be_disabled()

    # The sheet previews the rolled dice; one tap enters them.
    chance = page.get_by_role("button", name=f"Frei, Chance, {sum(third)} Punkte möglich")
    expect(chance).to_have_text(str(sum(third)))
    chance.click()
    expect(page.locator("#board")).to_have_attribute("data-version", "4")
    expect(page.locator(".player-tab .player-total")).to_have_text(str(sum(third)))
    expect(page.locator(".turn-rolls")).to_have_text("noch 3 Würfe")
    context.close()
