"""A whole two-player Rauf-Runter-Kniffel game played through the page at phone size.

The dice are physical: every roll is typed on the keyboard (``66655``), the
board previews what each allowed cell would score, and one tap enters. On the
way the players try a locked cell (refused), correct a cell in place, undo a
mistaken entry and use the points shortcut once. At the end the winner is
announced with a chart, and the exported record replays to the same totals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from kniffel.locales import Translator
from kniffel.record import loads, replay
from kniffel.rules import ROWS, Row

from .conftest import PHONE
from .jamb_pages import settled

pytestmark = pytest.mark.e2e

COLUMNS = {"down": "Runter", "up": "Rauf", "free": "Frei"}

#: Each player's roll for every row, and what it scores there (worked out by hand).
ANNA = {
    Row.ONES: ("11123", 3),
    Row.TWOS: ("22245", 6),
    Row.THREES: ("33312", 9),
    Row.FOURS: ("44412", 12),
    Row.FIVES: ("55512", 15),
    Row.SIXES: ("66612", 18),
    Row.THREE_KIND: ("55523", 20),
    Row.FOUR_KIND: ("66662", 26),
    Row.FULL_HOUSE: ("33222", 25),
    Row.SMALL_STRAIGHT: ("12346", 30),
    Row.LARGE_STRAIGHT: ("23456", 40),
    Row.KNIFFEL: ("44444", 50),
    Row.CHANCE: ("66554", 26),
}
BEN = {
    Row.ONES: ("11456", 2),
    Row.TWOS: ("22456", 4),
    Row.THREES: ("33456", 6),
    Row.FOURS: ("44123", 8),
    Row.FIVES: ("55123", 10),
    Row.SIXES: ("66123", 12),
    Row.THREE_KIND: ("33312", 12),
    Row.FOUR_KIND: ("22221", 9),
    Row.FULL_HOUSE: ("66611", 25),
    Row.SMALL_STRAIGHT: ("12345", 30),
    Row.LARGE_STRAIGHT: ("12345", 40),
    Row.KNIFFEL: ("12345", 0),
    Row.CHANCE: ("12345", 15),
}
#: Anna's ↓ Einser is corrected from 3 to 4 on the way.
ANNA_COLUMN = 4 + 6 + 9 + 12 + 15 + 18 + 35 + 20 + 26 + 25 + 30 + 40 + 50 + 26
ANNA_TOTAL = ANNA_COLUMN + (ANNA_COLUMN - 1) * 2
BEN_COLUMN = 2 + 4 + 6 + 8 + 10 + 12 + 12 + 9 + 25 + 30 + 40 + 0 + 15
BEN_TOTAL = BEN_COLUMN * 3


@dataclass(frozen=True)
class Turn:
    column: str
    row: Row


def plan() -> list[Turn]:
    """↓ from the top, then ↑ from the bottom, then the free column from the top."""
    return (
        [Turn("down", row) for row in ROWS]
        + [Turn("up", row) for row in reversed(ROWS)]
        + [Turn("free", row) for row in ROWS]
    )


def points_words(points: int) -> str:
    return "1 Punkt" if points == 1 else f"{points} Punkte"


def open_label(turn: Turn, points: int) -> str:
    due = ", Pflichtfeld" if turn.column != "free" else ""
    row = Translator("de").row(turn.row)
    return f"{COLUMNS[turn.column]}, {row}{due}, {points_words(points)} möglich"


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def wait_version(page: Page, number: int) -> None:
    settled(page, number)  # looked at every 20 ms (tests/e2e/jamb_pages.py)


def type_dice(page: Page, dice: str) -> None:
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)


def play_turn(page: Page, turn: Turn, dice: str, points: int) -> None:
    before = version(page)
    type_dice(page, dice)
    cell = page.get_by_role("button", name=open_label(turn, points), exact=True)
    expect(cell).to_have_text(str(points))
    cell.click()
    wait_version(page, before + 1)


def play_turn_by_keyboard(page: Page, turn: Turn, dice: str, points: int) -> None:
    """Anna's ↓ Zweier without touching the screen: Enter to the cells, arrows, Enter."""
    assert (turn.column, turn.row) == ("down", Row.TWOS)
    before = version(page)
    type_dice(page, dice)
    expect(page.get_by_role("button", name=open_label(turn, points), exact=True)).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#c0-free\\.ones")).to_be_focused()
    for key in ("ArrowDown", "ArrowLeft", "ArrowLeft"):
        page.keyboard.press(key)
    expect(page.locator("#c0-down\\.twos")).to_be_focused()
    page.keyboard.press("Enter")
    wait_version(page, before + 1)


def total_of(page: Page, player: str) -> int:
    tab = page.get_by_role("tab").filter(has_text=player)
    return int(tab.locator(".player-total").inner_text().replace(".", ""))


def test_a_full_rauf_runter_game_typed_at_phone_size(browser: Browser, server: str) -> None:
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", has_touch=True, accept_downloads=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.get_by_label("Name von Spieler 1").fill("Anna")
    page.get_by_label("Name von Spieler 2").fill("Ben")
    page.get_by_role("radio", name=re.compile("Rauf-Runter-Kniffel")).check()
    page.get_by_role("button", name="Spiel beginnen").click()
    expect(page.locator(".turn-name")).to_have_text("Anna ist am Zug")

    turns = plan()
    for number, turn in enumerate(turns):
        for player, rolls in (("Anna", ANNA), ("Ben", BEN)):
            expect(page.locator(".turn-name")).to_have_text(f"{player} ist am Zug")
            dice, points = rolls[turn.row]
            if number == 0 and player == "Ben":
                locked_cell_is_refused(page)
                mistake_then_undo(page)
            if number == 13 and player == "Ben":
                enter_points_instead_of_dice(page, turn, points)
                continue
            if number == 1 and player == "Anna":
                play_turn_by_keyboard(page, turn, dice, points)
                continue
            play_turn(page, turn, dice, points)
            if number == 0 and player == "Anna":
                correct_a_cell_in_place(page)

    expect(page.locator(".turn.over")).to_contain_text("Spiel beendet")
    assert total_of(page, "Anna") == ANNA_TOTAL
    assert total_of(page, "Ben") == BEN_TOTAL
    winner = page.locator("#end-title")
    expect(winner).to_contain_text(f"Anna gewinnt mit {ANNA_TOTAL:,} Punkten!".replace(",", "."))
    # Anna reached 63 in every column: the bonus shows as reached under each.
    anna_sheet = page.locator(".sheet", has=page.locator("caption", has_text="Anna"))
    expect(anna_sheet.locator(".bonus td.reached")).to_have_count(3)
    chart = page.get_by_role("img", name="Punktestand nach jedem Zug")
    expect(chart).to_be_visible()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=chart.element_handle()
    )

    with page.expect_download() as download:
        page.locator(".end a[download]").click()
    record = loads(Path(download.value.path()).read_bytes())
    game = replay(record)
    assert game.is_finished and game.returns() == [ANNA_TOTAL, BEN_TOTAL]
    assert errors == []
    context.close()


def locked_cell_is_refused(page: Page) -> None:
    """Ben taps a cell that is not due: nothing is sent, the board says why."""
    before = version(page)
    locked = page.get_by_role("button", name="Runter, Zweier, gesperrt", exact=True)
    locked.click(force=True)  # Playwright waits for enabled buttons; a finger does not
    expect(page.locator("#toast")).to_have_text("Runter, Zweier ist nicht dran; dran ist Einser")
    # With dice typed, the locked cell stays locked.
    type_dice(page, "22222")
    expect(
        page.get_by_role("button", name="Runter, Einser, Pflichtfeld, 0 Punkte möglich")
    ).to_be_visible()
    toast = page.locator("#toast")
    expect(toast).to_have_text("")  # typing cleared it, so the refusal below must say it anew
    locked.click(force=True)  # Playwright waits for enabled buttons; a finger does not
    # The refusal is said (the tap was handled and sent nothing) rather than waited out.
    expect(toast).to_have_text("Runter, Zweier ist nicht dran; dran ist Einser")
    assert version(page) == before
    expect(locked).to_have_attribute("aria-disabled", "true")
    page.locator("[data-pad=clear]").click()


def mistake_then_undo(page: Page) -> None:
    """Ben enters into the wrong cell and takes it back with Rückgängig."""
    before = version(page)
    type_dice(page, "11456")
    page.get_by_role("button", name="Frei, Sechser, 6 Punkte möglich", exact=True).click()
    wait_version(page, before + 1)
    expect(page.locator(".turn-name")).to_have_text("Anna ist am Zug")
    expect(page.locator("#undo-note")).to_contain_text("Eintrag von Ben: Frei, Sechser (6)")
    page.get_by_role("button", name=re.compile("Rückgängig")).click()
    wait_version(page, before + 2)
    expect(page.locator(".turn-name")).to_have_text("Ben ist am Zug")
    # The entry taken back gives its dice back to the field (issue 32 item 4): Sechser is open
    # again and previews them; Ben clears the field to type another roll.
    expect(page.locator("#dice-input")).to_have_value("11456")
    sixes = "Frei, Sechser, 6 Punkte möglich"
    expect(page.get_by_role("button", name=sixes, exact=True)).to_be_visible()
    page.locator("#dice-input").focus()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Frei, Sechser, offen", exact=True)).to_be_visible()


def correct_a_cell_in_place(page: Page) -> None:
    """Anna's ↓ Einser is corrected from 3 to 4 points in the dialog."""
    before = version(page)
    page.get_by_role("tab").filter(has_text="Anna").click()
    page.get_by_role("button", name="Runter, Einser, 3 Punkte", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Neue Punkte").fill("4")
    dialog.get_by_role("button", name="Speichern").click()
    wait_version(page, before + 1)
    expect(dialog).to_be_hidden()
    # The game goes on: Ben, who is to move, is in front again; Anna's cell holds 4.
    expect(page.get_by_role("tab", selected=True)).to_contain_text("Ben")
    expect(page.locator("#c0-down\\.ones")).to_have_attribute(
        "aria-label", "Runter, Einser, 4 Punkte"
    )
    assert total_of(page, "Anna") == 4


def enter_points_instead_of_dice(page: Page, turn: Turn, points: int) -> None:
    """Ben gives the points of his ↑ Chance instead of the dice."""
    before = version(page)
    page.get_by_role("button", name="Punkte", exact=True).click()
    page.locator("#points-input").fill(str(points))
    cell = page.get_by_role("button", name=open_label(turn, points), exact=True)
    cell.click()
    wait_version(page, before + 1)
    page.get_by_role("button", name="Würfel", exact=True).click()
