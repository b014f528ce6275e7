"""The board in WebKit, the engine of every iPhone (issue 19), driven through WebDriver.

The same walks as the chromium tests, in a second engine (Debian's WebKitGTK, which has no
``Element.moveBefore``): a whole Rauf-Runter-Kniffel game typed and tapped, an entry made by
keyboard alone, two devices live (an iPhone in WebKit and a phone in chromium), the Tipp, and
corrections (a new value, a cleared cell, undo). A tap is WebDriver's element click, which fails
when something else covers the element's centre: the phone layout is checked on the way.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .jamb_pages import OTHER_ENGINE
from .test_board_state import new_game, post
from .test_chances import outward
from .test_full_game import ANNA, ANNA_TOTAL, BEN, BEN_TOTAL, open_label, plan
from .test_new_game_form import READ_RULES, expected_rules, shown_rules
from .test_phone_geometry import FITS, family_game
from .test_revanche import play, revanche_of
from .webdriver import Driver, Session

pytestmark = [pytest.mark.e2e, pytest.mark.webkit]


@pytest.fixture(scope="module")
def iphone(webkit: Driver) -> Iterator[Session]:
    """One WebKit window at phone size, reused by this module's tests (a start takes long)."""
    with webkit.session() as session:
        rect = session.resize(PHONE["width"], PHONE["height"])
        # WebKitGTK's window is at least about 450 px wide: still the phone layout (< 62rem).
        assert rect["width"] < 62 * 16
        yield session


def open_board(session: Session, url: str) -> None:
    session.go(url)
    session.wait(
        "return document.querySelector('.game') && "
        "document.querySelector('.game').dataset.live === 'open'",
        what="the board's live connection",
    )


def version(session: Session) -> int:
    return int(session.run("return document.querySelector('#board').dataset.version"))


def wait_version(session: Session, number: int) -> None:
    session.wait(
        "return document.querySelector('#board').dataset.version === arguments[0]",
        str(number),
        what=f"version {number}",
    )


def labelled(label: str) -> str:
    return f'[aria-label="{label}"]'


def type_dice(session: Session, dice: str) -> None:
    field = session.find("#dice-input")
    field.clear()
    field.type(dice)


def enter(session: Session, dice: str, label: str) -> None:
    """Types the dice, waits for the cell's preview and taps the cell.

    A due cell is tapped where the page shows it (the page keeps due cells in view); any other
    cell the player swipes to first.
    """
    before = version(session)
    type_dice(session, dice)
    cell = session.wait_for(labelled(label))
    if not session.run("return arguments[0].closest('td').classList.contains('due')", cell):
        cell.swipe_to()
    cell.click()
    wait_version(session, before + 1)


def turn_name(session: Session) -> str:
    return str(session.run("return document.querySelector('.turn-name').textContent.trim()"))


def total(session: Session, seat: int) -> int:
    text = session.run(f"return document.querySelector('#tab-{seat} .player-total').textContent")
    return int(str(text).replace(".", ""))


def correct(session: Session, tab: int, cell_label: str, points: int) -> None:
    """Opens a filled cell's correction dialog and saves new points."""
    before = version(session)
    session.find(f"#tab-{tab}").click()
    cell = session.wait_for(labelled(cell_label))
    cell.swipe_to()  # a filled cell may sit under the column heads: the player swipes first
    cell.click()
    session.wait("return document.querySelector('#edit-dialog').open", what="the dialog")
    field = session.find("#edit-points")
    field.clear()
    field.type(str(points))
    session.find("#edit-dialog button.primary").click()
    wait_version(session, before + 1)
    session.wait("return !document.querySelector('#edit-dialog').open", what="the dialog to close")


def watch_page(session: Session) -> None:
    """Collects the page's script errors and notes the step during which the page is left.

    The game runs in one page: a form sent by the browser itself (not through htmx) loads a
    new page, and the errors collected so far go with the old one. The step it happened in
    is kept in the tab's sessionStorage, which outlives the page.
    """
    session.run(
        "window.__errors = [];"
        "window.addEventListener('error', (e) => window.__errors.push(String(e.message)));"
        "sessionStorage.removeItem('test:left-at');"
        "window.addEventListener('pagehide', () => sessionStorage.setItem("
        "'test:left-at', sessionStorage.getItem('test:step') || 'the start'));"
    )


def step(session: Session, name: str) -> None:
    """Checks that the page of ``watch_page`` is still the one shown, then names the next step."""
    if session.run("return window.__errors") is None:
        left = session.run("return sessionStorage.getItem('test:left-at')")
        pytest.fail(f"the page was left (a new page loaded) during {left}, before {name}")
    session.run("sessionStorage.setItem('test:step', arguments[0])", name)


# First in the file: the end charts of the games the tests below finish queue on the same
# board's chart worker, and one behind them waited a minute in CI.
def test_a_finished_jamb_games_end_chart_fills_in_in_webkit(iphone: Session, server: str) -> None:
    """Issue 32: a finished Jamb game's end screen had no chart of the chances; now the board
    draws one with a point per round off the request, and WebKit shows it once drawn."""
    import random

    from kniffel.board.players.sample import random_record

    record = random_record("jamb", ["Ana", "Ben"], random.Random(11))
    answer = httpx.post(f"{server}/api/records", json=record)
    assert answer.status_code == 201, answer.text
    try:
        iphone.go(f"{server}/g/{answer.json()['id']}?lang=hr")
        chart = iphone.wait_for("img[data-chances-chart]")
        alt = iphone.run("return arguments[0].getAttribute('alt')", chart)
        assert alt == "Izgledi za pobjedu nakon svakog kruga"
        chart.swipe_to()
        iphone.wait(
            "const img = document.querySelector('img[data-chances-chart]');"
            " return img.dataset.drawn === '1' && img.complete && img.naturalWidth > 0",
            seconds=300,  # generous: the busy machine
            what="the drawn end chart",
        )
    finally:
        iphone.command("DELETE", "/cookie")  # the language chosen: the next tests' German


@pytest.mark.slow
@OTHER_ENGINE  # CI plays the chromium game (tests/e2e/test_full_game.py): docs/contributing.md
def test_a_full_game_in_webkit(iphone: Session, server: str) -> None:
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    watch_page(iphone)
    for number, turn in enumerate(plan()):
        for player, rolls in (("Anna", ANNA), ("Ben", BEN)):
            assert turn_name(iphone) == f"{player} ist am Zug"
            dice, points = rolls[turn.row]
            label = open_label(turn, points)
            step(iphone, f"{player}'s entry {number + 1} ({label})")
            enter(iphone, dice, label)
            if number == 0 and player == "Anna":
                step(iphone, "the correction of Anna's Einser")
                correct(iphone, 0, "Runter, Einser, 3 Punkte", 4)
    step(iphone, "the end")
    iphone.wait("return !!document.querySelector('.turn.over')", what="the end")
    assert (total(iphone, 0), total(iphone, 1)) == (ANNA_TOTAL, BEN_TOTAL)
    winner = iphone.run("return document.querySelector('#end-title').textContent")
    assert f"Anna gewinnt mit {ANNA_TOTAL:,} Punkten!".replace(",", ".") in winner
    assert iphone.run("return window.__errors") == []


def test_a_tap_as_the_preview_shows_stays_on_the_page(iphone: Session, server: str) -> None:
    """A cell tapped the moment its preview is drawn is entered through the page, not sent as a
    form of its own that loads a new page (issue 19: the full game's page was left at some
    entry, and with it the page's state).

    htmx binds the swapped-in entry form only when it "settles" the swap (20 ms later by
    default); a tap before that was the browser's own form post. The tap is timed by the page
    itself, at the swap that draws the preview: no finger (and no WebDriver round trip) is as
    quick, but some are quick enough to land inside those 20 ms.
    """
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    watch_page(iphone)
    label = "Runter, Einser, Pflichtfeld, 3 Punkte möglich"
    iphone.run(
        """const label = arguments[0];
           document.addEventListener('htmx:afterSwap', function tap() {
             const cell = document.querySelector(`[aria-label="${label}"]`);
             if (!cell) return;
             document.removeEventListener('htmx:afterSwap', tap);
             // A finger's tap is an event of its own, after the swap's.
             setTimeout(() => {
               window.__tapped = true;
               cell.click();
             }, 0);
           });""",
        label,
    )
    step(iphone, "the tap as the preview shows")
    type_dice(iphone, "11123")
    wait_version(iphone, 1)
    step(iphone, "the check")
    assert iphone.run("return window.__tapped") is True
    assert turn_name(iphone) == "Ben ist am Zug"
    assert iphone.run("return window.__errors") == []


def test_an_entry_by_keyboard_in_webkit(iphone: Session, server: str) -> None:
    """Dice typed, Enter to the cells, arrows, Enter: then the next player's dice have focus."""
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    type_dice(iphone, "11123")
    iphone.wait_for(labelled("Runter, Einser, Pflichtfeld, 3 Punkte möglich"))
    # The preview came as a swap of the board: the kept dice field still has the focus (without
    # Element.moveBefore, htmx re-inserts it, and the focus fell to the body: issue 19, item 3).
    focused = iphone.run("return document.activeElement.id || document.activeElement.tagName")
    assert focused == "dice-input", f"after the preview the focus is on {focused}"
    iphone.press("Enter")
    iphone.wait("return document.activeElement.id === 'c0-down.ones'", what="focus on ↓ Einser")
    iphone.press("ArrowRight", "ArrowRight")
    iphone.wait("return document.activeElement.id === 'c0-free.ones'", what="focus on Frei")
    iphone.press("ArrowLeft", "ArrowLeft", "Enter")
    wait_version(iphone, 1)
    assert turn_name(iphone) == "Ben ist am Zug"
    label = iphone.run("return document.getElementById('c0-down.ones').getAttribute('aria-label')")
    assert label == "Runter, Einser, 3 Punkte"
    # Ben types at once: the focus is in his dice field (docs/board.md).
    iphone.wait(
        "return document.activeElement && document.activeElement.id === 'dice-input'",
        seconds=10,
        what="focus in the next player's dice field",
    )
    iphone.press("2", "2", "2", "5", "6")
    iphone.wait_for(labelled("Runter, Einser, Pflichtfeld, 0 Punkte möglich"))


def test_two_devices_live_webkit_and_chromium(
    iphone: Session, browser: Browser, server: str
) -> None:
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    android = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = android.new_page()
    page.goto(server + game["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")

    # Anna enters on the iPhone: the other phone shows it.
    enter(iphone, "11123", "Runter, Einser, Pflichtfeld, 3 Punkte möglich")
    expect(page.locator("#board")).to_have_attribute("data-version", "1", timeout=15_000)
    expect(page.locator(".turn-name")).to_have_text("Ben ist am Zug")

    # Ben enters on the other phone: the iPhone shows it, without a reload.
    page.locator("#dice-input").fill("22256")
    page.get_by_role("button", name="Runter, Einser, Pflichtfeld, 0 Punkte möglich").tap()
    expect(page.locator("#board")).to_have_attribute("data-version", "2")
    wait_version(iphone, 2)
    assert turn_name(iphone) == "Anna ist am Zug"

    # A correction on the other phone reaches the iPhone as well, and one from the iPhone it.
    page.get_by_role("tab").filter(has_text="Anna").tap()
    page.get_by_role("button", name="Runter, Einser, 3 Punkte", exact=True).tap()
    page.get_by_role("dialog").get_by_label("Neue Punkte").fill("5")
    page.get_by_role("dialog").get_by_role("button", name="Speichern").tap()
    wait_version(iphone, 3)
    assert total(iphone, 0) == 5
    correct(iphone, 1, "Runter, Einser, 0 Punkte", 1)
    expect(page.locator("#tab-1 .player-total")).to_have_text("1", timeout=15_000)
    android.close()


def open_tipp(session: Session, server: str, dice: str) -> None:
    """A new Rauf-Runter game of Anna and Ben: ``dice`` (three sixes) typed, the Tipp asked."""
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(session, server + game["url"])
    type_dice(session, dice)
    session.wait_for(labelled("Frei, Sechser, 18 Punkte möglich"))
    session.find(".tipp-button").click()


def test_the_tipp_in_webkit(iphone: Session, server: str) -> None:
    open_tipp(iphone, server, "66655")
    panel = "#tipp .tipp"
    iphone.wait_for(panel, seconds=60)
    assert "Tipp für Anna" in iphone.run(f"return document.querySelector('{panel}').textContent")
    # The best cell is marked on the sheet, and the panel's top is not under the tabs.
    iphone.wait_for("#board .tipp-best-cell")
    hit = iphone.run(
        """const panel = document.querySelector('#tipp');
           const r = panel.getBoundingClientRect();
           const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 6);
           return !!hit && panel.contains(hit);"""
    )
    assert hit, "the Tipp panel's top is covered"


@OTHER_ENGINE  # CI runs the chromium twin (tests/e2e/test_tipp_reasons.py): docs/contributing.md
def test_the_tipps_first_answer_then_its_final_figures_in_webkit(
    iphone: Session, full_work_server: str
) -> None:
    """The Tipp's first answer (≈, how sure) takes the panel's place, then the final figures,
    without a tap (static/tipp.js; tests/e2e/test_tipp_reasons.py in chromium)."""
    open_tipp(iphone, full_work_server, "66612")
    reasons = "document.querySelector('#tipp [data-reasons]')"
    iphone.wait(
        f"const r = {reasons}; return !!r && /Bonus Runter ≈ \\d+\\u00a0%/.test(r.textContent)",
        seconds=120,
        what="the first answer",
    )
    assert "Erste Schätzung" in iphone.run("return document.querySelector('#tipp').textContent")
    iphone.wait(
        "const t = document.querySelector('#tipp .tipp');"
        " return !!t && t.dataset.tippStage === 'final' && !t.textContent.includes('≈')",
        seconds=600,
        what="the final figures",
    )
    assert "data-tipp-reasons" not in iphone.run("return document.querySelector('#tipp').innerHTML")


def test_corrections_in_webkit(iphone: Session, server: str) -> None:
    """A new value, a cleared cell (due again) and undo, all through the page."""
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    enter(iphone, "11123", "Runter, Einser, Pflichtfeld, 3 Punkte möglich")
    enter(iphone, "22256", "Runter, Einser, Pflichtfeld, 0 Punkte möglich")
    correct(iphone, 0, "Runter, Einser, 3 Punkte", 4)
    assert total(iphone, 0) == 4
    # Cleared, the arrow column's cell is due again; Anna's tab shows 0.
    iphone.find("#tab-0").click()
    cell = iphone.wait_for(labelled("Runter, Einser, 4 Punkte"))
    cell.swipe_to()
    cell.click()
    iphone.wait("return document.querySelector('#edit-dialog').open", what="the dialog")
    iphone.find("#edit-dialog button.danger").click()
    wait_version(iphone, 4)
    assert total(iphone, 0) == 0
    assert "due" in iphone.run(
        "return document.getElementById('c0-down.ones').closest('td').className"
    )
    # Undo takes the clearing back.
    iphone.find(".undo button").click()
    wait_version(iphone, 5)
    assert total(iphone, 0) == 4


def test_a_watcher_in_webkit_is_taken_to_the_revanche(
    iphone: Session, browser: Browser, server: str
) -> None:
    """The iPhone watches a finished game; the Revanche tapped on another phone takes it along,
    and the next game's end shows the evening's tally (docs/board.md, "Revanche")."""
    first = post(
        server + "/api/games",
        {"variant": "kniffel", "options": {"chance": False}, "players": ["Anna", "Ben"]},
    )
    play(server, first)
    open_board(iphone, f"{server}/g/{first['id']}")
    android = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = android.new_page()
        page.goto(server + first["url"])
        page.get_by_role("button", name="Revanche").tap()
        second = revanche_of(server, first)
        expect(page).to_have_url(f"{server}/g/{second['id']}")
        iphone.wait(
            "return location.pathname === arguments[0]",
            f"/g/{second['id']}",
            what="the iPhone at the Revanche",
        )
        open_board(iphone, f"{server}/g/{second['id']}")
        assert turn_name(iphone) == "Ben ist am Zug"
        assert not iphone.run("return !!document.querySelector('[data-entry]')")  # still watching
        play(server, second)
        iphone.wait(
            "return (document.querySelector('.evening h3') || {}).textContent === arguments[0]",
            "Spieleabend: 2 Spiele",
            what="the evening's tally",
        )
    finally:
        android.close()


def test_choosing_a_preset_shows_its_house_rules_alone_with_its_values(
    iphone: Session, server: str
) -> None:
    """The new-game form's script in WebKit, as in chromium (test_new_game_form.py)."""
    iphone.go(server + "/")
    iphone.wait(
        "return !!document.querySelector('form[data-new-game][data-ready]')", what="the script"
    )
    iphone.find("details.house-rules summary").click()
    for preset in ["yahtzee", "jamb", "yams", "kniffel", "rauf-runter", "dreifach"]:
        iphone.find(f'input[name="variant"][value="{preset}"]').click()
        assert shown_rules(iphone.run(READ_RULES)) == expected_rules(preset), preset


def test_held_dice_and_an_undone_entry_in_webkit(iphone: Session, server: str) -> None:
    """Issue 32 item 4 in WebKit (tests/e2e/test_entry_kept.py in chromium): a roll whose faces
    come out the same releases every die held; an undone entry's dice come back to the field."""
    game = post(
        server + "/api/games", {"variant": "kniffel", "players": ["Clara"], "dice_mode": "virtual"}
    )
    open_board(iphone, server + game["url"])
    iphone.find(".roll-button").click()
    wait_version(iphone, 1)
    for n in range(1, 6):
        iphone.find(f".die-toggle:nth-of-type({n})").click()
    held = "return document.querySelectorAll('.tray input[data-die]:checked').length"
    iphone.wait(f"{held} === 5", what="five dice held")
    iphone.find(".roll-button").click()
    wait_version(iphone, 2)
    assert iphone.run(held) == 0

    game = new_game(server, "kniffel", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    enter(iphone, "66655", "Sechser, 18 Punkte möglich")
    iphone.find(".undo button").click()
    wait_version(iphone, 2)
    iphone.wait(
        "return document.querySelector('#dice-input').value === '55666'", what="the dice back"
    )


def test_a_six_column_jamb_sheet_fits_in_webkit(iphone: Session, server: str) -> None:
    """Issue 32: the heads of a six-column Jamb sheet are short marks that fit their columns
    and no tab's words run over another's, in WebKit too (at its narrowest window)."""
    open_board(iphone, family_game(server, "jamb", 4, {"hand": True, "middle": True}, "hr"))
    heads = iphone.run(
        "return Array.from(document.querySelectorAll('#sheet-0 .col-head'))"
        ".map((head) => head.textContent.trim())"
    )
    assert heads == ["↓ Dolje", "S Slobodna", "↑ Gore", "N Najava", "R Ručna", "↕ Od sredine"]
    assert iphone.run(f"return ({FITS})()") == []


def test_a_french_yams_sheet_of_three_columns_fits_in_webkit(iphone: Session, server: str) -> None:
    """ "Descendante" and "Montante" were cut at a phone's width: there, the heads of a three-column
    sheet with a long name are marks with the legend under the sheet, in WebKit too."""
    open_board(iphone, family_game(server, "yams", 2, {}, "fr"))
    shown = iphone.run(
        "return Array.from(document.querySelectorAll('#sheet-0 .col-head .head-mark'))"
        ".map((mark) => getComputedStyle(mark).display === 'none' ? '' : mark.textContent)"
    )
    assert shown == ["↓", "↑", "L"]
    legend = iphone.run(
        "return getComputedStyle(document.querySelector('#sheet-0 .col-legend')).display"
    )
    assert legend != "none"
    assert iphone.run(f"return ({FITS})()") == []


def test_the_chances_range_is_rounded_outwards_in_webkit(iphone: Session, server: str) -> None:
    """The tab's range claims no more than the 95 % interval (static/tafel/chances.js)."""
    game = new_game(server, "rauf-runter", ["Anna", "Ben"])
    open_board(iphone, server + game["url"])
    iphone.find("[data-chances-switch]").click()
    shown = iphone.wait(
        "const c = document.querySelector('#tab-0 .player-chance');"
        " return c && c.textContent.includes('–') ? c.textContent : null",
        seconds=120,
        what="the chances on the tabs",
    )
    figures = httpx.get(f"{server}/api/games/{game['id']}/chances").json()
    assert outward(figures["players"][0]["interval"]).match(shown), shown
