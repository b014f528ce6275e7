"""The board installed (issue 31, item 1): the manifest, and the service worker that answers the
start page and every game page the device opened when the network is off, in chromium.

The server serves a copy of the static folder, so that a test can change a file as a new release
does (docs/decisions.md, "The board offline").
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from kniffel.board.hub import LocalHub
from kniffel.board.service import GameService
from kniffel.board.turn_view import turn_view
from kniffel.locales import Translator
from kniffel.offline import sheet_state
from kniffel.rules import Dice, Enter, Game, get_variant
from kniffel.store import GameStore
from kniffel.web.app import STATIC

from .conftest import BOARD, EXPECT_TIMEOUT_MS, PHONE, _free_port, board_process, running_board
from .jamb_pages import OTHER_ENGINE
from .test_board_state import enter, new_game, post
from .webdriver import Driver, Session

pytestmark = pytest.mark.e2e

#: The board's process serving the static folder named by ``sys.argv[1]``.
_LAUNCH = """
import sys
from pathlib import Path
from typing import Any
import uvicorn
import kniffel.web.app as board
board.STATIC = Path(sys.argv[1])
uvicorn.run(board.create_app(), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


@pytest.fixture(scope="module")
def release(
    tmp_path_factory: pytest.TempPathFactory, preset_tables: None
) -> Iterator[tuple[str, Path]]:
    """A board serving a copy of the static folder: its address and the copy."""
    folder = tmp_path_factory.mktemp("offline")
    static = folder / "static"
    shutil.copytree(STATIC, static)
    with running_board(folder, [sys.executable, "-c", _LAUNCH, str(static), "{port}"]) as url:
        yield url, static


def _until(page: Page, script: str, timeout_ms: int = EXPECT_TIMEOUT_MS) -> None:
    """Waits for ``script`` to be true in ``page`` (``wait_for_function`` evaluates a string,
    which the board's Content-Security-Policy refuses)."""
    for _ in range(timeout_ms // 50):
        if page.evaluate(script):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {script}")


def _static_caches(page: Page) -> list[str]:
    names: list[str] = page.evaluate("caches.keys()")
    return sorted(name for name in names if name.startswith("tafel-static-"))


def _wait_for_new_cache(page: Page, old: list[str]) -> list[str]:
    """The one static cache of a newer worker, once it has taken over (the old one deleted)."""
    for _ in range(EXPECT_TIMEOUT_MS // 50):
        names = _static_caches(page)
        if len(names) == 1 and names != old:
            return names
        page.wait_for_timeout(50)
    raise AssertionError(f"no new worker took over: {_static_caches(page)}")


def _fetched(page: Page, path: str) -> str:
    text: str = page.evaluate("path => fetch(path).then(answer => answer.text())", path)
    return text


def test_the_manifest_names_the_app_and_its_icons(release: tuple[str, Path]) -> None:
    url, _ = release
    with urllib.request.urlopen(url + "/static/manifest.webmanifest") as answer:
        assert answer.headers["content-type"] == "application/manifest+json"
        manifest = json.load(answer)
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert sizes == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        with urllib.request.urlopen(url + icon["src"]) as answer:
            head = answer.read(24)
        if icon["type"] == "image/png":
            width, height = int.from_bytes(head[16:20]), int.from_bytes(head[20:24])
            assert f"{width}x{height}" == icon["sizes"]
    with urllib.request.urlopen(url + "/") as answer:
        page = answer.read().decode()
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    with urllib.request.urlopen(url + "/sw.js") as answer:
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["cache-control"] == "no-cache"


def test_the_start_page_and_an_opened_game_open_offline_and_a_release_replaces_the_files(
    browser: Browser, release: tuple[str, Path]
) -> None:
    url, static = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        page.goto(url + "/")
        _until(page, "navigator.serviceWorker.controller !== null")
        first = _static_caches(page)
        assert len(first) == 1
        page.goto(url + game["url"])  # the creator's link: the key, then the game's page
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        game_page = page.url

        context.set_offline(True)
        page.goto(url + "/")
        expect(page.locator("form[action='/games']").first).to_be_attached()
        page.goto(game_page)
        expect(page.locator(".sheet").first).to_contain_text("Anna")
        expect(page.locator("#board")).to_contain_text("Ben")
        # The page's modules ran from the cache too: the live socket found no server.
        expect(page.locator(".game")).to_have_attribute("data-live", "closed")
        # The page's own files answer from the cache too.
        assert "--" in _fetched(page, "/static/tafel.css")
        context.set_offline(False)

        # A release changes a static file: the next visit installs the new worker, which takes
        # over with the new files whole.
        marker = "/* a new release */\n"
        with (static / "tafel.css").open("a") as css:
            css.write(marker)
        page.goto(url + "/")
        second = _wait_for_new_cache(page, first)
        page.goto(game_page)
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        context.set_offline(True)
        assert _fetched(page, "/static/tafel.css").endswith(marker)
        page.reload()
        expect(page.locator(".sheet").first).to_contain_text("Anna")
        assert _static_caches(page) == second
    finally:
        context.close()


#: The rules loaded in the page's Pyodide and asked for a sheet (static/rules.js).
_SHEET = """async ([record, pending, typed]) => {
  const { loadRules } = await import("/static/rules.js");
  const rules = await loadRules();
  return rules.sheet(record, pending, typed);
}"""

#: Pyodide's module imported (as a script, not fetched to be kept) where this runs.
_PYODIDE_IMPORTED = """performance.getEntriesByType("resource").some(
  (e) => e.name.endsWith("/static/pyodide/pyodide.asm.mjs") && e.initiatorType !== "fetch")"""


def test_the_rules_run_in_the_page_with_no_network_as_they_run_on_the_server(
    browser: Browser, release: tuple[str, Path]
) -> None:
    url, _ = release
    game = new_game(url, "rauf-runter", ["Anna", "Ben"])
    enter(url, game, "Anna", "down.ones", "11234")
    with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
        record = json.load(answer)
    pending = [
        {"type": "enter", "player": "Ben", "cell": "down.ones", "dice": [1, 1, 1, 5, 6]},
        {"type": "enter", "player": "Ben", "cell": "up.sixes", "dice": [6, 6, 6, 6, 1]},
    ]
    typed = {"dice": "66655"}
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        page.goto(url + "/")
        _until(page, "navigator.serviceWorker.controller !== null")
        page.goto(url + game["url"])
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        page.evaluate(_SHEET, [record, [], {}])  # online: the worker keeps Pyodide's files
        context.set_offline(True)
        page.reload()
        expect(page.locator("#board")).to_contain_text("Anna")
        drawn = page.evaluate(_SHEET, [record, pending, typed])
        # Python runs in the rules' worker, off the page's main thread (docs/decisions.md, "The
        # board offline"): the worker imported Pyodide's module, the page only fetched its files.
        (worker,) = [w for w in page.workers if w.url.endswith("/static/rules-worker.js")]
        assert worker.evaluate(_PYODIDE_IMPORTED)
        assert not page.evaluate(_PYODIDE_IMPORTED)
    finally:
        context.close()
    assert drawn == sheet_state(record, pending, dice="66655")
    # Ben's second entry waits for Anna's turn: refused in the engine's words, nothing changed.
    assert [(r["index"], r["code"]) for r in drawn["refused"]] == [(1, "not_your_turn")]
    assert drawn["sheets"][0]["cells"]["down.twos"]["preview"] == 0


#: The page's store of entries not yet sent (static/pending.js), called with one action.
_PENDING = """async ([game, action, argument]) => {
  const { openPending, postForm } = await import("/static/pending.js");
  const pending = await openPending(game);
  if (action === "add") for (const entry of argument) await pending.add(entry);
  if (action === "send") return pending.send(postForm);
  if (action === "again") await pending.again(argument[0], argument[1]);
  if (action === "drop") await pending.drop(argument);
  return pending.list();
}"""


def _entry(game: dict[str, Any], cell: str, dice: str, version: int) -> dict[str, Any]:
    fields = {"cell": cell, "dice": dice, "version": version}
    return {"path": f"/g/{game['id']}/enter", "fields": fields, "event": None, "version": version}


def _stored(url: str, game: dict[str, Any]) -> list[tuple[str, str]]:
    with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
        events = json.load(answer)["events"]
    return [(event["player"], event["cell"].removeprefix("main.")) for event in events]


def test_entries_made_offline_are_kept_across_a_reload_and_sent_in_order(
    browser: Browser, release: tuple[str, Path]
) -> None:
    url, _ = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        page.goto(url + "/")
        _until(page, "navigator.serviceWorker.controller !== null")
        page.goto(url + game["url"])  # the device's key for the game
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        # The store alone, on the start page: on the game's page the board sends on its own.
        page.goto(url + "/")
        start_page = page.url
        context.set_offline(True)
        made = [("ones", "11123"), ("twos", "22234"), ("threes", "33345"), ("fours", "44456")]
        entries = [_entry(game, cell, dice, n) for n, (cell, dice) in enumerate(made)]
        page.evaluate(_PENDING, [game["id"], "add", entries])
        result = page.evaluate(_PENDING, [game["id"], "send", None])
        assert (result["sent"], result["offline"]) == (0, True)
        page.reload()  # offline: the page from the worker's cache, the entries from IndexedDB
        kept = page.evaluate(_PENDING, [game["id"], "list", None])
        assert [entry["fields"]["cell"] for entry in kept] == [cell for cell, _ in made]
        context.set_offline(False)
        result = page.evaluate(_PENDING, [game["id"], "send", None])
        assert (result["sent"], result["refused"], result["offline"]) == (4, None, False)
        expected = [
            (player, cell)
            for player, (cell, _) in zip(["Anna", "Ben", "Anna", "Ben"], made, strict=True)
        ]
        assert _stored(url, game) == expected

        # Another device enters meanwhile: the kept entry, made on version 4, is refused in words
        # and stays; entered again on the version the page shows now, it is stored.
        page.evaluate(_PENDING, [game["id"], "add", [_entry(game, "sixes", "66612", 4)]])
        enter(url, game, "Anna", "fives", "55512")
        result = page.evaluate(_PENDING, [game["id"], "send", None])
        refused = result["refused"]
        assert result["sent"] == 0 and refused["refusal"]["status"] == 409
        assert refused["refusal"]["words"]
        (kept,) = page.evaluate(_PENDING, [game["id"], "list", None])
        assert kept["refusal"] == refused["refusal"]
        page.evaluate(_PENDING, [game["id"], "again", [kept["id"], 5]])
        assert page.evaluate(_PENDING, [game["id"], "send", None])["sent"] == 1
        assert _stored(url, game)[-2:] == [("Anna", "fives"), ("Ben", "sixes")]
        # Dropped by the player's choice only.
        page.evaluate(_PENDING, [game["id"], "add", [_entry(game, "chance", "12345", 5)]])
        (kept,) = page.evaluate(_PENDING, [game["id"], "list", None])
        page.evaluate(_PENDING, [game["id"], "drop", kept["id"]])
        assert page.evaluate(_PENDING, [game["id"], "list", None]) == []
        assert page.url == start_page
    finally:
        context.close()


@pytest.mark.webkit
def test_webkit_opens_the_start_page_and_an_opened_game_with_the_server_stopped(
    webkit: Driver, tmp_path: Path, preset_tables: None
) -> None:
    """WebKit (iPhones' engine): the network is cut by stopping the server."""
    with webkit.session() as session:
        session.resize(PHONE["width"], PHONE["height"])
        with running_board(tmp_path, BOARD) as url:
            game = new_game(url, "kniffel", ["Anna", "Ben"])
            session.go(url + "/")
            session.wait("return navigator.serviceWorker.controller !== null")
            session.go(url + game["url"])
            session.wait_for('.game[data-live="open"]')
            game_page = session.run("return location.href")
        session.go(url + "/")
        session.wait_for("form[action='/games']")
        session.go(game_page)
        session.wait("const b = document.querySelector('#board'); return !!b && b.textContent")
        assert "Ben" in session.run("return document.querySelector('#board').textContent")
        session.wait_for('.game[data-live="closed"]')


#: The worker's cache holds Pyodide's five files.
_RULES_KEPT = """caches.keys().then(async (names) => {
  const name = names.find((n) => n.startsWith("tafel-pyodide-"));
  return !!name && (await (await caches.open(name)).keys()).length >= 5;
})"""


def _key(name: str) -> str:
    """A cell's key: ``ones`` is Kniffel's ``main.ones``; ``down.ones`` names its column."""
    return name if "." in name else f"main.{name}"


def _cell(page: Page, seat: int, name: str) -> Any:
    return page.locator(f"[id='c{seat}-{_key(name)}']")


#: The rules' files fetched at once, as the page fetches them 5 s after it opened.
_FETCH_RULES = "import('/static/rules.js').then((rules) => rules.fetchRules())"


def _open_with_rules_kept(
    browser: Browser,
    url: str,
    game: dict[str, Any],
    page_fetches: bool = False,
    version: int = 0,
) -> tuple[BrowserContext, Page]:
    """A phone whose service worker is in control, on ``game``'s page once the page keeps the
    game's record and the worker the rules' files (what the page does online, in the background;
    ``page_fetches``: waited for, else fetched at once, 5 s sooner)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.goto(url + "/")
    _until(page, "navigator.serviceWorker.controller !== null")
    page.goto(url + game["url"])
    expect(page.locator(".game")).to_have_attribute("data-record", str(version))
    if not page_fetches:
        page.evaluate(_FETCH_RULES)
    _until(page, _RULES_KEPT, 90_000)
    return context, page


#: The entries before Anna's second Kniffel in the test of entries kept across a reload.
_KEPT_BEFORE_THE_SECOND_KNIFFEL = [
    ("Anna", "ones", "11123"),
    ("Ben", "twos", "22234"),
    ("Anna", "threes", "33345"),
    ("Ben", "fours", "44456"),
    ("Anna", "kniffel", "66666"),
    ("Ben", "fives", "55512"),
]


def _bonus(page: Page, seat: int, name: str) -> Any:
    """The extra Kniffel's bonus drawn beside a cell (sheet.html's ``small.kb``)."""
    return page.locator(f"td:has(> [id='c{seat}-{_key(name)}']) > .kb")


#: Every cell's bonus mark beside it, by the cell button's id, after the cell's button as the
#: page draws it (the mark of an entry not sent yet left out).
_BONUS_MARKS = """Object.fromEntries(Array.from(document.querySelectorAll('td.cell'), (td) => [
  td.querySelector('.cell-btn').id,
  Array.from(td.children, (child) => child.className).filter((c) => !c.includes('kept-mark'))
    .join(' ') + (td.querySelector('.kb') ? ' ' + td.querySelector('.kb').textContent : ''),
]).filter(([, drawn]) => drawn.includes('kb')))"""


def _enter_offline(page: Page, seat: int, cell: str, dice: str, points: str) -> None:
    """Dice typed and a cell tapped with no network: the preview and the entry come from the
    rules in the page; the entry is kept and marked."""
    page.locator("#dice-input").fill("")
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)
    expect(_cell(page, seat, cell).locator(".preview")).to_have_text(points, timeout=90_000)
    _cell(page, seat, cell).click()
    expect(_cell(page, seat, cell).locator(".value")).to_have_text(points, timeout=90_000)
    expect(page.locator(f"td:has(> [id='c{seat}-{_key(cell)}'])")).to_have_class("cell filled kept")


def test_entries_made_on_the_board_offline_are_drawn_kept_across_a_reload_and_sent_in_order(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Entries made offline in one tab; a second tab of the game is open on the same device (the
    kept entries are shared): back online, one tab sends them, each once, and the other shows no
    refusal of a duplicate. An extra Kniffel entered offline shows its bonus beside the cell, and
    beside each cell the typed dice would earn it in, as the server draws it (it showed nothing
    until the server drew the board again)."""
    url, _ = release
    rules = {"variant": "kniffel", "players": ["Anna", "Ben"], "options": {"kniffel_bonus": 100}}
    game = post(url + "/api/games", rules)
    context, page = _open_with_rules_kept(browser, url, game, page_fetches=True)
    try:
        expect(page.locator(".game")).not_to_have_attribute("data-rules", "ready")
        other = context.new_page()
        other.goto(page.url)
        expect(other.locator(".game")).to_have_attribute("data-live", "open")
        context.set_offline(True)
        count = page.locator(".status .kept-count")
        _enter_offline(page, 0, "ones", "11123", "3")  # the post finds no server: kept
        expect(count).to_have_text("Noch nicht gesendet: 1")
        expect(page.locator(".status .turn-name")).to_have_text("Ben ist am Zug")
        _enter_offline(page, 1, "twos", "22234", "6")  # drawn on the device: kept at once
        _enter_offline(page, 0, "threes", "33345", "9")
        expect(count).to_have_text("Noch nicht gesendet: 3")

        page.reload()  # offline: the page from the worker, the record and entries from IndexedDB
        expect(count).to_have_text("Noch nicht gesendet: 3", timeout=90_000)
        expect(_cell(page, 0, "threes").locator(".value")).to_have_text("9")
        _enter_offline(page, 1, "fours", "44456", "12")
        expect(page.locator("#tab-0 .player-total")).to_have_text("12")
        expect(page.locator("#tab-1 .player-total")).to_have_text("18")
        expect(page.locator("#board")).to_have_attribute("data-version", "4")
        _enter_offline(page, 0, "kniffel", "66666", "50")
        _enter_offline(page, 1, "fives", "55512", "15")
        page.locator("#dice-input").fill("")
        page.locator("#dice-input").focus()
        page.keyboard.type("66666")  # a second Kniffel: +100 beside any open cell
        expect(_cell(page, 0, "sixes").locator(".preview")).to_have_text("30", timeout=90_000)
        expect(_bonus(page, 0, "sixes")).to_have_text("+100")
        expect(_bonus(page, 0, "chance")).to_have_text("+100")
        # The lines above the dice field, as the board words them for this position.
        rules = Game(get_variant("kniffel", {"kniffel_bonus": 100}), ["Anna", "Ben"])
        for player, cell, dice in _KEPT_BEFORE_THE_SECOND_KNIFFEL:
            rules.push(Enter(player, rules.cell(cell), dice=Dice.parse(dice)))
        said = turn_view(rules, Translator("de", "kniffel"), 0, "physical", Dice.parse("66666"))
        expect(page.locator(".entry .extra-kniffel p")).to_have_text(list(said.extra_kniffel))
        _enter_offline(page, 0, "sixes", "66666", "30")
        expect(page.locator(".extra-kniffel")).to_have_count(0)  # no dice typed: no lines
        expect(_bonus(page, 0, "sixes")).to_have_text("+100")
        expect(page.locator(".kb")).to_have_count(1)  # no dice typed: only the one earned
        expect(page.locator("#tab-0 .player-total")).to_have_text("192")
        offline = page.evaluate(_BONUS_MARKS)

        posts: list[str] = []
        for tab in (page, other):
            tab.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        context.set_offline(False)  # the kept entries go in order; the server draws the board
        for tab in (page, other):  # both tabs hear `online`
            expect(tab.locator("#board")).not_to_have_attribute("data-kept", "true")
            expect(tab.locator("#board")).to_have_attribute("data-version", "7")
            expect(tab.locator("#tab-1 .player-total")).to_have_text("33")
            assert tab.evaluate(_BONUS_MARKS) == offline
        page.wait_for_timeout(500)  # the other tab's answers came too: no refusal came with them
        for tab in (page, other):
            expect(tab.locator(".status .kept-refused")).to_have_count(0)
            expect(tab.locator(".status .kept-count")).to_have_count(0)
            expect(tab.locator("#notice")).to_have_text("")
        assert page.evaluate(_PENDING, [game["id"], "list", None]) == []
        assert len(posts) == 7  # each sent once, by one tab
    finally:
        context.close()
    assert _stored(url, game) == [
        ("Anna", "ones"),
        ("Ben", "twos"),
        ("Anna", "threes"),
        ("Ben", "fours"),
        ("Anna", "kniffel"),
        ("Ben", "fives"),
        ("Anna", "sixes"),
    ]


def test_an_entry_kept_offline_that_another_device_overtook_is_refused_in_words_and_dropped(
    browser: Browser, release: tuple[str, Path]
) -> None:
    url, _ = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    context, page = _open_with_rules_kept(browser, url, game)
    try:
        context.set_offline(True)
        _enter_offline(page, 0, "ones", "11123", "3")
        enter(url, game, "Anna", "chance", "66554")  # another device, meanwhile
        context.set_offline(False)
        refused = page.locator(".status .kept-refused")
        expect(refused).to_contain_text("Anna: ones")
        expect(refused.get_by_role("button", name="Nochmal eintragen")).to_be_visible()
        refused.get_by_role("button", name="Verwerfen").click()
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator(".status .kept-refused")).to_have_count(0)
        expect(page.locator(".status .turn-name")).to_have_text("Ben ist am Zug")
    finally:
        context.close()
    assert _stored(url, game) == [("Anna", "chance")]


def test_a_refused_entry_entered_again_on_another_players_turn_comes_back_into_the_dice_field(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Anna's entry kept offline is refused (another device entered her turn); her dice do not
    go onto another player's sheet: "enter again" sends Ben's entry kept after it and gives her
    dice back into the dice field for her next turn, where she taps the cell."""
    url, _ = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    context, page = _open_with_rules_kept(browser, url, game)
    try:
        context.set_offline(True)
        _enter_offline(page, 0, "ones", "11123", "3")
        _enter_offline(page, 1, "twos", "22234", "6")
        enter(url, game, "Anna", "chance", "66554")  # another device, meanwhile
        context.set_offline(False)
        refused = page.locator(".status .kept-refused")
        expect(refused).to_contain_text("Anna: ones – ")
        refused.get_by_role("button", name="Nochmal eintragen").click()
        expect(page.locator("#dice-input")).to_have_value("11123")
        expect(page.locator(".status .kept-refused")).to_have_count(0)
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "2")
        expect(page.locator(".status .turn-name")).to_have_text("Anna ist am Zug")
        expect(_cell(page, 0, "ones").locator(".preview")).to_have_text("3")
        assert _stored(url, game) == [("Anna", "chance"), ("Ben", "twos")]
        _cell(page, 0, "ones").click()
        expect(page.locator("#board")).to_have_attribute("data-version", "3")
    finally:
        context.close()
    assert _stored(url, game) == [("Anna", "chance"), ("Ben", "twos"), ("Anna", "ones")]


def test_enter_again_tapped_while_the_kept_entries_are_being_sent_is_sent(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Tapping "Nochmal eintragen" while the page still sends (a second `online`, or the live
    socket opening again): that send had read the refusal before the tap, and the tap's own send
    found one under way and did nothing, so the entry stayed on the phone until the network came
    back once more (a board left at its version under load, the two-phones test below). Here
    the send under way is held at its look at the game's record until after the tap."""
    url, _ = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    context, page = _open_with_rules_kept(browser, url, game)
    held: list[Route] = []
    try:
        context.set_offline(True)
        _enter_offline(page, 0, "chance", "66554", "26")  # made on version 0
        enter(url, game, "Anna", "ones", "11123")  # another device, meanwhile
        enter(url, game, "Ben", "twos", "22234")  # Anna to move again, her Chance still open
        context.set_offline(False)
        refused = page.locator(".status .kept-refused")
        expect(refused).to_contain_text("Anna: chance – ")
        page.route("**/api/games/*/record", lambda route: held.append(route))
        page.evaluate("window.dispatchEvent(new Event('online'))")  # a send under way ...
        for _ in range(600):  # ... up to its look at the record (a minute at most)
            if held:
                break
            page.wait_for_timeout(100)
        assert held
        refused.get_by_role("button", name="Nochmal eintragen").click()
        for _ in range(600):  # the tap taken: the entry no longer refused, its send asked for
            kept = page.evaluate(_PENDING, [game["id"], "list", None])
            if kept and kept[0]["refusal"] is None:
                break
            page.wait_for_timeout(100)
        assert kept and kept[0]["refusal"] is None
        for route in held:
            route.continue_()
        page.unroute("**/api/games/*/record")
        expect(page.locator("#board")).to_have_attribute("data-version", "3")
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator(".status .kept-refused")).to_have_count(0)
    finally:
        context.close()
    assert _stored(url, game) == [("Anna", "ones"), ("Ben", "twos"), ("Anna", "chance")]


def _events(url: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
        events: list[dict[str, Any]] = json.load(answer)["events"]
    return events


def test_an_undo_and_a_correction_made_offline_are_kept_drawn_and_sent_in_order(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Offline, "Rückgängig" takes back Ben's stored entry (an undo kept for the server), Anna's
    stored ones are corrected (kept), and an entry kept here is taken back on the device (dropped,
    its dice back in the field). Back online, after another device's entry, the undo is refused in
    words beside it and dropped; the correction is stored."""
    url, _ = release
    game = new_game(url, "kniffel", ["Anna", "Ben"])
    enter(url, game, "Anna", "ones", "11123")
    enter(url, game, "Ben", "twos", "22234")
    context, page = _open_with_rules_kept(browser, url, game, version=2)
    try:
        context.set_offline(True)
        count = page.locator(".status .kept-count")
        undo = page.locator(".undo button")
        undo.click()  # the post finds no server: kept, and drawn by the rules here
        expect(count).to_have_text("Noch nicht gesendet: 1", timeout=90_000)
        expect(_cell(page, 1, "twos").locator(".value")).to_have_count(0)
        expect(page.locator(".status .turn-name")).to_have_text("Ben ist am Zug")
        expect(page.locator("#dice-input")).to_have_value("22234")  # his dice back, as typed
        page.locator("#tab-0").click()
        _cell(page, 0, "ones").click()  # a correction of Anna's stored ones
        dialog = page.locator("#edit-dialog")
        dialog.locator("#edit-points").fill("7")  # more than ones can hold: said, not kept
        dialog.get_by_role("button", name="Speichern").click()
        expect(dialog.locator(".edit-error")).to_have_text(
            "7 ist bei Einser nicht möglich; möglich sind 0–5"  # the server's words
        )
        dialog.locator("#edit-points").fill("2")
        dialog.get_by_role("button", name="Speichern").click()
        expect(dialog).not_to_be_visible()
        expect(_cell(page, 0, "ones").locator(".value")).to_have_text("2")
        expect(page.locator("#tab-0 .player-total")).to_have_text("2")
        page.locator("#tab-1").click()
        _enter_offline(page, 1, "twos", "22345", "4")
        expect(count).to_have_text("Noch nicht gesendet: 3")
        undo.click()  # Ben's entry kept here: dropped, his dice back in the field
        expect(count).to_have_text("Noch nicht gesendet: 2")
        expect(page.locator("#dice-input")).to_have_value("22345")
        expect(_cell(page, 1, "twos").locator(".preview")).to_have_text("4")
        expect(page.locator("#board")).to_have_attribute("data-version", "4")

        # Another device moved on meanwhile: the undo is refused in words, and only dropped (sent
        # again it would take back that device's entry); the correction then goes on.
        enter(url, game, "Anna", "threes", "33345")
        context.set_offline(False)
        refused = page.locator(".status .kept-refused")
        expect(refused).to_contain_text("↶ Rückgängig – Das Spiel wurde inzwischen geändert")
        expect(refused.get_by_role("button", name="Nochmal eintragen")).to_have_count(0)
        refused.get_by_role("button", name="Verwerfen").click()
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "4")
        expect(page.locator(".status .kept-refused")).to_have_count(0)
        expect(page.locator("#tab-0 .player-total")).to_have_text("11")
    finally:
        context.close()
    assert _events(url, game)[2:] == [
        {"type": "enter", "player": "Anna", "cell": "main.threes", "dice": [3, 3, 3, 4, 5]},
        {"type": "edit", "player": "Anna", "cell": "main.ones", "points": 2},
    ]


#: The notes under and beside the sheets, by where they stand (compared as the server draws them).
NOTES = """(() => {
  const text = (selector) => document.querySelector(selector)?.textContent ?? null;
  const bonus = (seat) => Array.from(
    document.querySelectorAll(`#sheet-${seat} tfoot tr.bonus .bonus-note`),
    (note) => note.textContent);
  return { bonus: [bonus(0), bonus(1)], rolls: text(".status .turn-rolls"),
    hint: text("form.roll .hint"), undo: text(".undo-note") };
})()"""


#: The announce buttons on the page: the row each announces, its name and where it posts.
_ANNOUNCE_BUTTONS = """Array.from(document.querySelectorAll('.announce-btn'), (b) =>
  [b.closest('section').id, b.value, b.getAttribute('aria-label'), b.getAttribute('hx-post')])"""


def test_an_announcement_made_offline_is_kept_drawn_and_sent_before_its_entry(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Jamb with real dice, no server: Ana announces Max (Najava), checked and drawn by the rules
    in the page (the row marked, every other cell locked, no more announce buttons), kept and
    marked; then her dice go into the announced row. Back online the announcement and the entry
    are stored in order. Ivo's announcement kept offline while another device entered his turn
    is refused in words beside it and dropped."""
    url, _ = release
    game = new_game(url, "jamb", ["Ana", "Ivo"])
    context, page = _open_with_rules_kept(browser, url, game)
    try:
        context.set_offline(True)
        count = page.locator(".status .kept-count")
        expect(page.locator("#sheet-0 .announce-btn")).to_have_count(13)
        page.get_by_role("button", name="Ansage: Max", exact=True).click()  # no server: kept
        expect(count).to_have_text("Noch nicht gesendet: 1", timeout=90_000)
        announced = page.locator("td:has(> [id='c0-announce.max'])")
        expect(announced).to_have_class("cell waiting announced kept")
        expect(announced.locator(".announced-tag")).to_have_count(1)
        name = re.compile("^Ansage, Max, angesagt")
        expect(_cell(page, 0, "announce.max")).to_have_accessible_name(name)
        expect(page.locator(".announce-btn")).to_have_count(0)
        expect(_cell(page, 0, "free.sixes")).to_have_attribute("data-state", "locked")
        page.locator("#dice-input").focus()
        page.keyboard.type("66655")
        page.locator('[data-rolls="2"]').click()
        expect(_cell(page, 0, "announce.max").locator(".preview")).to_have_text("28")
        expect(_cell(page, 0, "down.ones")).to_have_attribute("data-state", "locked")
        _cell(page, 0, "announce.max").click()
        expect(count).to_have_text("Noch nicht gesendet: 2")
        expect(_cell(page, 0, "announce.max").locator(".value")).to_have_text("28")
        expect(page.locator(".status .turn-name")).to_have_text("Ivo ist am Zug")
        expect(page.locator("#sheet-1 .announce-btn")).to_have_count(13)  # Ivo's turn now
        drawn_here = page.evaluate(_ANNOUNCE_BUTTONS)

        context.set_offline(False)
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "2")
        expect(_cell(page, 0, "announce.max")).to_have_text("28")  # the server's board
        assert page.evaluate(_ANNOUNCE_BUTTONS) == drawn_here  # as the server draws them

        context.set_offline(True)
        page.get_by_role("button", name="Ansage: Min", exact=True).click()
        expect(count).to_have_text("Noch nicht gesendet: 1")
        enter(url, game, "Ivo", "down.ones", "11123")  # another device, meanwhile
        context.set_offline(False)
        refused = page.locator(".status .kept-refused")
        expect(refused).to_contain_text("Ivo: Ansage: Min – Das Spiel wurde inzwischen geändert")
        refused.get_by_role("button", name="Verwerfen").click()
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "3")
        expect(page.locator(".status .kept-refused")).to_have_count(0)
    finally:
        context.close()
    events = _events(url, game)
    assert events[:2] == [
        {"type": "announce", "player": "Ana", "cell": "announce.max"},
        {"type": "enter", "player": "Ana", "cell": "announce.max", "dice": [5, 5, 6, 6, 6]}
        | {"roll": 2},
    ]
    assert [event["type"] for event in events[2:]] == ["enter"]


def _tray(page: Page) -> list[int]:
    faces: list[str] = page.locator(".roll .tray input").evaluate_all(
        "(boxes) => boxes.map((b) => b.value)"
    )
    return [int(face) for face in faces]


def test_virtual_dice_are_rolled_on_the_device_offline_and_sent_marked_as_such(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """With virtual dice and no server, "Würfeln" rolls on the device (two dice held on the
    second roll, three rolls a turn from the rules, a roll stands: no undo), the entry is kept;
    back online the rolls and the entry are stored in order, the rolls marked as made offline on
    this device."""
    url, _ = release
    body = {"variant": "kniffel", "players": ["Anna", "Ben"], "dice_mode": "virtual"}
    game = post(url + "/api/games", body)
    context, page = _open_with_rules_kept(browser, url, game)
    try:
        context.set_offline(True)
        count = page.locator(".status .kept-count")
        roll = page.locator(".roll-button")
        roll.click()  # the post finds no server: rolled here
        expect(count).to_have_text("Noch nicht gesendet: 1", timeout=90_000)
        expect(page.locator(".roll .tray input")).to_have_count(5)
        first = _tray(page)
        held = first[:2]
        page.locator(".roll .die-toggle").nth(0).click()
        page.locator(".roll .die-toggle").nth(1).click()
        roll.click()
        expect(count).to_have_text("Noch nicht gesendet: 2")
        expect(page.locator(".roll .tray")).to_have_attribute("data-rolled", "2")
        second = _tray(page)
        assert all(second.count(f) >= held.count(f) for f in held), (held, second)
        roll.click()
        expect(count).to_have_text("Noch nicht gesendet: 3")
        expect(roll).to_be_disabled()  # three rolls a turn
        expect(page.locator(".roll .roll-count")).to_have_text("3/3")
        expect(page.locator(".undo button")).to_be_disabled()  # a roll stands
        dice = _tray(page)
        expect(_cell(page, 0, "chance").locator(".preview")).to_have_text(str(sum(dice)))
        _cell(page, 0, "chance").click()
        expect(count).to_have_text("Noch nicht gesendet: 4")
        expect(page.locator(".status .turn-name")).to_have_text("Ben ist am Zug")
        expect(page.locator(".roll .tray")).to_have_count(0)
        expect(roll).to_be_enabled()

        context.set_offline(False)
        expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(page.locator("#board")).to_have_attribute("data-version", "4")
        expect(page.locator("#tab-0 .player-total")).to_have_text(str(sum(dice)))
        device = page.evaluate("localStorage.getItem('tafel:device')")
    finally:
        context.close()
    rolls = _events(url, game)
    assert [event["type"] for event in rolls] == ["roll", "roll", "roll", "enter"]
    assert [event.get("offline") for event in rolls] == [device, device, device, None]
    assert rolls[0]["dice"] == sorted(first) and rolls[1]["keep"] == sorted(held)
    assert rolls[2]["dice"] == sorted(dice)


def test_the_server_killed_while_a_phone_has_entries_pending_loses_none(
    browser: Browser, tmp_path: Path, preset_tables: None
) -> None:
    """``kill -9`` at the worst moment: the server has stored an entry and dies before its answer
    reaches the phone. The phone keeps that entry and two more; after the restart it sends them,
    finds the first already in the server's record (stored, not refused), and stores the rest."""
    port = _free_port()
    with board_process(tmp_path, BOARD, port=port) as (url, process):
        game = new_game(url, "kniffel", ["Anna", "Ben"])
        context, page = _open_with_rules_kept(browser, url, game)

        def store_then_die(route: Route) -> None:
            route.fetch()  # the server stores the entry and answers ...
            process.kill()  # ... and is killed (SIGKILL) before the answer reaches the phone
            process.wait()
            route.abort("connectionreset")

        page.route("**/enter", store_then_die)
        try:
            page.locator("#dice-input").focus()
            page.keyboard.type("11123")
            expect(_cell(page, 0, "ones").locator(".preview")).to_have_text("3")
            _cell(page, 0, "ones").click()
            expect(_cell(page, 0, "ones").locator(".value")).to_have_text("3", timeout=90_000)
            page.unroute("**/enter")
            _enter_offline(page, 1, "twos", "22234", "6")
            _enter_offline(page, 0, "threes", "33345", "9")
            expect(page.locator(".status .kept-count")).to_have_text("Noch nicht gesendet: 3")
        except BaseException:
            context.close()
            raise
    try:
        with board_process(tmp_path, BOARD, port=port):  # the same store, on the same port
            expect(page.locator("#board")).not_to_have_attribute(
                "data-kept", "true", timeout=60_000
            )
            expect(page.locator("#board")).to_have_attribute("data-version", "3")
            expect(page.locator(".status .kept-refused")).to_have_count(0)
            expect(page.locator("#tab-0 .player-total")).to_have_text("12")
            assert page.evaluate(_PENDING, [game["id"], "list", None]) == []
            assert _stored(url, game) == [("Anna", "ones"), ("Ben", "twos"), ("Anna", "threes")]
    finally:
        context.close()


def _another_device_enters(folder: Path, game: dict[str, Any], event: dict[str, Any]) -> None:
    """An entry stored while the board's process is down, as another device's would be once it is
    up again: through the board's own service, on the same store."""
    store = GameStore.open(f"sqlite:///{folder / 'kniffel.db'}")
    try:
        GameService(store, LocalHub()).apply(game["id"], game["key"], event)
    finally:
        store.close()


#: What the status line says of the changes kept on the device (WebDriver script).
_KEPT_COUNT = "return document.querySelector('.kept-count')?.textContent"


def _webkit_phone_loses_its_server(
    session: Session, folder: Path, port: int, body: dict[str, Any], fetch_rules: bool = False
) -> tuple[str, dict[str, Any]]:
    """A phone in WebKit on a new game (``body``: how it is created) once the page keeps its
    record and the worker the rules' files (``fetch_rules``: fetched at once, not 5 s later);
    then the board's process is killed (``kill -9``: no offline switch in WebKitWebDriver) and
    the page has noticed. The board's address (where it is started again) and the game."""
    session.resize(PHONE["width"], PHONE["height"])
    with board_process(folder, BOARD, port=port) as (url, process):
        game = post(url + "/api/games", body)
        session.go(url + "/")
        session.wait("return navigator.serviceWorker.controller !== null")
        session.go(url + game["url"])
        session.wait_for('.game[data-record="0"]')
        if fetch_rules:
            session.run(f"return {_FETCH_RULES}")
        session.wait(f"return {_RULES_KEPT}", seconds=60)
        process.kill()
        process.wait()
    session.wait_for('.game[data-live="closed"]')
    return url, game


@pytest.mark.webkit
def test_webkit_keeps_entries_made_with_the_server_killed_and_sends_them_when_it_is_back(
    webkit: Driver, tmp_path: Path, preset_tables: None
) -> None:
    """WebKit (iPhones' engine): the server killed (``kill -9``), the rules start in the page,
    two entries are kept and drawn, and Anna's second Kniffel typed shows its bonus beside the
    cells and its lines above the dice field; another device entered Anna's turn meanwhile. The
    server started again on its port: Anna's entry is refused in words, "enter again" sends
    Ben's and gives Anna's dice back into the dice field."""
    port = _free_port()
    with webkit.session() as session:
        body = {"variant": "kniffel", "players": ["Anna", "Ben"], "options": {"kniffel_bonus": 100}}
        url, game = _webkit_phone_loses_its_server(session, tmp_path, port, body)
        count = _KEPT_COUNT
        for seat, cell, dice, points, kept in (
            (0, "kniffel", "66666", "50", 1),
            (1, "twos", "22234", "6", 2),
        ):
            session.find("#dice-input").clear()
            session.find("#dice-input").click()
            session.find("#dice-input").type(dice)
            button = f"document.querySelector(\"[id='c{seat}-main.{cell}']\")"
            preview = f"return {button}.querySelector('.preview')?.textContent"
            assert session.wait(preview, seconds=120) == points
            # Out from under the dice field that stays at the foot of the screen.
            session.run(f"{button}.scrollIntoView({{block: 'center'}})")
            session.find(f"[id='c{seat}-main.{cell}']").click()
            session.wait(f"{count} === 'Noch nicht gesendet: {kept}'", seconds=60)
        assert session.run("return document.querySelector('.turn-name').textContent") == (
            "Anna ist am Zug"
        )
        cell = "return document.querySelector(\"[id='c0-main.kniffel']\").closest('td').className"
        assert session.run(cell) == "cell filled kept"
        session.find("#dice-input").click()
        session.find("#dice-input").type("66666")  # a second Kniffel: +100 beside the open cells
        sixes = "document.querySelector(\"[id='c0-main.sixes']\")"
        beside = f"{sixes}.nextElementSibling"  # the mark right after the cell's button
        mark = f"return {beside}?.className === 'kb' && {beside}.textContent"
        assert session.wait(mark, seconds=120) == "+100"
        lines = "return Array.from(document.querySelectorAll('.entry .extra-kniffel p'), (p) =>"
        lines += " p.textContent).join(' | ')"
        assert session.wait(lines, seconds=60) == (
            "Weiterer Kniffel! | +100 Kniffel-Bonus in der Spalte, in die du ihn einträgst. | "
            "Joker: Jedes erlaubte Feld; Full House, Kleine und Große Straße zählen voll."
        )
        session.find("#dice-input").clear()
        chance = {"type": "enter", "player": "Anna", "cell": "chance", "dice": [6, 6, 5, 5, 4]}
        _another_device_enters(tmp_path, game, chance)
        with board_process(tmp_path, BOARD, port=port):  # the same store, on the same port
            refused = "return document.querySelector('.kept-refused p')?.textContent"
            assert session.wait(refused, seconds=60).startswith("Anna: kniffel – ")
            session.find(".kept-refused button").click()  # Nochmal eintragen
            field = "return document.querySelector('#dice-input').value"
            drawn = "document.querySelector('#board').dataset.kept === undefined"
            assert session.wait(f"{field} === '66666' && {drawn}")
            assert session.run("return document.querySelector('#board').dataset.version") == "2"
            assert _stored(url, game) == [("Anna", "chance"), ("Ben", "twos")]


@pytest.mark.webkit
@OTHER_ENGINE  # the chromium test above runs in CI; this one costs a Pyodide start in WebKit (30 s)
def test_webkit_keeps_an_announcement_made_with_the_server_killed_and_sends_it_before_its_entry(
    webkit: Driver, tmp_path: Path, preset_tables: None
) -> None:
    """WebKit (iPhones' engine), Jamb with real dice, the server killed: Ana announces Max and
    enters her dice there, both kept and drawn by the rules in the page. The server started
    again: the announcement and the entry are stored in order."""
    port = _free_port()
    with webkit.session() as session:
        body = {"variant": "jamb", "players": ["Ana", "Ivo"]}
        url, game = _webkit_phone_loses_its_server(session, tmp_path, port, body)
        count = _KEPT_COUNT
        announce = session.find("[id='c0-announce.max'] ~ .announce-btn")
        announce.swipe_to()
        announce.click()
        session.wait(f"{count} === 'Noch nicht gesendet: 1'", seconds=120)
        td = "document.querySelector(\"[id='c0-announce.max']\").closest('td')"
        assert session.run(f"return {td}.className") == "cell waiting announced kept"
        assert session.run("return document.querySelectorAll('.announce-btn').length") == 0
        locked = "return document.querySelector(\"[id='c0-free.sixes']\").dataset.state"
        assert session.run(locked) == "locked"
        session.find("#dice-input").click()
        session.find("#dice-input").type("66655")
        session.find('[data-rolls="2"]').click()
        preview = f"return {td}.querySelector('.preview')?.textContent"
        assert session.wait(preview, seconds=60) == "28"
        session.find("[id='c0-announce.max']").click()
        session.wait(f"{count} === 'Noch nicht gesendet: 2'", seconds=60)
        with board_process(tmp_path, BOARD, port=port):  # the same store, on the same port
            drawn = "document.querySelector('#board').dataset.kept === undefined"
            session.wait(f"return {drawn} && !document.querySelector('.kept-count')", seconds=60)
            assert [(e["type"], e["player"], e["cell"]) for e in _events(url, game)] == [
                ("announce", "Ana", "announce.max"),
                ("enter", "Ana", "announce.max"),
            ]


@pytest.mark.webkit
def test_webkit_rolls_virtual_dice_with_the_server_killed_and_takes_back_a_kept_entry(
    webkit: Driver, tmp_path: Path, preset_tables: None
) -> None:
    """WebKit (iPhones' engine), the server killed: "Würfeln" rolls on the device, the entry is
    kept; "Rückgängig" takes the kept entry back (the roll stands, its dice pending again), and
    it is entered again. The server started again: the roll and the entry are stored, the roll
    marked as made offline."""
    port = _free_port()
    body = {"variant": "kniffel", "players": ["Anna", "Ben"], "dice_mode": "virtual"}
    with webkit.session() as session:
        url, game = _webkit_phone_loses_its_server(session, tmp_path, port, body, fetch_rules=True)
        count = "document.querySelector('.kept-count')?.textContent"
        session.find(".roll-button").click()
        session.wait(f"return {count} === 'Noch nicht gesendet: 1'", seconds=120)
        dice = session.run(
            "return [...document.querySelectorAll('.tray input')].map(b => +b.value)"
        )
        assert len(dice) == 5
        # The notes follow the roll, in the server's words (tafel/notes.js): a roll stands.
        notes = f"return {NOTES}"
        assert session.run(notes) == {
            "bonus": [["noch 63 bis zum Bonus"], ["noch 63 bis zum Bonus"]],
            "rolls": "Wurf 1 von 3 · noch 2 Würfe",
            "hint": "Zum Halten antippen.",
            "undo": "Ein Wurf mit virtuellen Würfeln gilt; er wird nicht zurückgenommen",
        }
        ones = "document.querySelector(\"[id='c0-main.ones']\")"  # above the dice panel
        points = str(dice.count(1))
        assert session.wait(f"return {ones}.querySelector('.preview')?.textContent") == points
        for kept in (2, 1, 2):  # entered, taken back, entered again
            if kept == 1:
                session.find(".undo button").click()
            else:
                cell = session.find("[id='c0-main.ones']")
                cell.swipe_to()  # the page scrolled with the sheet drawn again
                cell.click()
            session.wait(f"return {count} === 'Noch nicht gesendet: {kept}'", seconds=60)
        assert session.run(f"return {ones}.textContent.trim()") == points
        offline = session.run(notes)
        assert offline["undo"] == (
            f"Macht rückgängig: Eintrag von Anna: Einser ({points}). Danach ist Anna wieder dran."
        )
        with board_process(tmp_path, BOARD, port=port):  # the same store, on the same port
            drawn = "document.querySelector('#board').dataset.kept === undefined"
            session.wait(f"return {drawn} && {count} === undefined", seconds=60)
            events = _events(url, game)
            assert session.run(notes) == offline  # the server draws the same notes
    device = events[0]["offline"]
    assert len(device) == 16
    assert events == [
        {"type": "roll", "player": "Anna", "dice": sorted(dice), "offline": device},
        {"type": "enter", "player": "Anna", "cell": "main.ones"},
    ]


#: Rauf-Runter's down column, row by row: each row's dice and their points.
_DOWN = [
    ("ones", "11123", "3"),
    ("twos", "22234", "6"),
    ("threes", "33345", "9"),
    ("fours", "44456", "12"),
    ("fives", "55561", "15"),
    ("sixes", "66612", "18"),
    ("three_kind", "33312", "12"),
    ("four_kind", "44441", "17"),
    ("full_house", "22333", "25"),
    ("small_straight", "12346", "30"),
]


def test_two_phones_play_twenty_entries_offline_and_every_entry_is_stored_in_order(
    browser: Browser, release: tuple[str, Path]
) -> None:
    """Issue 31's test: two devices holding the game's key, 20 entries offline between them (one
    reloaded offline), one turn entered on both: every entry stored in order, the conflict
    refused in words and entered again in one tap, the totals right on both."""
    url, _ = release
    game = new_game(url, "rauf-runter", ["Anna", "Ben"])
    first, one = _open_with_rules_kept(browser, url, game)
    second, two = _open_with_rules_kept(browser, url, game)
    # Both players' rows of the down column, in turn: (seat, cell, dice, points).
    moves = [
        (n % 2, f"down.{cell}", dice, points)
        for n, (cell, dice, points) in enumerate(row for row in _DOWN for _ in (0, 1))
    ]
    try:
        # The first phone alone loses the network for nine entries, and is reloaded meanwhile.
        first.set_offline(True)
        for n, move in enumerate(moves[:9]):
            if n == 5:
                one.reload()
                expect(one.locator(".status .kept-count")).to_have_text(
                    "Noch nicht gesendet: 5", timeout=90_000
                )
            _enter_offline(one, *move)
        expect(one.locator(".status .kept-count")).to_have_text("Noch nicht gesendet: 9")
        first.set_offline(False)
        for page in (one, two):
            expect(page.locator("#board")).to_have_attribute("data-version", "9")
            expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")

        # Then both: the second phone enters ten turns, the first Ben's turn that the second
        # phone entered too.
        first.set_offline(True)
        second.set_offline(True)
        for move in moves[9:19]:
            _enter_offline(two, *move)
        _enter_offline(one, 1, "free.chance", "66554", "26")
        second.set_offline(False)
        expect(two.locator("#board")).to_have_attribute("data-version", "19")
        expect(two.locator(".status .kept-count")).to_have_count(0)
        first.set_offline(False)
        refused = one.locator(".status .kept-refused")
        expect(refused).to_contain_text("Ben: free.chance – ")
        assert refused.locator("p").inner_text().split(" – ", 1)[1].strip()
        refused.get_by_role("button", name="Nochmal eintragen").click()
        for page in (one, two):
            expect(page.locator("#board")).to_have_attribute("data-version", "20")
            expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
        expect(one.locator(".status .kept-refused")).to_have_count(0)
        expect(one.locator(".status .kept-count")).to_have_count(0)
        with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
            record = json.load(answer)
        totals = [str(player["total"]) for player in sheet_state(record, [])["players"]]
        assert totals == ["182", "178"]  # 63 + 35 + the lower rows; Ben's with his chance
        for page in (one, two):
            expect(page.locator("#tab-0 .player-total")).to_have_text(totals[0])
            expect(page.locator("#tab-1 .player-total")).to_have_text(totals[1])
    finally:
        first.close()
        second.close()
    expected = [("Anna" if seat == 0 else "Ben", cell) for seat, cell, _, _ in moves[:19]]
    assert _stored(url, game) == [*expected, ("Ben", "free.chance")]


def _webkit_enters(session: Session, seat: int, cell: str, dice: str, points: str) -> None:
    """Dice typed and a cell tapped in WebKit with no server: the preview from the rules in the
    page, the entry kept."""
    field = session.find("#dice-input")
    field.clear()
    field.click()
    field.type(dice)
    button = f"document.querySelector(\"[id='c{seat}-{cell}']\")"
    preview = f"return {button}.querySelector('.preview')?.textContent"
    assert session.wait(preview, seconds=120) == points
    session.find(f"[id='c{seat}-{cell}']").click()
    session.wait(f"return {button}.closest('td').className === 'cell filled kept'", seconds=60)


@pytest.mark.webkit
@OTHER_ENGINE  # the chromium twin above runs in CI; this one costs a Pyodide start in WebKit
def test_a_webkit_and_a_chromium_phone_play_twenty_entries_with_the_server_stopped(
    webkit: Driver, browser: Browser, tmp_path: Path, preset_tables: None
) -> None:
    """Issue 31's test "where WebKit allows it": an iPhone (WebKit) and an Android phone
    (chromium) on one Rauf-Runter game, the board killed twice. The iPhone makes ten entries,
    reloaded after five, while the other phone, which sees none of them, enters Anna's turn: back
    online, the ten are stored, the other phone's entry is refused in words and entered again in
    one tap. Then the other phone makes nine entries while the board is down again: every entry
    stored in order, the totals right on both."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    rows = [(f"down.{cell}", dice, points) for cell, dice, points in _DOWN]
    first = [(n % 2, *rows[n // 2]) for n in range(10)]  # both players' first five rows
    # Anna's turn went to her Chance: Ben's sixth row first, then both players' rows in turn.
    second = [(1 - n % 2, *rows[5 + n // 2]) for n in range(9)]
    count = _KEPT_COUNT
    board = "document.querySelector('#board').dataset"
    with webkit.session() as iphone:
        iphone.resize(PHONE["width"], PHONE["height"])
        with board_process(tmp_path, BOARD, port=port) as (_, process):
            game = new_game(url, "rauf-runter", ["Anna", "Ben"])
            context, android = _open_with_rules_kept(browser, url, game)
            iphone.go(url + "/")
            iphone.wait("return navigator.serviceWorker.controller !== null")
            iphone.go(url + game["url"])
            iphone.wait_for('.game[data-record="0"]')
            iphone.run(f"return {_FETCH_RULES}")
            iphone.wait(f"return {_RULES_KEPT}", seconds=60)
            process.kill()
            process.wait()
        try:
            for n, move in enumerate(first):
                if n == 5:
                    iphone.go(url + game["url"])  # reloaded with no server: from the worker
                    iphone.wait(f"{count} === 'Noch nicht gesendet: 5'", seconds=120)
                _webkit_enters(iphone, *move)
            iphone.wait(f"{count} === 'Noch nicht gesendet: 10'")
            _enter_offline(android, 0, "free.chance", "66554", "26")
            context.set_offline(True)  # its Wi-Fi comes back after the iPhone has sent
            with board_process(tmp_path, BOARD, port=port) as (_, process):
                sent = f"return {board}.version === '10' && !('kept' in {board})"
                iphone.wait(sent, seconds=120)
                context.set_offline(False)
                refused = android.locator(".status .kept-refused")
                expect(refused).to_contain_text("Anna: ", timeout=60_000)
                refused.get_by_role("button", name="Nochmal eintragen").click()
                expect(android.locator("#board")).to_have_attribute("data-version", "11")
                iphone.wait(f"return {board}.version === '11'", seconds=60)
                process.kill()
                process.wait()
            for move in second:
                _enter_offline(android, *move)
            expect(android.locator(".status .kept-count")).to_have_text("Noch nicht gesendet: 9")
            with board_process(tmp_path, BOARD, port=port):
                expect(android.locator("#board")).not_to_have_attribute(
                    "data-kept", "true", timeout=60_000
                )
                expect(android.locator("#board")).to_have_attribute("data-version", "20")
                iphone.wait(f"return {board}.version === '20'", seconds=120)
                with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
                    record = json.load(answer)
                totals = [str(p["total"]) for p in sheet_state(record, [])["players"]]
                for seat, total in enumerate(totals):
                    expect(android.locator(f"#tab-{seat} .player-total")).to_have_text(total)
                    tab = f"document.querySelector('#tab-{seat} .player-total')"
                    iphone.wait(f"return {tab}.textContent === '{total}'", what=f"{seat}: {total}")
                names = ["Anna", "Ben"]
                expected = [(names[seat], cell) for seat, cell, _, _ in first]
                expected += [("Anna", "free.chance")]
                expected += [(names[seat], cell) for seat, cell, _, _ in second]
                assert _stored(url, game) == expected
        finally:
            context.close()
