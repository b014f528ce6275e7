"""The board on every phone at the table: nothing sticky or fixed covers the sheet (issue 19).

Measured as geometry, the way a finger meets it: for each due cell, scrolled into view
the way the page scrolls it (``scrollIntoView({block: "nearest"})``, which keeps the cells'
``scroll-margin`` clear of the turn line, the player strip, the column heads and the entry
panel), ``document.elementFromPoint`` at its centre must be the cell itself; the column
heads likewise, wherever the sheet is scrolled. The player strip is one row. One page is
reused for all sizes and player counts; the games come from the JSON API.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_board_state import new_game

pytestmark = pytest.mark.e2e

SIZES = [
    {"width": 360, "height": 640},
    {"width": 390, "height": 844},
    {"width": 430, "height": 932},
]
NAMES = ["Anna", "Ben", "Çağla", "Dietrich", "Emilia Sophie", "Friedrich", "Gül", "Hannelore"]

# Every due cell of the sheet in front, scrolled into view from the top and from the bottom of
# the page as the page does it; then the cell and every column head must be what a tap at
# their centre meets. Returns what was covered, and by what, in words.
COVERED = """
() => {
  const name = (el) => !el ? "nothing" : el.id ? "#" + el.id
    : [el.tagName.toLowerCase(), ...String(el.className).split(/\\s+/).filter(Boolean)].join(".");
  const sheet = document.querySelector(".sheet:not(.is-back)");
  const due = Array.from(sheet.querySelectorAll("td.cell.due"));
  const heads = Array.from(sheet.querySelectorAll("thead th.col-head"));
  const found = [];
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && el.contains(hit)) return;
    found.push(`${what} at (${Math.round(x)}, ${Math.round(y)}) meets ${name(hit)}`);
  };
  const bottom = document.documentElement.scrollHeight;
  for (const [from, start] of [["top", 0], ["bottom", bottom]]) {
    for (const cell of due) {
      window.scrollTo(0, start);
      cell.scrollIntoView({ block: "nearest" });
      const label = cell.querySelector(".cell-btn").id;
      check(cell, `due cell ${label} (from the ${from})`);
      for (const head of heads) check(head, `column head ${head.textContent.trim()} by ${label}`);
    }
  }
  window.scrollTo(0, 0);
  return { due: due.length, found };
}
"""

# The player strip is one row: every tab starts at the same height.
ROWS = """
() => new Set(Array.from(document.querySelectorAll("#board .player-tab"))
    .map((tab) => Math.round(tab.getBoundingClientRect().top + window.scrollY))).size
"""


@pytest.fixture(scope="module")
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=SIZES[1], locale="de-DE", has_touch=True)
    yield context.new_page()
    context.close()


def show_chances(page: Page, on: bool, players: int) -> None:
    page.locator("[data-chances-switch]").set_checked(on)
    # The first chances of a game are computed while the page waits: generous on a busy machine.
    chances = page.locator("#board .player-chance")
    expect(chances).to_have_count(players if on else 0, timeout=60_000)


def covered_places(page: Page) -> list[str]:
    """What covers a due cell or a column head, for each size, as one list of lines."""
    found: list[str] = []
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_function(f"() => window.innerWidth === {size['width']}")
        result = page.evaluate(COVERED)
        assert result["due"] == 2, result  # ↓ Einser and ↑ Chance
        size_name = f"{size['width']}×{size['height']}"
        rows = page.evaluate(ROWS)
        if rows != 1:
            found.append(f"{size_name}: the player strip takes {rows} rows")
        found += [f"{size_name}: {line}" for line in result["found"]]
    return found


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_no_due_cell_or_column_head_is_covered_on_a_phone(
    phone: Page, server: str, players: int
) -> None:
    game = new_game(server, "rauf-runter", NAMES[:players])
    phone.goto(server + game["url"])
    expect(phone.locator(".game")).to_have_attribute("data-live", "open")
    found: list[str] = []
    for on in (False, True):
        show_chances(phone, on, players)
        switch = "an" if on else "aus"
        found += [f"Gewinnchancen {switch}, {line}" for line in covered_places(phone)]
    show_chances(phone, False, players)
    assert not found, "\n".join(found)


# The due cells of the sheet in front that a tap at their centre would not reach, as they are.
HIDDEN_DUE = """
() => Array.from(document.querySelectorAll(".sheet:not(.is-back) td.cell.due")).filter((cell) => {
  const r = cell.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || !cell.contains(hit);
}).map((cell) => cell.querySelector(".cell-btn").id)
"""


def open_with_chances(page: Page, server: str, players: list[str]) -> None:
    page.goto(server + new_game(server, "rauf-runter", players)["url"])
    expect(page.locator(".game")).to_have_attribute("data-live", "open")
    show_chances(page, True, len(players))


def type_dice(page: Page, dice: str) -> None:
    page.locator("#dice-input").fill(dice)
    expect(page.locator(".sheet:not(.is-back) .cell.open .preview").first).to_be_visible()


def dice_typed_at_the_foot(page: Page, server: str, size: dict[str, int]) -> None:
    """Three players with chances on at ``size``; Anna's dice typed, the sheet swiped down."""
    page.set_viewport_size(size)
    open_with_chances(page, server, NAMES[:3])
    type_dice(page, "66655")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_after_an_entry_the_next_players_due_cells_are_in_view(
    phone: Page, server: str, size: dict[str, int]
) -> None:
    # Anna has swiped down to the foot of her sheet and enters her Chance in the free column.
    dice_typed_at_the_foot(phone, server, size)
    phone.locator('[id="c0-free.chance"]').tap()
    expect(phone.locator("#board")).to_have_attribute("data-player", "Ben")
    expect(phone.locator("#board .player-chance")).to_have_count(3, timeout=60_000)
    hidden = phone.evaluate(HIDDEN_DUE)
    if size["height"] >= 844:
        assert hidden == [], hidden  # ↓ Einser and ↑ Chance fit together
    else:
        assert len(hidden) < 2, hidden  # on the smallest phone one of them at least


# Where a tap at the element's centre (or `from` pixels below its top) lands, if not on it.
MISSES = """
([selector, from]) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = from === null ? r.top + r.height / 2 : r.top + from;
  const hit = document.elementFromPoint(x, y);
  const miss = hit && el.contains(hit) ? null : hit ? hit.className || hit.tagName : "nothing";
  return { x, y, miss };
}
"""


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_the_tipp_is_at_hand_and_its_panel_opens_below_the_tabs(
    phone: Page, server: str, size: dict[str, int]
) -> None:
    # Down at the foot of the sheet, the Tipp button is still beside the tabs ...
    dice_typed_at_the_foot(phone, server, size)
    button = phone.evaluate(MISSES, [".tipp-button", None])
    assert button["miss"] is None, f"the Tipp button is under {button['miss']}"
    phone.touchscreen.tap(button["x"], button["y"])
    # ... and its panel comes into view with its top below them.
    expect(phone.locator("#tipp .tipp")).to_be_visible()
    top = phone.evaluate(MISSES, ["#tipp", 6])
    assert top["miss"] is None, f"the Tipp panel's top is under {top['miss']}"


def test_the_dice_tray_of_the_first_roll_covers_no_due_cell(phone: Page, server: str) -> None:
    phone.set_viewport_size(SIZES[0])
    body = {"variant": "rauf-runter", "players": NAMES[:3], "dice_mode": "virtual"}
    request = urllib.request.Request(
        server + "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        game = json.load(response)
    phone.goto(server + game["url"])
    expect(phone.locator(".game")).to_have_attribute("data-live", "open")
    phone.get_by_role("button", name="Würfeln").tap()
    expect(phone.locator(".tray .die-toggle")).to_have_count(5)  # the entry panel grew
    assert len(phone.evaluate(HIDDEN_DUE)) < 2
    result = phone.evaluate(COVERED)
    assert result["found"] == [], "\n".join(result["found"])


# ------------------------------------------------------------------- Jamb's and Yams's sheets

# What does not fit, on the sheet in front and on the player strip: a column head or a tab's
# text whose content is wider than its box (clipped), a tab's text drawn outside its own tab (over
# the next player's), a tab under the Tipp button. Returns the faults in words.
FITS = """
() => {
  const faults = [];
  const words = (el) => (el.querySelector(".sr-only") || el).textContent.trim();
  const sheet = document.querySelector(".sheet:not(.is-back)");
  for (const head of sheet.querySelectorAll("thead th.col-head")) {
    const shown = head.querySelector("[aria-hidden=true]") || head;
    if (head.scrollWidth > head.clientWidth || shown.scrollWidth > shown.clientWidth + 1)
      faults.push(`column head ${words(head)} clipped`);
  }
  const strip = document.querySelector("#board .players").getBoundingClientRect();
  const tipp = document.querySelector(".tipp-button");
  const button = tipp ? tipp.getBoundingClientRect() : null;
  for (const tab of document.querySelectorAll("#board .player-tab")) {
    const box = tab.getBoundingClientRect();
    const name = tab.querySelector(".player-name").textContent.trim();
    const inView = box.right > strip.left + 1 && box.left < strip.right - 1;
    if (!inView) continue;
    for (const text of tab.querySelectorAll(".player-name, .player-total, .player-chance")) {
      const r = text.getBoundingClientRect();
      const what = `${name}: ${text.className}`;
      // A long name may end in an ellipsis (its tab's accessible name stays whole) so that four
      // players' names and totals stay in view at once (issue 8; docs/board.md); totals and
      // chances are never cut.
      const ends = text.classList.contains("player-name")
        && getComputedStyle(text).textOverflow === "ellipsis";
      if (text.scrollWidth > text.clientWidth + 1 && !ends) faults.push(`${what} clipped`);
      if (r.width && (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
          || r.bottom > box.bottom + 1))
        faults.push(`${name}: ${text.className} "${text.textContent.trim()}" outside its tab`);
    }
    const shown = { left: Math.max(box.left, strip.left), right: Math.min(box.right, strip.right) };
    if (button && shown.right > button.left + 1 && shown.left < button.right - 1
        && box.bottom > button.top && box.top < button.bottom)
      faults.push(`${name}'s tab under the Tipp button`);
  }
  return faults;
}
"""


def family_game(
    server: str, variant: str, players: int, options: dict[str, bool], lang: str
) -> str:
    """A new game's address in ``lang``, with its key (in the fragment, as the API gives it)."""
    body = {"variant": variant, "players": NAMES[:players], "options": options}
    request = urllib.request.Request(
        server + "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        url: str = json.load(response)["url"]
    path, hash_sign, fragment = url.partition("#")
    return f"{server}{path}?lang={lang}{hash_sign}{fragment}"


@pytest.mark.parametrize(
    ("variant", "lang", "players", "options"),
    [
        ("jamb", "hr", 4, {"hand": True, "middle": True}),  # six columns
        ("jamb", "sr-Latn", 8, {"hand": True}),
        ("yams", "fr", 3, {"hand": True, "announce": True}),  # five columns
        ("jamb", "hr", 2, {}),
        ("yams", "fr", 3, {}),  # three columns: Descendante, Montante, Libre
        ("rauf-runter", "hr", 2, {}),  # three columns: Dolje, Gore, Slobodna
    ],
    ids=["jamb-hr-4", "jamb-sr-8", "yams-fr-3", "jamb-hr-2", "yams-fr-plain", "rauf-runter-hr"],
)
def test_a_jamb_or_yams_sheet_fits_a_phone(
    phone: Page, server: str, variant: str, lang: str, players: int, options: dict[str, bool]
) -> None:
    """Issue 32: "Slobo…", "Najava" run into "Ručna", "Descendante" and "Montante" collide; the
    fourth tab half under the Tipp button; "≈ 24–49 %" drawn over the next player's total. And a
    sheet of three columns: a French Yams cut "Descendante" to "Descenda" and "Montante" at 360 px,
    a Croatian one "Slobodna"."""
    phone.goto(family_game(server, variant, players, options, lang))
    expect(phone.locator(".game")).to_have_attribute("data-live", "open")
    found: list[str] = []
    for on in (False, True):
        show_chances(phone, on, players)
        for size in SIZES:
            phone.set_viewport_size(size)
            phone.wait_for_function(f"() => window.innerWidth === {size['width']}")
            where = f"{size['width']} px, chances {'on' if on else 'off'}"
            found += [f"{where}: {fault}" for fault in phone.evaluate(FITS)]
            found += [f"{where}: {line}" for line in phone.evaluate(COVERED)["found"]]
    show_chances(phone, False, players)
    assert not found, "\n".join(found)
