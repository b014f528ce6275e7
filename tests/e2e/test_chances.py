"""The Gewinnchancen switch: off by default, remembered per device, updated live."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .test_accessibility import post

pytestmark = pytest.mark.e2e


def outward(interval: list[float]) -> re.Pattern[str]:
    """The tab's "≈ 39–61 %" for an interval of [0.396, 0.604]: its ends rounded outwards."""
    low, high = interval
    return re.compile(rf"^≈ {math.floor(low * 100 + 1e-9)}–{math.ceil(high * 100 - 1e-9)}\s%$")


def test_the_switch_shows_the_chances_and_stays_on(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(server + "/")
    page.get_by_label("Name von Spieler 1").fill("Anna")
    page.get_by_label("Name von Spieler 2").fill("Ben")
    page.get_by_role("button", name="Spiel beginnen").click()
    expect(page.locator(".turn-name")).to_have_text("Anna ist am Zug")

    switch = page.get_by_role("checkbox", name="Gewinnchancen")
    expect(switch).not_to_be_checked()
    expect(page.locator(".player-chance")).to_have_count(0)

    switch.check()
    chances = page.locator(".player-chance")
    # the first answer of a server builds the bot's tables (seconds, once; then cached)
    expect(chances).to_have_count(2, timeout=120_000)
    # simulated at the start: "≈" and the 95 % interval around 50 %
    expect(chances.first).to_have_text(re.compile(r"^≈ [34]\d–[56]\d\s%$"))
    expect(page.locator("#tab-0 .player-chance")).to_have_attribute(
        "aria-label", re.compile(r"^Gewinnchance ≈ [34]\d–[56]\d\s%$")
    )
    # its ends rounded outwards: the range claims no more than the 95 % interval
    game_id = page.locator(".game").get_attribute("data-game")
    figures = page.request.get(f"{server}/api/games/{game_id}/chances").json()
    expect(chances.first).to_have_text(outward(figures["players"][0]["interval"]))

    page.reload()  # remembered on this device
    expect(page.get_by_role("checkbox", name="Gewinnchancen")).to_be_checked()
    expect(page.locator(".player-chance")).to_have_count(2)

    # An entry (here through the API, as another device would make it) updates them live.
    game = page.locator(".game").get_attribute("data-game")
    key = re.search(r"key=([^&]+)", page.locator("#play-url").input_value())
    assert game and key
    answer = page.request.post(
        f"{server}/api/games/{game}/events",
        data={"event": {"type": "enter", "player": "Anna", "cell": "free.kniffel", "points": 50}},
        headers={"X-Kniffel-Key": key.group(1)},
    )
    assert answer.ok, answer.text()
    expect(page.locator(".turn-name")).to_have_text("Ben ist am Zug")
    # Anna's new sheet is simulated afresh: seconds on a busy machine
    expect(page.locator("#tab-0 .player-chance")).not_to_have_attribute(
        "data-win", "0.5", timeout=120_000
    )
    anna = float(page.locator("#tab-0 .player-chance").get_attribute("data-win") or 0)
    assert anna > 0.5  # 50 points ahead (the start page opens Rauf-Runter: a long way to go)

    page.get_by_role("checkbox", name="Gewinnchancen").uncheck()
    expect(page.locator(".player-chance")).to_have_count(0)
    context.close()


def test_the_chances_fill_in_once_the_board_has_worked_them_out(
    browser: Browser, server: str
) -> None:
    """Issue 21: the chances of a new version were worked out inside the request (a simulated
    sheet: up to seconds of CPU that anybody could ask for). Now the first answer says they
    are being worked out (202) and the page asks again until they are there."""
    game = post(server + "/api/games", {"variant": "rauf-runter", "players": ["Ada", "Bo", "Cy"]})
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.add_init_script("localStorage.setItem('kniffel.gewinnchancen', 'an')")
    page = context.new_page()
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/chancen.json" in r.url else None)
    page.goto(f"{server}/g/{game['id']}")  # watching: no key
    expect(page.locator(".player-chance")).to_have_count(3, timeout=240_000)
    expect(page.locator("#tab-2 .player-chance")).to_have_text(re.compile(r"≈|\d+ %"))
    assert answers[0] == 202 and answers[-1] == 200, answers
    context.close()


def test_the_chances_of_a_house_rules_game_build_the_tables_for_the_key_holder(
    browser: Browser, server: str
) -> None:
    """Issue 19 item 5: in a house-rules game (tables not built) the page that holds the key
    showed no Gewinnchancen (403 key_missing from the chances) until a Tipp built the tables."""
    # Without the Chance row: house rules whose tables no other test of the server builds, and
    # half the work of a full sheet's (a table's states double with each row).
    rules = {"chance": False, "kniffel_bonus": 50}
    game = post(
        server + "/api/games", {"variant": "kniffel", "players": ["Anna", "Ben"], "options": rules}
    )
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.add_init_script("localStorage.setItem('kniffel.gewinnchancen', 'an')")
    page = context.new_page()
    page.goto(server + game["url"])  # the play link: this device holds the key
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    expect(page.get_by_role("checkbox", name="Gewinnchancen")).to_be_checked()
    # the tables of these house rules are built first (seconds to a minute), never a Tipp
    expect(page.locator(".player-chance")).to_have_count(2, timeout=240_000)
    expect(page.locator("#tab-0 .player-chance")).to_have_text(re.compile(r"≈|50 %"))
    context.close()


def test_the_end_chart_of_the_chances_fills_in_when_drawn(browser: Browser, server: str) -> None:
    """The end screen's chart of the chances values every position of the game, so the board
    draws it off the request: the page shows a "being drawn" picture first and the chart
    once it is there, without a reload."""
    import random

    from kniffel.board.players.sample import random_record

    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    record = random_record("kniffel", ["Anna", "Ben"], random.Random(2026))
    answer = page.request.post(f"{server}/api/records", data=record)
    assert answer.ok, answer.text()
    game = answer.json()["id"]
    first = page.request.get(f"{server}/g/{game}/chancen.svg")
    assert first.status == 202 and "Das Diagramm wird gezeichnet" in first.text()
    page.goto(f"{server}/g/{game}")
    chart = page.locator("img[data-chances-chart]")
    chart.scroll_into_view_if_needed()
    # a Kniffel game's 26 positions: a minute on a busy machine
    expect(chart).to_have_attribute("data-drawn", "1", timeout=600_000)
    drawn = page.request.get(f"{server}/g/{game}/chancen.svg")
    assert drawn.status == 200 and "data-chart-pending" not in drawn.text()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", chart.element_handle())
    context.close()


def test_the_end_chart_of_a_yams_game_fills_in_a_point_per_round(
    browser: Browser, server: str
) -> None:
    """Issue 32: a finished Yams game with sèche and annoncée (no solver tables) had no chart of
    the chances on its end screen (each position is thousands of bot games); now it has one
    with a point per round, in French."""
    import random

    from kniffel.board.players.sample import random_record

    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    rules = {"hand": True, "announce": True}
    record = random_record("yams", ["Amélie", "Benoît"], random.Random(7), rules)
    answer = page.request.post(f"{server}/api/records", data=record)
    assert answer.ok, answer.text()
    game = answer.json()["id"]
    page.goto(f"{server}/g/{game}?lang=fr")
    chart = page.locator("img[data-chances-chart]")
    expect(chart).to_have_attribute("alt", "Chances de gagner après chaque manche")
    chart.scroll_into_view_if_needed()
    expect(chart).to_have_attribute("data-drawn", "1", timeout=600_000)
    drawn = page.request.get(f"{server}/g/{game}/chancen.svg?lang=fr")
    assert drawn.status == 200 and "data-chart-pending" not in drawn.text()
    assert "Manche" in drawn.text() and "Kniffel" not in drawn.text()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", chart.element_handle())
    context.close()
