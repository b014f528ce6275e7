"""A whole game with no server (issue 31, item 5), in chromium: from the installed start page with
the network off, a family starts a Rauf-Runter game on one device, plays it to the end there
(the sheet drawn by the rules in the page), corrects a cell and clears one in the board's own
correction dialog, with the board's notes under the sheet, and the game waits on the start page
until the network is back; then it is stored on the server, which replays it to the same sheet,
the device holds its key, and the game is on the player pages, with the notes the device showed
(docs/board.md, "Installieren und ohne Netz").
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from kniffel.board.turn_view import undo_view
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.offline import sheet_state
from kniffel.record import parse, replay
from kniffel.rules import Announce, Clear, Dice, Edit, Enter, Game, get_variant

from .conftest import BOARD, PHONE, _free_port, board_process
from .jamb_pages import OTHER_ENGINE, until
from .test_offline import _FETCH_RULES, _RULES_KEPT, NOTES, _until
from .test_offline_names import NAMES
from .webdriver import Driver

pytestmark = pytest.mark.e2e

#: Each row's dice and the row in the order a column is played down.
_ROWS = [
    ("ones", "11123"),
    ("twos", "22234"),
    ("threes", "33345"),
    ("fours", "44456"),
    ("fives", "55561"),
    ("sixes", "66612"),
    ("three_kind", "33312"),
    ("four_kind", "44441"),
    ("full_house", "22333"),
    ("small_straight", "12346"),
    ("large_straight", "12345"),
    ("kniffel", "66666"),
    ("chance", "66554"),
]


#: Names no other test plays under (the board is the package's): the player page is theirs.
_PLAYERS = ["Frieda", "Mats"]


def _turns(player: str) -> list[tuple[str, str]]:
    """A player's 39 turns: ↓ from the top, ↑ from the bottom, then the free column. Mats rolls
    no Kniffel (his Kniffel rows get 0)."""
    down = [(f"down.{row}", dice) for row, dice in _ROWS]
    up = [(f"up.{row}", dice) for row, dice in reversed(_ROWS)]
    free = [(f"free.{row}", dice) for row, dice in _ROWS]
    turns = down + up + free
    if player == "Mats":
        turns = [(cell, "12356" if cell.endswith("kniffel") else dice) for cell, dice in turns]
    return turns


#: The games kept on this device (static/device/games.js).
_KEPT = "import('/static/device/games.js').then((games) => games.deviceGames())"


def _kept(page: Page) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = page.evaluate(_KEPT)
    return kept


def _correct(page: Page, seat: int, cell: str) -> None:
    """Opens the correction dialog of a filled cell, by keyboard, as on the board."""
    page.locator(f"#tab-{seat}").click()
    page.locator(f"[id='c{seat}-{cell}']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#edit-dialog")).to_be_visible()
    expect(page.locator("#edit-points")).to_be_focused()


def _notes(page: Page) -> list[str]:
    """The notes under the sheets: each column's upper-bonus note, then the undo note."""
    bonus = page.locator(".sheet tfoot tr.bonus .bonus-note").all_text_contents()
    return [text.strip() for text in [*bonus, page.locator(".undo-note").text_content() or ""]]


def test_a_whole_rauf_runter_game_played_on_one_device_with_no_server_is_stored_when_it_is_back(
    browser: Browser, server: str
) -> None:
    url = server
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        page.goto(url + "/")
        _until(page, "navigator.serviceWorker.controller !== null")
        page.evaluate(_FETCH_RULES)  # as the installed app does in the background
        _until(page, _RULES_KEPT, 90_000)

        context.set_offline(True)
        page.reload()  # the start page from the worker's cache
        form = page.locator("form[data-new-game]")
        form.locator("input[name=variant][value='rauf-runter']").check()
        page.locator("#player-1").fill(_PLAYERS[0])
        page.locator("#player-2").fill(_PLAYERS[1])
        form.get_by_role("button", name="Spiel beginnen").click()
        tafel = page.locator("#board")
        expect(tafel).to_have_attribute("data-state", "ready", timeout=90_000)
        expect(page.locator(".status .turn-name")).to_have_text("Frieda ist am Zug")

        # An impossible entry: refused in the board's own words, nothing kept.
        page.locator("#points-input").fill("7")
        page.locator("[id='c0-down.ones']").click(force=True)  # a tap on a refused cell
        game = Game(get_variant("rauf-runter"), _PLAYERS)
        error = game.check(Enter("Frieda", game.cell("down.ones"), points=7))
        assert error is not None
        german = Translator("de", "rauf-runter")
        words = refusal_text(error, german)
        expect(page.locator("#notice")).to_have_text(words)
        expect(page.locator("#notice")).to_be_visible()
        expect(tafel).to_have_attribute("data-events", "0")
        page.locator("#points-input").fill("")

        # The whole game, typed: 78 entries.
        turns = list(zip(*map(_turns, _PLAYERS), strict=True))
        made = 0
        for pair in turns:
            for seat, (cell, dice) in enumerate(pair):
                page.locator("#dice-input").fill(dice)
                page.locator(f"[id='c{seat}-{cell}']").click()
                made += 1
                drawn = f"document.querySelector('#board')?.dataset.events === '{made}'"
                if not until(page, drawn):  # looked at often: 78 entries (jamb_pages.LOOK_MS)
                    expect(tafel).to_have_attribute("data-events", str(made), timeout=1)
        expect(page.locator(".status .turn-name")).to_have_text("Spiel beendet. Gewinner: Frieda")

        # A correction: a value the rules refuse is said in the dialog, which stays open.
        dialog = page.locator("#edit-dialog")
        _correct(page, 0, "free.chance")
        page.locator("#edit-points").fill("3")
        page.keyboard.press("Enter")
        game = replay(parse(_kept(page)[0]["record"]))
        error = game.check(Edit("Frieda", game.cell("free.chance"), 3))
        assert error is not None
        expect(dialog.locator(".edit-error")).to_have_text(refusal_text(error, german))
        expect(tafel).to_have_attribute("data-events", "78")
        page.locator("#edit-points").fill("20")
        dialog.get_by_role("button", name="Speichern").click()
        expect(dialog).to_be_hidden()
        expect(tafel).to_have_attribute("data-events", "79")
        expect(page.locator("[id='c0-free.chance']")).to_have_text("20")
        expect(page.locator("[id='c0-free.chance']")).to_be_focused()
        # A cleared cell opens the game again: Mats enters his Chance anew.
        _correct(page, 1, "free.chance")
        dialog.get_by_role("button", name="Feld leeren").click()
        expect(tafel).to_have_attribute("data-events", "80")
        expect(page.locator(".status .turn-name")).to_have_text("Mats ist am Zug")
        expect(page.locator(".status .turn-rolls")).to_have_text("echte Würfel, bis zu 3 Würfe")
        # The undo note is the board's (kniffel.board.turn_view), in the server's words.
        game = replay(parse(_kept(page)[0]["record"]))
        expect(page.locator(".undo-note")).to_have_text(undo_view(game, german, "physical").note)
        page.locator("#dice-input").fill("12356")
        page.locator("[id='c1-free.chance']").click()
        expect(tafel).to_have_attribute("data-events", "81")
        expect(page.locator(".status .turn-name")).to_have_text("Spiel beendet. Gewinner: Frieda")
        notes = _notes(page)
        assert notes[0] == "63 erreicht"  # Frieda's down column: 3 + 6 + … + 18
        shown = [page.locator(f"#tab-{seat} .player-total").inner_text() for seat in (0, 1)]
        names = page.evaluate(NAMES)  # what a screen reader hears on the device's sheet
        assert names["c0-down.ones"].startswith("Runter, Einser, ")
        (kept,) = _kept(page)
        assert kept["server"] is None and kept["record"]["device"]["offline"] is True

        page.goto(url + "/")  # still offline: the game waits on the start page
        waiting = page.locator("[data-device-games]")
        expect(waiting).to_contain_text("Frieda, Mats")
        expect(waiting).to_contain_text("Noch nicht gesendet")

        context.set_offline(False)  # the start page sends it, then shows the server's lists
        expect(waiting).to_be_hidden(timeout=60_000)
        (sent,) = _kept(page)
        assert "key" not in sent["server"]  # in the key cookie now
        game_id = sent["server"]["id"]
        # Among the server's finished games (other tests' games too: the server is shared).
        history = page.locator("[aria-labelledby='history-title'] .game-list")
        expect(history.locator(f"a[href='/g/{game_id}']")).to_have_count(1)

        # The device opens the server's game from then on, with its key: it may start a Revanche.
        page.goto(f"{url}/device#game={sent['id']}")
        expect(page.locator(".game")).to_have_attribute("data-game", game_id)
        expect(page.locator("form.revanche")).to_be_visible()
        assert page.evaluate(NAMES) == names  # the board's names, cell by cell
        assert _notes(page) == notes  # the board's bonus and undo notes
    finally:
        context.close()

    with urllib.request.urlopen(f"{url}/api/games/{game_id}/record") as answer:
        record = json.load(answer)
    assert record["events"] == kept["record"]["events"]
    replayed = sheet_state(record)
    assert replayed["finished"] and replayed["winners"] == ["Frieda"]
    assert [str(player["total"]) for player in replayed["players"]] == shown == ["888", "735"]
    with urllib.request.urlopen(f"{url}/spieler/Frieda") as answer:
        assert f"/g/{game_id}/" in answer.read().decode()


def _start_page_offline(context: BrowserContext, server: str) -> Page:
    """The start page of a phone whose worker is in control and keeps the rules' files, opened
    again with no network: as the installed app opens with none."""
    page = context.new_page()
    page.goto(server + "/")
    _until(page, "navigator.serviceWorker.controller !== null")
    page.evaluate(_FETCH_RULES)
    _until(page, _RULES_KEPT, 90_000)
    context.set_offline(True)
    page.reload()
    return page


def test_classic_kniffel_with_points_and_no_chance_row_started_offline_goes_to_the_board(
    browser: Browser, server: str
) -> None:
    """Virtual dice with no network are refused in words. Classic Kniffel with typed points and a
    house rule (no Chance row): the device's page has the rule's sheet, Undo takes an entry
    back, and once the board answers, the page itself stores the game and opens the board's
    game."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = _start_page_offline(context, server)
        form = page.locator("form[data-new-game]")
        form.locator("input[name=variant][value='kniffel']").check()
        page.locator("#player-1").fill("Greta")
        # Virtual dice roll on the board: with no network they are refused in words.
        form.locator("input[name=dice_mode][value='virtual']").check()
        form.get_by_role("button", name="Spiel beginnen").click()
        expect(page.locator("#form-error")).to_have_text(
            "Ohne Netz beginnt ein Spiel nur mit echten Würfeln und ohne Bots."
        )
        assert page.url == server + "/" and _kept(page) == []
        form.locator("input[name=dice_mode][value='physical']").check()
        form.locator("details.house-rules summary").click()
        form.locator("input[name=chance]").uncheck()
        form.get_by_role("button", name="Spiel beginnen").click()
        tafel = page.locator("#board")
        expect(tafel).to_have_attribute("data-state", "ready", timeout=90_000)
        expect(page.locator("[id='c0-main.chance']")).to_have_count(0)
        for points, cell, made in (("3", "ones", 1), ("12", "fours", 2)):
            page.locator("#points-input").fill(points)
            page.locator(f"[id='c0-main.{cell}']").click()
            expect(tafel).to_have_attribute("data-events", str(made))
        page.get_by_role("button", name="Rückgängig").click()
        expect(tafel).to_have_attribute("data-events", "1")
        expect(page.locator("[id='c0-main.fours'] .value")).to_have_count(0)
        expect(page.locator("#tab-0 .player-total")).to_have_text("3")
        # The caption a screen reader hears counts them too, in the plural's form.
        expect(page.locator("#sheet-0 .caption-total")).to_have_text("Greta: 3 Punkte")

        # Back online, the first post is stored but its answer is lost on the way back.
        lost: list[str] = []

        def store_and_lose(route: Route) -> None:
            route.fetch()
            lost.append(route.request.url)
            route.abort("connectionreset")

        page.route("**/api/records", store_and_lose, times=1)
        context.set_offline(False)
        for _ in range(600):
            if lost:
                break
            page.wait_for_timeout(50)
        assert lost
        expect(tafel).to_have_attribute("data-state", "ready")  # the game is still here
        page.reload()  # sent again: the board answers with the game stored the first time
        expect(page.locator(".game")).to_have_attribute("data-live", "open", timeout=60_000)
        game_id = page.locator(".game").get_attribute("data-game")
        expect(page.locator("#tab-0 .player-total")).to_have_text("3")
        expect(page.locator("#dice-entry")).to_be_visible()  # the device holds the game's key
    finally:
        context.close()
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/record") as answer:
        record = json.load(answer)
    with urllib.request.urlopen(f"{server}/api/games") as answer:
        games = json.load(answer)
    assert [game["id"] for game in games if game["players"] == ["Greta"]] == [game_id]
    assert record["variant"] == "kniffel" and record["options"]["chance"] is False
    assert record["events"] == [
        {"type": "enter", "player": "Greta", "cell": "main.ones", "points": 3}
    ]


def test_a_jamb_game_started_offline_announces_says_the_roll_and_goes_to_the_board(
    browser: Browser, server: str
) -> None:
    """Jamb with the hand column (a house rule) and no network, on one device: Ana announces Max
    (the row marked, every other cell locked), says the second roll and enters her dice there;
    Ivo's Kenta with no roll said is refused in the board's words, and with the first roll said
    it counts 66. Once the board
    answers, the game is stored there with the announcement and the rolls."""
    players = ["Ana", "Ivo"]
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = _start_page_offline(context, server)
        form = page.locator("form[data-new-game]")
        form.locator("input[name=variant][value='jamb']").check()
        form.locator("details.house-rules summary").click()
        form.locator("input[name=hand]").check()  # a house rule's column: Ručna
        page.locator("#player-1").fill(players[0])
        page.locator("#player-2").fill(players[1])
        form.get_by_role("button", name="Spiel beginnen").click()
        tafel = page.locator("#board")
        expect(tafel).to_have_attribute("data-state", "ready", timeout=90_000)
        expect(page.locator("#sheet-0 .announce-btn")).to_have_count(13)
        expect(page.locator(".device-rolls")).to_be_visible()
        expect(page.locator("#sheet-0 .col-head")).to_have_count(5)
        expect(page.locator("[id='c1-hand.ones']")).to_have_count(1)

        page.get_by_role("button", name="Ansage: Max", exact=True).click()
        expect(tafel).to_have_attribute("data-events", "1")
        expect(page.locator("td:has(> [id='c0-announce.max'])")).to_have_class(
            "cell waiting announced"
        )
        expect(page.locator(".announce-btn")).to_have_count(0)
        expect(page.locator("[id='c0-free.sixes']")).to_have_attribute("data-state", "locked")
        page.locator("#dice-input").fill("66655")
        page.locator(".device-rolls [data-rolls='2']").click()
        expect(page.locator("[id='c0-announce.max'] .preview")).to_have_text("28")
        page.locator("[id='c0-announce.max']").click()
        expect(tafel).to_have_attribute("data-events", "2")
        expect(page.locator(".device-rolls [aria-pressed='true']")).to_have_count(0)

        # Ivo's Kenta with no roll said: refused in the board's words, nothing kept.
        game = Game(get_variant("jamb"), players)
        game.push(Announce("Ana", game.cell("announce.max")))
        game.push(Enter("Ana", game.cell("announce.max"), dice=Dice.parse("66655"), roll=2))
        error = game.check(Enter("Ivo", game.cell("free.straight"), dice=Dice.parse("12345")))
        assert error is not None
        page.locator("#dice-input").fill("12345")
        page.locator("[id='c1-free.straight']").click(force=True)
        expect(page.locator("#notice")).to_have_text(refusal_text(error, Translator("de", "jamb")))
        expect(tafel).to_have_attribute("data-events", "2")
        page.locator(".device-rolls [data-rolls='1']").click()
        expect(page.locator("[id='c1-free.straight'] .preview")).to_have_text("66")
        page.locator("[id='c1-free.straight']").click()
        expect(tafel).to_have_attribute("data-events", "3")
        (kept,) = [g for g in _kept(page) if g["record"]["players"] == players]

        context.set_offline(False)  # the page stores the game and opens the board's
        expect(page.locator(".game")).to_have_attribute("data-live", "open", timeout=60_000)
        game_id = page.locator(".game").get_attribute("data-game")
        expect(page.locator("[id='c1-free.straight']")).to_have_text("66")
    finally:
        context.close()
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/record") as answer:
        record = json.load(answer)
    assert record["variant"] == "jamb" and record["options"]["hand"] is True
    assert record["events"] == kept["record"]["events"]
    assert record["events"][:2] == [
        {"type": "announce", "player": "Ana", "cell": "announce.max"},
        {"type": "enter", "player": "Ana", "cell": "announce.max", "dice": [5, 5, 6, 6, 6]}
        | {"roll": 2},
    ]


#: A game kept on this device, made as the start page makes it (static/device/start.js).
_MAKE = """return import('/static/device/games.js').then((games) =>
  games.makeGame({ variant: 'kniffel', options: {}, players: ['Lea', 'Tom'] }))"""


@pytest.mark.webkit
@OTHER_ENGINE  # the chromium game above runs in CI; this one costs a Pyodide start in WebKit (30 s)
def test_webkit_corrects_and_clears_a_cell_of_a_game_kept_on_the_device(
    webkit: Driver, tmp_path: Path, preset_tables: None
) -> None:
    """WebKit (iPhones' engine), the server killed, a Kniffel game kept on the device: a filled
    cell opened by keyboard in the board's correction dialog, a refused value said inside it,
    then corrected; another cleared; the notes are the board's."""
    port = _free_port()
    with webkit.session() as session:
        session.resize(PHONE["width"], PHONE["height"])
        with board_process(tmp_path, BOARD, port=port) as (url, process):
            session.go(url + "/")
            session.wait("return navigator.serviceWorker.controller !== null")
            session.run(f"return {_FETCH_RULES}")
            session.wait(f"return {_RULES_KEPT}", seconds=60)
            process.kill()
            process.wait()
        session.go(f"{url}/device#game={session.run(_MAKE)}")
        state = "return document.querySelector('#board').dataset"
        session.wait(f"{state}.state === 'ready'", seconds=120)
        for seat, cell, dice, made in ((0, "ones", "11123", 1), (1, "twos", "22234", 2)):
            session.find("#dice-input").type(dice)
            session.find(f"[id='c{seat}-main.{cell}']").click()
            session.wait(f"{state}.events === '{made}'", seconds=60)

        def open_dialog(seat: int, cell: str) -> None:
            session.find(f"#tab-{seat}").click()
            session.run(f"document.querySelector(\"[id='c{seat}-main.{cell}']\").focus()")
            session.press("Enter")
            session.wait("return document.querySelector('#edit-dialog').open")
            assert session.run("return document.activeElement.id") == "edit-points"

        # Tom's Zweier while Lea is to move: his sheet stays in front, as on the board.
        open_dialog(1, "twos")
        session.press("7", "Enter")
        game = Game(get_variant("kniffel"), ["Lea", "Tom"])
        game.push(Enter("Lea", game.cell("main.ones"), dice=Dice.parse("11123")))
        game.push(Enter("Tom", game.cell("main.twos"), dice=Dice.parse("22234")))
        error = game.check(Edit("Tom", game.cell("main.twos"), 7))
        assert error is not None
        said = "return document.querySelector('.edit-error').textContent"
        assert session.wait(said) == refusal_text(error, Translator("de", "kniffel"))
        session.find("#edit-points").clear()
        session.find("#edit-points").type("4")
        session.find("#edit-dialog button.primary").click()
        session.wait(f"{state}.events === '3' && !document.querySelector('#edit-dialog').open")
        game.push(Edit("Tom", game.cell("main.twos"), 4))
        assert session.run("return document.querySelector('#sheet-1.is-back') === null")
        assert session.run("return document.activeElement.id") == "c1-main.twos"
        open_dialog(0, "ones")
        session.find("[data-edit-clear]").click()
        session.wait(f"{state}.events === '4'")
        game.push(Clear("Lea", game.cell("main.ones")))
        notes = session.run(f"return {NOTES}")
        german = Translator("de", "kniffel")
        assert notes["bonus"] == [["noch 63 bis zum Bonus"], ["noch 59 bis zum Bonus"]]
        assert notes["rolls"] == "echte Würfel, bis zu 3 Würfe"
        assert notes["undo"] == undo_view(game, german, "physical").note
        assert session.run("return document.querySelector('.turn-name').textContent") == (
            "Lea ist am Zug"
        )
