"""What the browser tests of Jamb and Yams do on the board page, in one place: start a game on
the start page, type real dice or roll virtual ones, enter, and read a sheet's sum lines
(docs/board.md, "Jamb und Yams").

A turn is driven as a player with a keyboard drives it, and every change waits for the board's
version (``data-version``) rather than for time: whole games are hundreds of turns.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from typing import Protocol

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

#: How long one change may take to show: generous, the test machine is often busy.
CHANGE_MS = 30_000


def start_game(
    page: Page,
    server: str,
    *,
    lang: str,
    variant: str,
    players: Iterable[str],
    dice_mode: str = "physical",
    house_rules: Iterable[str] = (),
) -> str:
    """Start a game on the start page in ``lang`` with these players, dice and house rules
    (the names of their check boxes); the game's id once its board shows."""
    page.goto(f"{server}/?lang={lang}")
    page.locator(f'input[name="variant"][value="{variant}"]').check()
    page.locator(f'input[name="dice_mode"][value="{dice_mode}"]').check()
    rules = list(house_rules)
    if rules:
        page.locator("details.house-rules summary").click()
        for name in rules:
            page.locator(f'input[name="{name}"]').check()
    for number, name in enumerate(players, start=1):
        field = page.locator(f"#player-{number}")
        if not field.is_visible():
            page.locator("[data-add-player]").click()
        field.fill(name)
    page.locator('form.new-game button[type="submit"]').click()
    # The page trades the play link's key for a cookie and loads again, as a device that
    # plays: keys typed before that load would be lost.
    expect(page.locator("[data-entry]")).to_be_visible(timeout=CHANGE_MS)
    expect(page.locator('.game[data-live="open"]')).to_be_attached(timeout=CHANGE_MS)
    return game_id(page)


def game_id(page: Page) -> str:
    """The id of the game on the page, from its address."""
    return re.sub(r"[?#].*", "", page.url).rsplit("/", 1)[1]


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


#: How often :func:`until` looks. Playwright's ``expect`` looks again after 100, 250, 500 and
#: then every 1000 ms: a change that shows 60 ms after the tap waited 100 ms, one that shows
#: after 120 ms waited 350 ms, and a whole game waits hundreds of times.
LOOK_MS = 20


def until(page: Page, script: str, timeout_ms: int = CHANGE_MS) -> bool:
    """Whether ``script`` (an expression) came true in the page within ``timeout_ms``, looked at
    every :data:`LOOK_MS`."""
    for _ in range(timeout_ms // LOOK_MS):
        try:
            if page.evaluate(script):
                return True
        except PlaywrightError:
            pass  # the page was loading: look again
        page.wait_for_timeout(LOOK_MS)
    return False


def settled(page: Page, number: int) -> None:
    """Wait until the board shows version ``number``."""
    shown = f"document.querySelector('#board')?.dataset.version === '{number}'"
    if not until(page, shown):  # the version the page shows, in the failure's words
        expect(page.locator("#board")).to_have_attribute("data-version", str(number), timeout=1)


def cell(page: Page, seat: int, name: str) -> Locator:
    """The button of cell ``name`` (``column.row``) on the sheet of ``seat``."""
    return page.locator(f'[id="c{seat}-{name}"]')


def numbers(cells: Locator) -> list[int]:
    """The figures of a sum line, thousands separators and all ("1.234" in Croatian)."""
    return [int(re.sub(r"\D", "", text)) for text in cells.all_text_contents()]


def sum_lines(page: Page, seat: int, lines: dict[str, str]) -> dict[str, list[int]]:
    """The figures of the sheet of ``seat``: per name, those of the cells ``lines`` selects in
    it (``{"sum1": "tr.sum1 td"}``)."""
    sheet = page.locator(f"#sheet-{seat}")
    return {name: numbers(sheet.locator(selector)) for name, selector in lines.items()}


# -- real dice


def type_dice(page: Page, dice: str, roll: int, *, say_roll: bool = False) -> None:
    """The player types the five dice (the focus is where the board put it after the last
    change: the dice field) and, where it is not the third or ``say_roll`` (a Kenta, a
    first-roll column: the board assumes no roll there), says which roll made them."""
    page.keyboard.type(dice)
    if roll != 3 or say_roll:
        page.locator(f'[data-rolls="{roll}"]').press("Enter")


def previewed(page: Page, dice: str, roll: int) -> None:
    """The board previews the dice typed, of this roll (it once kept the third roll's)."""
    board = page.locator("#board")
    expect(board).to_have_attribute("data-dice", "".join(sorted(dice)), timeout=CHANGE_MS)
    expect(board).to_have_attribute("data-roll", str(roll), timeout=CHANGE_MS)
    expect(page.locator(f'[data-rolls="{roll}"]')).to_have_attribute("aria-pressed", "true")


# -- virtual dice


def tray_faces(page: Page) -> list[int]:
    """The faces on the dice tray."""
    dice = page.locator(".tray input[data-die]")
    return [int(value) for value in dice.evaluate_all("dice => dice.map(d => d.value)")]


def roll(page: Page, hold: Iterable[int] = ()) -> list[int]:
    """Roll, holding exactly the dice at the positions ``hold`` (the keys 1 to 5 hold or
    release a die); the faces that fell."""
    held = set(hold)
    button = page.locator(".roll-button")
    checked = page.locator(".tray input[data-die]").evaluate_all("dice => dice.map(d => d.checked)")
    toggles = [n for n, on in enumerate(checked) if on != (n in held)]
    if toggles:
        button.focus()
        for position in toggles:
            page.keyboard.press(str(position + 1))
    before = version(page)
    button.press("Enter")
    settled(page, before + 1)
    return tray_faces(page)


# -- both


def enter(page: Page, seat: int, name: str, points: int | None = None) -> None:
    """Enter into cell ``name`` of the sheet of ``seat`` (from the keyboard, like a tap) and
    wait for the board to show it; with ``points``, the cell must show them before (the
    preview) and after."""
    button = cell(page, seat, name)
    if points is not None:
        expect(button).to_have_text(str(points), timeout=CHANGE_MS)
    before = version(page)
    button.press("Enter")
    settled(page, before + 1)
    if points is not None:
        expect(button).to_have_text(str(points))


def announce(page: Page, name: str) -> None:
    """Announce the row whose button is called ``name`` and wait for the board to show it."""
    before = version(page)
    page.get_by_role("button", name=name, exact=True).press("Enter")
    settled(page, before + 1)


def refused(page: Page, seat: int, name: str, message: str | re.Pattern[str]) -> None:
    """A tap on cell ``name`` is refused with ``message`` and changes nothing."""
    late = cell(page, seat, name)
    expect(late).to_have_attribute("aria-disabled", "true")
    before = version(page)
    late.click(force=True)  # Playwright waits for enabled buttons; a finger does not
    expect(page.locator("#toast")).to_contain_text(message)
    assert version(page) == before  # nothing changed
    expect(late).to_have_text("")


#: The whole Jamb and Yams games are played in both engines by one script each; CI plays the Jamb
#: game in chromium and the Yams game in WebKit (the engines their issue found them in), and the
#: other two with ``KNIFFEL_EVERY_ENGINE=1``: all four cost CI's two cores about 4 minutes of a
#: process, beyond its 15 minutes (docs/contributing.md, "How long CI takes").
OTHER_ENGINE = pytest.mark.skipif(
    os.environ.get("KNIFFEL_EVERY_ENGINE") != "1",
    reason="a flow CI runs in one engine, here in the other: opt in with KNIFFEL_EVERY_ENGINE=1",
)


# -- one table, two engines: the whole games of tests/e2e/test_jamb_family_games.py and
# tests/e2e/test_yams_family_game.py are played by one script, in chromium through the
# functions above and in WebKit through tests/e2e/jamb_webkit.py (the same steps over WebDriver).


class Table(Protocol):
    """What a whole Jamb or Yams game does at the board, in either engine."""

    def start_game(
        self,
        *,
        lang: str,
        variant: str,
        players: Iterable[str],
        dice_mode: str = "physical",
        house_rules: Iterable[str] = (),
    ) -> str: ...
    def column_heads(self, seat: int) -> list[str]: ...
    def wait_player(self, name: str) -> None: ...
    def type_dice(self, dice: str, roll: int, *, say_roll: bool = False) -> None: ...
    def previewed(self, dice: str, roll: int) -> None: ...
    def roll(self, hold: Iterable[int] = ()) -> list[int]: ...
    def tray_faces(self) -> list[int]: ...
    def enter(self, seat: int, name: str, points: int | None = None) -> None: ...
    def announce(self, name: str) -> None: ...
    def announced(self, seat: int) -> str: ...
    def refused(self, seat: int, name: str, message: str) -> None: ...
    def sum_lines(self, seat: int, lines: dict[str, str]) -> dict[str, list[int]]: ...
    def wait_end(self) -> None: ...
    def errors(self) -> list[str]: ...
    def run(self, function: str) -> object:
        """The value of a JavaScript function (``() => …``) called in the page."""


class ChromiumTable:
    """The :class:`Table` in a Playwright page (chromium)."""

    def __init__(self, page: Page, server: str) -> None:
        self.page = page
        self.server = server
        self._errors: list[str] = []
        page.on("pageerror", lambda error: self._errors.append(str(error)))

    def start_game(
        self,
        *,
        lang: str,
        variant: str,
        players: Iterable[str],
        dice_mode: str = "physical",
        house_rules: Iterable[str] = (),
    ) -> str:
        return start_game(
            self.page,
            self.server,
            lang=lang,
            variant=variant,
            players=players,
            dice_mode=dice_mode,
            house_rules=house_rules,
        )

    def column_heads(self, seat: int) -> list[str]:
        heads = self.page.locator(f"#sheet-{seat} .col-head")
        return [" ".join(text.split()) for text in heads.all_text_contents()]

    def wait_player(self, name: str) -> None:
        expect(self.page.locator("#board")).to_have_attribute("data-player", name)

    def type_dice(self, dice: str, roll: int, *, say_roll: bool = False) -> None:
        type_dice(self.page, dice, roll, say_roll=say_roll)

    def previewed(self, dice: str, roll: int) -> None:
        previewed(self.page, dice, roll)

    def roll(self, hold: Iterable[int] = ()) -> list[int]:
        return roll(self.page, hold)

    def tray_faces(self) -> list[int]:
        return tray_faces(self.page)

    def enter(self, seat: int, name: str, points: int | None = None) -> None:
        enter(self.page, seat, name, points)

    def announce(self, name: str) -> None:
        announce(self.page, name)

    def announced(self, seat: int) -> str:
        button = self.page.locator(f"#sheet-{seat} td.announced .cell-btn")
        expect(button).to_have_count(1, timeout=CHANGE_MS)
        return str(button.get_attribute("id"))

    def refused(self, seat: int, name: str, message: str) -> None:
        refused(self.page, seat, name, message)

    def sum_lines(self, seat: int, lines: dict[str, str]) -> dict[str, list[int]]:
        return sum_lines(self.page, seat, lines)

    def wait_end(self) -> None:
        expect(self.page.locator("section.end")).to_be_visible(timeout=CHANGE_MS)

    def errors(self) -> list[str]:
        return list(self._errors)

    def run(self, function: str) -> object:
        return self.page.evaluate(function)


#: The page's words in view and in its accessible names (what a screen reader says too).
PAGE_WORDS = """() => [document.body.innerText,
  ...Array.from(document.querySelectorAll("[aria-label]"), (el) => el.getAttribute("aria-label")),
  document.title].join("\\n")"""


def check_fits_and_words(table: Table, fits: str) -> None:
    """Issue 32's Done when, at this point of a Jamb or Yams game: no column head or tab text
    clipped (``fits``: tests/e2e/test_phone_geometry.py's ``FITS``), no "Kniffel" said."""
    assert table.run(fits) == []
    words = str(table.run(PAGE_WORDS))
    assert "kniffel" not in words.lower(), words


def chances_switch(on: bool) -> str:
    """A function that turns the win chances on or off as a tap on their switch does."""
    wanted = "true" if on else "false"
    return f"""() => {{
  const box = document.querySelector("[data-chances-switch]");
  if (box.checked !== {wanted}) box.click();
}}"""


#: What each tab shows of the chances (its text, and whether it says it is being narrowed), and
#: whether the note beside the switch says so.
CHANCES_SHOWN = """() => [Array.from(document.querySelectorAll("#board .player-chance"),
  (el) => [el.textContent, el.dataset.refining === "1", el.getAttribute("aria-label")]),
  !document.querySelector("[data-chances-note]").hidden]"""
#: A narrowing from a whole position's sheets anew takes a minute or two on a busy machine.
NARROWED_S = 900


def shown_points(text: str) -> int:
    """How many points a tab's chance spans: "≈ 31–37 %" 6, "41 %" (within 2 points) 0."""
    found = re.search(r"(\d+)–(\d+)", text)
    return 0 if found is None else int(found[2]) - int(found[1])


def check_narrowed_chances(table: Table, players: int, narrowing_words: str) -> list[str]:
    """Issue 32's Done when: with the chances on, every player's range on the tabs narrows to
    within 6 points (±3, 95 %) and no longer says it is being narrowed. Waits for it (the board
    narrows in the background, docs/solver.md, "Win chances"), then turns the chances off
    again (the rest of the game plays without them). While a tab says it is being narrowed, its
    label ends with ``narrowing_words`` and the note beside the switch shows. The tabs' texts."""
    table.run(chances_switch(True))
    deadline = time.monotonic() + NARROWED_S
    while True:
        shown = table.run(CHANCES_SHOWN)
        assert isinstance(shown, list)
        tabs, note = shown
        texts = [str(text) for text, _, _ in tabs]
        narrowing = [bool(refining) for _, refining, _ in tabs]
        for _, refining, label in tabs:
            assert str(label).endswith(", " + narrowing_words) == refining, label
        assert note == any(narrowing) or not tabs, shown
        if len(texts) == players and not any(narrowing) and max(map(shown_points, texts)) <= 6:
            break
        assert time.monotonic() < deadline, f"the chances did not narrow to ±3: {shown}"
        time.sleep(0.5)
    assert all(re.fullmatch(r"(≈ \d+–\d+|[<>]? ?\d+)\s?%", text) for text in texts), texts
    table.run(chances_switch(False))
    return texts
