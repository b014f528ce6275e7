"""Jamb and Yams on the board, in the browser: the start page offers them with their own house
rules, and a Jamb game is played with its announce and first-roll columns (docs/board.md,
"Jamb und Yams")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, expect

from .conftest import PHONE
from .jamb_pages import (
    CHANGE_MS,
    announce,
    cell,
    enter,
    game_id,
    refused,
    roll,
    settled,
    start_game,
    version,
)

pytestmark = pytest.mark.e2e


def test_the_start_page_shows_jambs_house_rules_when_jamb_is_chosen(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/?lang=hr")
    page.locator("details.house-rules summary").click()
    chance = page.locator('input[name="chance"]')
    triling = page.locator('input[name="trips_bonus"]')
    expect(chance).to_be_visible()
    expect(triling).to_be_hidden()
    page.locator('input[name="variant"][value="jamb"]').check()
    # Jamb has no Chance and no joker: its own rules show instead.
    expect(triling).to_be_visible()
    expect(chance).to_be_hidden()
    expect(page.locator('input[name="announce"]')).to_be_hidden()  # Jamb's Najava is always there
    triling.check()
    page.locator('input[name="hand"]').check()
    page.locator("#player-1").fill("Ana")
    page.locator("#player-2").fill("Ivo")
    page.locator('form.new-game button[type="submit"]').click()
    expect(page.locator("#board")).to_be_visible()
    state = page.request.get(f"{server}/api/games/{game_id(page)}").json()
    assert state["options"]["trips_bonus"] == 20 and state["options"]["hand"] is True
    assert [c["id"] for c in state["columns"]] == ["down", "free", "up", "announce", "hand"]
    # Back on the start page, Yams shows its columns and the Kniffel rules again.
    page.goto(f"{server}/?lang=hr")
    page.locator("details.house-rules summary").click()
    page.locator('input[name="variant"][value="yams"]').check()
    expect(page.locator('input[name="announce"]')).to_be_visible()
    expect(page.locator('input[name="middle"]')).to_be_hidden()
    expect(page.locator('input[name="chance"]')).to_be_visible()
    context.close()


#: Jamb's rows 1-6 in Croatian, by face (kniffel.locales.family_words).
HR_FACES = {1: "Jedinice", 2: "Dvojke", 3: "Trojke", 4: "Četvorke", 5: "Petice", 6: "Šestice"}
UPPER_IDS = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}


def _most(faces: list[int]) -> tuple[int, int]:
    """The face that fell most often (the higher on a tie) and how often."""
    face = max(set(faces), key=lambda f: (faces.count(f), f))
    return face, faces.count(face)


def test_a_jamb_game_in_croatian_with_an_announcement_and_the_hand_column(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    game = start_game(
        page,
        server,
        lang="hr",
        variant="jamb",
        players=("Ana", "Ivo"),
        dice_mode="virtual",
        house_rules=("hand",),
    )
    game_url = f"{server}/g/{game}"
    # Ivo's phone watches (no key): it sees what is announced, live.
    watcher_context = browser.new_context(viewport=PHONE, locale="hr")
    watcher = watcher_context.new_page()
    watcher.goto(f"{game_url}?lang=hr")
    expect(watcher.locator("#sheet-0 .col-head")).to_have_text(
        ["↓ Dolje", "S Slobodna", "↑ Gore", "N Najava", "R Ručna"]
    )

    # Ana announces after her first roll, then makes the announced row impossible: holding
    # two different faces leaves no Jamb (or two equal ones, no Kenta): a missed
    # announcement scores 0.
    first = roll(page)
    expect(page.locator(".announce-btn")).to_have_count(13)
    row, name = ("straight", "Kenta") if len(set(first)) == 1 else ("jamb", "Jamb")

    def spoiler(faces: list[int]) -> list[int]:
        """Two dice that spoil the row: two faces unlike (no Jamb) or alike (no Kenta)."""
        pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
        alike = row == "straight"
        return list(next(p for p in pairs if (faces[p[0]] == faces[p[1]]) == alike))

    announce(page, f"Najavi: {name}")
    expect(page.locator(".announce-btn")).to_have_count(0)
    marked = watcher.locator(f'#sheet-0 td.announced [id="c0-announce.{row}"]')
    expect(marked).to_have_count(1, timeout=20_000)
    expect(marked).to_have_attribute("aria-label", re.compile(f"Najava, {name}, najavljeno"))
    # Announced, the turn's entry goes there and nowhere else.
    expect(cell(page, 0, "free.sixes")).to_have_attribute("aria-disabled", "true")
    second = roll(page, spoiler(first))
    roll(page, spoiler(second))
    expect(cell(page, 0, f"announce.{row}")).to_have_accessible_name(re.compile("moguće 0 bodova"))
    enter(page, 0, f"announce.{row}")
    expect(cell(page, 0, f"announce.{row}")).to_have_text("0")

    # Ivo announces his most frequent face, keeps it, and scores it on the third roll.
    first = roll(page)
    face, _count = _most(first)
    announce(page, f"Najavi: {HR_FACES[face]}")
    expect(
        watcher.locator(f'#sheet-1 td.announced [id="c1-announce.{UPPER_IDS[face]}"]')
    ).to_have_count(1, timeout=20_000)
    second = roll(page, [i for i, f in enumerate(first) if f == face])
    third = roll(page, [i for i, f in enumerate(second) if f == face])
    ivo_announced = face * third.count(face)
    enter(page, 1, f"announce.{UPPER_IDS[face]}")

    # Ana enters her first roll into the hand column (Ručna).
    first = roll(page)
    ana_face, ana_count = _most(first)
    enter(page, 0, f"hand.{UPPER_IDS[ana_face]}")
    ana_hand = ana_face * ana_count

    # Ivo rolls twice: the hand column refuses the second roll, and says why.
    roll(page)
    second = roll(page)
    # Named in full: a pattern's \w (JavaScript's, ASCII) missed Četvorke and Šestice.
    late_face = HR_FACES[_most(second)[0]]
    refused(
        page,
        1,
        f"hand.{UPPER_IDS[_most(second)[0]]}",
        re.compile(f"^Polje Ručna, {late_face} prima samo prvo bacanje, ne bacanje 2"),
    )
    ivo_face, ivo_count = _most(second)
    enter(page, 1, f"free.{UPPER_IDS[ivo_face]}")
    ivo_free = ivo_face * ivo_count

    # The reckoning: a row 1-6 counts face × dice into Σ1; no column has its three Σ2 rows,
    # and Σ1 stays under 60, so no bonus.
    ana_total = 0 + ana_hand
    ivo_total = ivo_announced + ivo_free
    for seat, total in ((0, ana_total), (1, ivo_total)):
        expect(page.locator(f"#sheet-{seat} tr.grand td")).to_have_text(str(total))
        expect(watcher.locator(f"#sheet-{seat} tr.grand td")).to_have_text(
            str(total), timeout=20_000
        )
    expect(page.locator("#sheet-0 tr.sum1 td")).to_have_text(["0", "0", "0", "0", str(ana_hand)])
    state = page.request.get(f"{server}/api/games/{game_url.rsplit('/', 1)[1]}").json()
    assert [p["total"] for p in state["players"]] == [ana_total, ivo_total]
    watcher_context.close()
    context.close()


def test_a_tap_right_after_an_entry_is_not_lost_to_a_late_preview(
    browser: Browser, server: str
) -> None:
    """Ana types her dice and enters them at once: the preview of her dice is still on its way
    when the entry's answer shows Ivo's turn. Ivo already sits on "Najavi: Jedinice" when
    that late preview comes; the board it brings is the one on the page, so it is not drawn
    again, and his Enter announces (a CI run lost it: the button was swapped under the key)."""
    context = browser.new_context(
        viewport=PHONE, locale="hr", has_touch=True, service_workers="block"
    )
    page = context.new_page()
    start_game(page, server, lang="hr", variant="jamb", players=("Ana", "Ivo"))
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/board\?"), hold)
    page.locator("[data-dice-input]").focus()
    with page.expect_request(re.compile(r"/board\?"), timeout=CHANGE_MS):
        page.keyboard.type("11111")
    enter(page, 0, "down.ones")  # the entry's own answer draws Ivo's turn
    expect(page.locator("#board")).to_have_attribute("data-player", "Ivo")
    holding[0] = False
    page.evaluate(
        """() => { window.lateAnswer = false;
        document.addEventListener("htmx:afterRequest", () => { window.lateAnswer = true; }); }"""
    )
    najavi = page.get_by_role("button", name="Najavi: Jedinice", exact=True)
    najavi.focus()
    for route in held:
        route.continue_()
    page.wait_for_function("() => window.lateAnswer", timeout=CHANGE_MS)
    expect(najavi).to_be_focused()
    before = version(page)
    page.keyboard.press("Enter")
    settled(page, before + 1)
    expect(page.locator("#sheet-1 td.announced .cell-btn")).to_have_id("c1-announce.ones")
    context.close()


def test_a_kenta_typed_without_its_roll_is_not_scored_by_an_assumed_one(
    browser: Browser, server: str
) -> None:
    """In Jamb the roll decides a Kenta's score (66, 56, 46): the board assumes no roll. A
    Kenta entered without a tap on its roll is refused in words and nothing is entered; once
    the player says "1", the cell shows 66 and takes it (issue 32 item 3: it scored 46,
    silently)."""
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    start_game(page, server, lang="hr", variant="jamb", players=("Ana", "Ivo"))
    # The buttons say what they decide (not "for the hint", as in Kniffel).
    expect(
        page.get_by_role("group", name="Koje je ovo bacanje? (važno za bodove i polja)")
    ).to_be_visible()
    expect(page.locator(".rolls-pick [data-rolls]")).to_have_count(3)
    expect(page.locator(".rolls-pick [aria-pressed=true]")).to_have_count(0)
    page.locator("[data-dice-input]").focus()
    page.keyboard.type("23456")
    expect(page.locator("#board")).to_have_attribute("data-dice", "23456", timeout=CHANGE_MS)
    kenta = cell(page, 0, "free.straight")
    before = version(page)
    kenta.click(force=True)  # a finger taps what it sees, enabled or not
    expect(page.locator("#toast")).to_contain_text("važno je koje je to bacanje bilo")
    assert version(page) == before
    expect(kenta).to_have_text("")
    page.locator('[data-rolls="1"]').click()
    expect(page.locator("#board")).to_have_attribute("data-roll", "1", timeout=CHANGE_MS)
    enter(page, 0, "free.straight", 66)
    context.close()
