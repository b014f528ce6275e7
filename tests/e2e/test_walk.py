"""The walk of issue 8, repeated by a script in chromium at phone size (390×844, touch).

A family at the table plays through the page as a new user would: a two-player
Rauf-Runter-Kniffel game with real dice (typed on the keyboard and tapped on the pad, an undo,
a correction, a cleared cell, half of it on a second phone that joined through the share link),
a person against the strong bot with virtual dice, classic Kniffel with house rules and the
forced joker, and four players whose names and totals all stay in view.

After every change :func:`check` compares each open page with the game as the JSON API states
it: every cell, every total, the due marks (from :func:`kniffel.rules.scoring.due_index`), who is
to move, the previews (only on the front sheet, exactly the API's preview for the dice the page
holds, none without dice) and where the focus went. Nothing here is a hard-coded score: the dice
come from a seeded generator and every expected number from the API.
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from kniffel.rules import Discipline
from kniffel.rules.scoring import due_index

from .conftest import PHONE

pytestmark = pytest.mark.e2e

T = TypeVar("T")

#: What a page shows, read in one go (cells by id, tabs, turn, typed dice, focus).
_SNAPSHOT = """() => {
  const board = document.querySelector("#board");
  const text = (el) => (el ? el.textContent.trim() : null);
  const active = document.activeElement;
  return {
    version: board.dataset.version,
    turn: text(document.querySelector(".turn-name")),
    over: !!document.querySelector(".turn.over"),
    tabs: [...document.querySelectorAll(".player-tab")].map((tab) => ({
      seat: Number(tab.id.replace("tab-", "")),
      name: text(tab.querySelector(".player-name")),
      total: text(tab.querySelector(".player-total")),
      selected: tab.getAttribute("aria-selected") === "true",
    })),
    cells: [...document.querySelectorAll(".sheet td.cell")].map((td) => {
      const button = td.querySelector(".cell-btn");
      return {
        id: button.id,
        back: td.closest(".sheet").classList.contains("is-back"),
        due: td.classList.contains("due"),
        value: text(button.querySelector(".value")),
        preview: text(button.querySelector(".preview")),
      };
    }),
    dice: (document.querySelector("#dice-input") || { value: null }).value,
    virtual: document.querySelectorAll(".tray input[data-die]").length > 0,
    active: active ? active.id : null,
    activeIsCell: !!(active && active.closest && active.closest(".cell-btn")),
  };
}"""


def get(server: str, path: str) -> Any:
    with urllib.request.urlopen(server + path, timeout=10) as response:
        return json.load(response)


def eventually(read: Callable[[], T], ok: Callable[[T], bool], seconds: float = 20) -> T:
    """``read()`` until ``ok`` holds (the page settles after a request); the last reading."""
    deadline = time.monotonic() + seconds
    value = read()
    while not ok(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value


def game_id(page: Page) -> str:
    found = page.locator(".game").get_attribute("data-game")
    assert found
    return found


def cell(page: Page, seat: int, name: str) -> Locator:
    return page.locator(f'[id="c{seat}-{name}"]')


def seat_of(state: dict[str, Any], name: str) -> int:
    return [p["name"] for p in state["players"]].index(name)


def expected_cells(state: dict[str, Any]) -> dict[str, tuple[int | None, bool]]:
    """Every cell's points and due mark as the game states them (the rules say which is due)."""
    disciplines = {c["id"]: Discipline(c["discipline"]) for c in state["columns"]}
    found: dict[str, tuple[int | None, bool]] = {}
    for seat, player in enumerate(state["players"]):
        for column, sheet in player["columns"].items():
            values = [sheet["cells"][row] for row in state["rows"]]
            due = (
                None
                if state["finished"]
                else due_index(disciplines[column], [v is not None for v in values])
            )
            for i, row in enumerate(state["rows"]):
                found[f"c{seat}-{column}.{row}"] = (values[i], due == i)
    return found


def previews_due(server: str, state: dict[str, Any], shown: dict[str, Any]) -> dict[str, int]:
    """What the front sheet must preview: the API's entries for the dice the page holds."""
    turn = state["turn"]
    if turn is None:
        return {}
    seat = seat_of(state, turn["player"])
    if shown["virtual"]:
        entries = state["entries"]
    elif shown["dice"] and len(shown["dice"]) == 5:
        entries = get(server, f"/api/games/{state['id']}/preview?dice={shown['dice']}")["entries"]
    else:
        return {}
    return {f"c{seat}-{e['cell']}": e["points"] for e in entries}


def check(page: Page, server: str, *, after_keyboard: bool = False) -> dict[str, Any]:
    """The page shows what the game says; the game's state comes back."""
    state = get(server, f"/api/games/{game_id(page)}")
    expect(page.locator("#board")).to_have_attribute("data-version", str(state["version"]))
    page.wait_for_function("() => !document.querySelector('.htmx-request')")

    def settled() -> tuple[dict[str, Any], dict[str, int]]:
        shown = page.evaluate(_SNAPSHOT)
        return shown, previews_due(server, state, shown)

    def previews(shown: dict[str, Any]) -> dict[str, int]:
        return {c["id"]: int(c["preview"]) for c in shown["cells"] if c["preview"] is not None}

    shown, due_previews = eventually(settled, lambda s: previews(s[0]) == s[1])
    tabs = sorted(shown["tabs"], key=lambda t: t["seat"])
    assert [t["name"] for t in tabs] == [p["name"] for p in state["players"]]
    totals = [int(t["total"].replace(".", "")) for t in tabs]
    assert totals == [p["total"] for p in state["players"]], (totals, state["players"])
    if state["turn"] is None:
        assert shown["over"]
    else:
        assert shown["turn"] == f"{state['turn']['player']} ist am Zug"
    cells = {
        c["id"]: (None if c["value"] is None else int(c["value"]), c["due"]) for c in shown["cells"]
    }
    assert cells == expected_cells(state)
    # Previews: only the front sheet, only the dice this page holds, exactly what they score.
    assert [c["id"] for c in shown["cells"] if c["back"] and c["preview"] is not None] == []
    assert previews(shown) == due_previews
    if after_keyboard:
        assert shown["active"] == "dice-input", shown["active"]
    else:
        assert not shown["activeIsCell"], shown["active"]
    return state


def changed(page: Page, server: str, before: int, **options: bool) -> dict[str, Any]:
    """After a tap or key that changes the game: the page moves past ``before``; :func:`check`."""
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    return check(page, server, **options)


def phone(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)


def new_game_on_the_start_page(
    page: Page, server: str, variant: str, players: list[str], seats: dict[str, str] | None = None
) -> None:
    page.goto(server + "/")
    for n, name in enumerate(players, start=1):
        field = page.get_by_label(f"Name von Spieler {n}")
        if not field.is_visible():
            page.get_by_role("button", name=re.compile("Spieler hinzufügen")).tap()
        field.fill(name)
        if seats and name in seats:
            page.get_by_label(f"Wer spielt Platz {n}").select_option(label=seats[name])
    page.get_by_role("radio", name=re.compile(variant)).check()
    if seats and any(seat.startswith("Bot") for seat in seats.values()):
        # A bot rolls virtual dice, and the form says so: the family chooses them.
        page.get_by_role("radio", name=re.compile("^Virtuelle Würfel")).check()


def start(page: Page) -> None:
    page.get_by_role("button", name="Spiel beginnen").tap()
    expect(page.locator(".game")).to_have_attribute("data-live", "open")


# ------------------------------------------------------------------ moves through the page


def type_on_keyboard(page: Page, dice: str) -> None:
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)


def type_on_pad(page: Page, dice: str) -> None:
    for face in dice:
        page.locator(f'.pad-key[data-face="{face}"]').tap()


def lift_finger(page: Page) -> None:
    """A tap on the status line (no control) before the next tap on the sheet.

    A script taps far faster than a hand: two taps on one spot within the browser's
    double-click time count as a double tap (``detail`` 2), which the board rightly drops
    (tests/e2e/test_board_state.py). A person's finger always lands elsewhere in between.
    """
    page.locator(".status").tap()


def best_entry(server: str, page: Page, dice: str | None = None) -> dict[str, Any]:
    """The entry a careful player takes: the most points (the first of equals)."""
    path = f"/api/games/{game_id(page)}/preview" + (f"?dice={dice}" if dice else "")
    entries: list[dict[str, Any]] = get(server, path)["entries"]
    return max(entries, key=lambda e: e["points"] + e["kniffel_bonus"])


def enter_by_tap(page: Page, server: str, dice: str, *, pad: bool = False) -> dict[str, Any]:
    """The player to move types ``dice`` and taps the best cell; the new state comes back."""
    before = check(page, server)
    (type_on_pad if pad else type_on_keyboard)(page, dice)
    check(page, server)  # the previews are the API's, on the mover's sheet alone
    seat = seat_of(before, before["turn"]["player"])
    entry = best_entry(server, page, dice)
    lift_finger(page)
    cell(page, seat, entry["cell"]).tap()
    return changed(page, server, before["version"])


def enter_by_keyboard(page: Page, server: str, dice: str) -> dict[str, Any]:
    """Dice typed, Enter to the cells, Enter on the first open one: focus goes to the dice."""
    before = check(page, server)
    type_on_keyboard(page, dice)
    check(page, server, after_keyboard=True)
    page.keyboard.press("Enter")
    focused = page.evaluate("() => document.activeElement.value")
    seat = seat_of(before, before["turn"]["player"])
    allowed = {
        e["cell"] for e in get(server, f"/api/games/{before['id']}/preview?dice={dice}")["entries"]
    }
    assert focused in allowed
    page.keyboard.press("Enter")
    after = changed(page, server, before["version"], after_keyboard=True)
    assert (
        after["players"][seat]["columns"][focused.split(".")[0]]["cells"][focused.split(".")[1]]
        is not None
    )
    return after


def dice_from(rng: random.Random) -> str:
    return "".join(str(rng.randint(1, 6)) for _ in range(5))


# ------------------------------------------------------------------ the walk


@pytest.mark.slow
def test_the_walk_of_issue_8_two_players_rauf_runter_on_two_phones(
    browser: Browser, server: str
) -> None:
    rng = random.Random(8)
    a_context, b_context = phone(browser), phone(browser)
    a = a_context.new_page()
    errors: list[str] = []
    a.on("pageerror", lambda error: errors.append(str(error)))
    new_game_on_the_start_page(a, server, "Rauf-Runter-Kniffel", ["Anna", "Ben"])
    start(a)
    state = check(a, server)
    assert state["variant"] == "rauf-runter" and state["dice_mode"] == "physical"

    # Back after creating the game: the start page is the server's, with the new game on it.
    a.go_back()
    expect(a.locator(f'a[href*="/g/{state["id"]}"]').first).to_be_visible()
    a.go_forward()
    expect(a.locator(".game")).to_have_attribute("data-live", "open")

    # The second phone joins through the share link (its QR code says the same).
    a.locator(".share summary").tap()
    link = a.locator("#play-url").input_value()
    assert link.startswith(server) and "#key=" in link
    a.locator(".share summary").tap()
    b = b_context.new_page()
    b.on("pageerror", lambda error: errors.append(str(error)))
    b.goto(link)
    expect(b.locator(".game")).to_have_attribute("data-live", "open")
    expect(b.locator("#dice-input")).to_be_visible()  # it may enter: the key came along
    check(b, server)

    # Anna taps on her phone, Ben types on the pad of his; both pages follow every entry.
    for _round in range(2):
        enter_by_tap(a, server, dice_from(rng))
        check(b, server)
        enter_by_tap(b, server, dice_from(rng), pad=True)
        check(a, server)
    # Anna by keyboard: after the entry the focus waits in Ben's dice field.
    enter_by_keyboard(a, server, dice_from(rng))
    check(b, server)

    # Undo says before it is pressed whose turn it gives back.
    note = b.locator("#undo-note")
    note.scroll_into_view_if_needed()
    expect(note).to_contain_text("Danach ist Anna wieder dran.")
    expect(note).to_be_in_viewport()
    before = get(server, f"/api/games/{state['id']}")
    b.get_by_role("button", name=re.compile("Rückgängig")).tap()
    state = changed(b, server, before["version"])
    assert state["turn"]["player"] == "Anna" and state["version"] == before["version"] + 1
    check(a, server)
    enter_by_tap(a, server, dice_from(rng))

    # Ben corrects one of Anna's cells on his phone (her tab, the filled cell, new points).
    anna = [
        (column, row, points)
        for column, sheet in state["players"][0]["columns"].items()
        for row, points in sheet["cells"].items()
        if points is not None
    ]
    column, row, old = anna[0]
    b.get_by_role("tab").filter(has_text="Anna").tap()
    target = cell(b, 0, f"{column}.{row}")
    target.tap()
    dialog = b.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#clear-note")).to_have_text(
        "Ein geleertes Feld einer Pfeil-Spalte ist wieder Pflicht."
    )
    possible = [int(p) for p in re.findall(r"\d+", target.get_attribute("data-possible") or "")]
    new = next(p for p in possible if p != old)
    dialog.get_by_label("Neue Punkte").fill(str(new))
    dialog.get_by_role("button", name="Speichern").tap()
    expect(dialog).to_be_hidden()
    state = changed(b, server, state["version"])
    assert state["players"][0]["columns"][column]["cells"][row] == new
    check(a, server)

    # Anna clears a cell of an arrow column on her phone: it is due again, and play goes on.
    arrows = [(c, r) for c, r, _ in anna if c != "free"] or [(c, r) for c, r, _ in anna]
    column, row = arrows[-1]
    a.get_by_role("tab").filter(has_text="Anna").tap()
    cell(a, 0, f"{column}.{row}").tap()
    a.get_by_role("dialog").get_by_role("button", name="Feld leeren").tap()
    expect(a.get_by_role("dialog")).to_be_hidden()
    state = changed(a, server, state["version"])
    assert state["players"][0]["columns"][column]["cells"][row] is None
    if column != "free":
        expect(a.locator(f'td.cell.due:has([id="c0-{column}.{row}"])')).to_have_count(1)
    check(b, server)
    # Whoever is to move now (the sheets say: the fewest filled cells) plays on, then the other.
    for _ in range(3):
        mover = get(server, f"/api/games/{state['id']}")["turn"]["player"]
        page = a if mover == "Anna" else b
        state = enter_by_tap(page, server, dice_from(rng), pad=mover == "Ben")
        check(b if page is a else a, server)

    assert errors == []
    a_context.close()
    b_context.close()


@pytest.mark.slow
def test_the_walk_of_issue_8_a_person_against_the_strong_bot(browser: Browser, server: str) -> None:
    context = phone(browser)
    page = context.new_page()
    new_game_on_the_start_page(page, server, "^Kniffel", ["Clara", "Robo"], {"Robo": "Bot: stark"})
    start(page)
    state = check(page, server)
    assert state["bots"] == {"Robo": "best"} and state["dice_mode"] == "virtual"
    for turn in range(3):
        page.get_by_role("button", name=re.compile("Würfeln")).tap()
        state = changed(page, server, state["version"])
        if turn == 1:  # hold the first two dice and roll again
            toggles = page.locator(".die-toggle")
            toggles.nth(0).tap()
            toggles.nth(1).tap()
            held = state["turn"]["dice"][:2]
            page.get_by_role("button", name=re.compile("Würfeln")).tap()
            state = changed(page, server, state["version"])
            assert not Counter(held) - Counter(state["turn"]["dice"])  # the held faces stayed
        entry = max(state["entries"], key=lambda e: e["points"])
        lift_finger(page)
        cell(page, 0, entry["cell"]).tap()
        # The bot takes its turn by itself; the page follows it live.
        state = eventually(
            lambda: get(server, f"/api/games/{game_id(page)}"),
            lambda s: s["turn"]["player"] == "Clara" and s["turn"]["rolls"] == 0,
            seconds=120,
        )
        state = check(page, server)
        robo = state["players"][1]["columns"]["main"]["cells"]
        assert sum(v is not None for v in robo.values()) == turn + 1
    context.close()


@pytest.mark.slow
def test_the_walk_of_issue_8_classic_kniffel_with_the_forced_joker(
    browser: Browser, server: str
) -> None:
    context = phone(browser)
    page = context.new_page()
    new_game_on_the_start_page(page, server, "^Kniffel", ["Dora", "Emil"])
    page.locator(".house-rules summary").tap()
    page.get_by_role("radio", name=re.compile("^Pflicht")).check()
    page.locator("#kniffel-bonus").fill("50")
    start(page)
    state = check(page, server)
    assert state["options"]["joker"] == "forced" and state["options"]["kniffel_bonus"] == 50

    enter_by_tap(page, server, "44444")  # Dora's Kniffel
    enter_by_tap(page, server, "12356")
    # A further Kniffel of fours: the forced joker allows only the Vierer.
    type_on_keyboard(page, "44444")
    state = check(page, server)
    expect(page.locator(".extra-kniffel")).to_be_visible()
    entries = get(server, f"/api/games/{state['id']}/preview?dice=44444")["entries"]
    assert [e["cell"] for e in entries] == ["main.fours"]
    locked = cell(page, 0, "main.full_house")
    lift_finger(page)
    locked.tap(force=True)  # a finger taps what Playwright calls disabled
    toast = page.locator("#toast")
    expect(toast).to_have_text(locked.get_attribute("data-reason") or "?")
    expect(toast).to_be_in_viewport()
    assert get(server, f"/api/games/{state['id']}")["version"] == state["version"]
    lift_finger(page)
    cell(page, 0, "main.fours").tap()
    state = changed(page, server, state["version"])
    assert state["players"][0]["columns"]["main"]["kniffel_bonus"] == 50
    enter_by_tap(page, server, "66655")
    # With the Vierer full the joker goes to the lower block, at full points.
    type_on_keyboard(page, "44444")
    state = check(page, server)
    expect(page.locator(".extra-kniffel")).to_be_visible()
    entry = best_entry(server, page, "44444")
    assert entry["joker"] and entry["cell"] not in ("main.fours", "main.kniffel")
    lift_finger(page)
    cell(page, 0, entry["cell"]).tap()
    state = changed(page, server, state["version"])
    assert state["players"][0]["columns"]["main"]["kniffel_bonus"] == 100
    context.close()


@pytest.mark.slow
def test_the_walk_of_issue_8_four_players_keep_every_name_and_total_in_view(
    browser: Browser, server: str
) -> None:
    rng = random.Random(4)
    names = ["Annemarie Sophie", "Bartholomäus", "Christiane Charlotte", "Dietrich"]
    context = phone(browser)
    page = context.new_page()
    new_game_on_the_start_page(page, server, "Rauf-Runter-Kniffel", names)
    start(page)
    for number in range(8):  # two rounds
        if number % 3 == 2:
            enter_by_keyboard(page, server, dice_from(rng))
        else:
            enter_by_tap(page, server, dice_from(rng), pad=number % 2 == 1)
        for name in names:
            tab = page.get_by_role("tab", name=re.compile(re.escape(name)))
            expect(tab).to_be_in_viewport(ratio=1)
            expect(tab.locator(".player-total")).to_be_in_viewport(ratio=1)
    context.close()


def test_the_friction_of_issue_8_is_gone(browser: Browser, server: str) -> None:
    """An unknown path shows the board's page (the API keeps JSON); Dreifach's correction
    dialog speaks of no arrow columns."""
    context = phone(browser)
    page = context.new_page()
    answer = page.goto(server + "/nothing")
    assert answer is not None and answer.status == 404
    expect(page.get_by_text("Seite nicht gefunden.")).to_be_visible()
    expect(page.locator('a[href="/"]').first).to_be_visible()
    api = page.request.get(server + "/api/nothing")
    assert api.status == 404 and api.json()["code"] == "not_found"

    new_game_on_the_start_page(page, server, "Dreifach-Kniffel", ["Anna", "Ben"])
    start(page)
    enter_by_tap(page, server, "66655")
    page.get_by_role("tab").filter(has_text="Anna").tap()
    filled = page.locator("#sheet-0 td.cell.filled .cell-btn").first
    filled.tap()
    note = page.get_by_role("dialog").locator("#clear-note")
    expect(note).to_have_text(
        "Ein geleertes Feld ist wieder offen; dran ist, wer die wenigsten Felder gefüllt hat."
    )
    expect(page.get_by_role("dialog")).not_to_contain_text("Pfeil")
    context.close()
