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
