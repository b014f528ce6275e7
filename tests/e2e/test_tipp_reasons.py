"""The Tipp's reasons and its "Auf Sieg" mode in chromium (issue 8: each choice's expected
final total, its cost and the chances of the bonus and of a Kniffel; issue 10 item 5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE
from .test_accessibility import enter, post

pytestmark = pytest.mark.e2e
#: A percentage as the board writes it: the figure and its sign held together by a no-break space.
PERCENT = r"\d+\xa0%"


def _board(browser: Browser, server: str, variant: str, players: list[str]) -> Page:
    game = post(server + "/api/games", {"variant": variant, "players": players})
    if len(players) > 1:
        column = "" if variant == "kniffel" else "down."
        enter(server, game, players[0], f"{column}ones", "11123")
        enter(server, game, players[1], f"{column}ones", "13542")
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(server + game["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    page.locator("#dice-input").focus()
    page.keyboard.type("66612")
    page.get_by_role("button", name="1. Wurf", exact=True).click()  # the first roll: keeps too
    return page


def _open_tipp(page: Page) -> None:
    page.get_by_role("button", name="Tipp").click()
    shown = page.locator("#tipp .tipp-mode:not([hidden]) .tipp-choices li")
    expect(shown.first).to_be_visible(timeout=180_000)


def test_the_tipp_gives_its_reasons_and_plays_for_the_win(browser: Browser, server: str) -> None:
    page = _board(browser, server, "kniffel", ["Anna", "Ben"])
    _open_tipp(page)
    points = page.locator("#tipp [data-tipp-mode=punkte]")
    first, second = points.locator("li").nth(0), points.locator("li").nth(1)
    expect(first).to_contain_text("Behalten: 6 6 6")
    expect(first).to_contain_text("beste Wahl")
    expect(second).to_contain_text(re.compile(r"\(−\d+,\d\)"))
    # Each choice: the bonus and the Kniffel chance before → after, exact in Kniffel.
    expect(first.locator("[data-reasons]")).to_contain_text(
        re.compile(rf"Bonus {PERCENT} → {PERCENT}")
    )
    expect(first.locator("[data-reasons]")).to_contain_text(
        re.compile(rf"Kniffel {PERCENT} → {PERCENT}")
    )
    expect(points).to_contain_text("Chancen exakt berechnet")
    expect(page.locator("#tipp [data-chances-now]")).to_contain_text(re.compile(r"Jetzt: Bonus"))
    # A screen reader hears one sentence per choice.
    expect(second.locator(".sr-only")).to_have_text(
        re.compile(
            r"^Behalten: [\d ]+: erwartete Endsumme [\d.,]+, kostet [\d,]+ Punkte; "
            rf"Chance auf den Bonus von {PERCENT} auf {PERCENT}; "
            rf"Chance auf einen Kniffel von {PERCENT} auf"
        )
    )
    # "Auf Sieg", by keyboard: the arrow key moves from "Auf Punkte" to "Auf Sieg".
    page.get_by_role("radio", name="Auf Punkte").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="Auf Sieg")).to_be_checked()
    wins = page.locator("#tipp [data-tipp-mode=sieg]")
    expect(wins).to_be_visible()
    expect(points).to_be_hidden()
    expect(wins.locator("li").first).to_contain_text(re.compile(rf"Gewinnchance {PERCENT}"))
    expect(wins.locator("li").nth(1)).to_contain_text(re.compile(rf"Gewinnchance {PERCENT}"))
    expect(wins.locator("li .sr-only").first).to_have_text(re.compile(rf"Gewinnchance {PERCENT}, "))
    # The choice is remembered on this device: a new Tipp opens "Auf Sieg".
    page.reload()
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    page.locator("#dice-input").fill("")
    page.locator("#dice-input").focus()
    page.keyboard.type("66612")
    page.get_by_role("button", name="1. Wurf", exact=True).click()
    _open_tipp(page)
    expect(page.get_by_role("radio", name="Auf Sieg")).to_be_checked()
    expect(page.locator("#tipp [data-tipp-mode=sieg]")).to_be_visible()
    page.get_by_role("radio", name="Auf Punkte").check()
    expect(page.locator("#tipp [data-tipp-mode=punkte]")).to_be_visible()
    page.context.close()


def test_alone_there_is_no_auf_sieg(browser: Browser, server: str) -> None:
    page = _board(browser, server, "kniffel", ["Clara"])
    _open_tipp(page)
    expect(page.locator("#tipp [data-reasons]").first).to_be_visible()
    expect(page.get_by_role("radio", name="Auf Sieg")).to_have_count(0)
    page.context.close()


def test_rauf_runter_chances_follow_from_the_simulation(browser: Browser, server: str) -> None:
    """Simulated: the panel comes at once, the chances per column follow."""
    page = _board(browser, server, "rauf-runter", ["Anna", "Ben"])
    _open_tipp(page)
    reasons = page.locator("#tipp [data-tipp-mode=punkte] li").first.locator("[data-reasons]")
    # The simulation's work early in the game takes a minute or more on a busy machine.
    expect(reasons).to_contain_text(
        re.compile(rf"Bonus Runter {PERCENT} → {PERCENT}"), timeout=400_000
    )
    expect(reasons).to_contain_text(re.compile(r"Bonus Frei"))
    expect(page.locator("#tipp")).to_contain_text(re.compile(r"der Rest aus \d+ Spielen"))
    page.context.close()


def test_the_first_answer_shows_with_its_interval_then_the_final_figures(
    browser: Browser, full_work_server: str
) -> None:
    """Rauf-Runter early, at the full bound of work: within a moment the panel shows a first
    answer (its open figures marked ≈, how sure it is, "genauer berechnet … %"); without a
    tap the final figures take its place."""
    page = _board(browser, full_work_server, "rauf-runter", ["Anna", "Ben"])
    _open_tipp(page)
    tipp = page.locator("#tipp")
    best = page.locator("#tipp [data-tipp-mode=punkte] li").first
    reasons = best.locator("[data-reasons]")
    first = re.compile(rf"Bonus Runter ≈ {PERCENT} → ≈ {PERCENT}")
    expect(reasons).to_contain_text(first, timeout=120_000)
    expect(tipp).to_contain_text(re.compile(r"Erste Schätzung: .* auf ±[\d,]+ Prozentpunkte"))
    expect(tipp.locator("[data-reasons-waiting]")).to_contain_text("genauer berechnet")
    expect(best.locator(".sr-only")).to_contain_text(re.compile(rf"in Runter von ≈ {PERCENT}"))
    # The final figures follow by themselves (a minute or more on a busy machine).
    expect(reasons).to_contain_text(
        re.compile(rf"Bonus Runter {PERCENT} → {PERCENT}"), timeout=600_000
    )
    expect(tipp).not_to_contain_text("≈")
    expect(tipp).not_to_contain_text("Erste Schätzung")
    expect(tipp).to_contain_text(re.compile(r"Chancen geschätzt: .* der Rest aus \d+ Spielen"))
    expect(tipp.locator("[data-reasons-waiting]")).to_have_count(0)
    page.context.close()
