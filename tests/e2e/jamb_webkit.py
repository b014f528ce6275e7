"""The steps of tests/e2e/jamb_pages.py's :class:`~.jamb_pages.Table` in WebKit, through
WebDriver (tests/e2e/webdriver.py): the whole Jamb and Yams games of issue 32 played as on an
iPhone. A tap is WebDriver's element click (it fails when something covers the element's centre);
dice are typed key by key into the dice field; every change waits for the board's version.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .webdriver import ELEMENT, Element, Session, WebDriverError

#: How long one change may take to show (tests/e2e/jamb_pages.py's ``CHANGE_MS``).
CHANGE_S = 30.0

# Collects the page's script errors (the page is loaded once, by the new-game form).
_WATCH = """
window.__errors = [];
window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
"""


def _css(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class WebKitTable:
    """The :class:`~.jamb_pages.Table` in one WebKit window."""

    def __init__(self, session: Session, server: str) -> None:
        self.session = session
        self.server = server

    # -- the start page

    def start_game(
        self,
        *,
        lang: str,
        variant: str,
        players: Iterable[str],
        dice_mode: str = "physical",
        house_rules: Iterable[str] = (),
    ) -> str:
        s = self.session
        s.go(f"{self.server}/?lang={lang}")
        s.wait("return !!document.querySelector('form[data-new-game][data-ready]')", what="form")
        s.find(f'input[name="variant"][value="{variant}"]').click()
        s.find(f'input[name="dice_mode"][value="{dice_mode}"]').click()
        rules = list(house_rules)
        if rules:
            s.find("details.house-rules summary").click()
            for name in rules:
                box = s.find(f'input[name="{name}"]')
                if not s.run("return arguments[0].checked", box):
                    box.click()
        for number, name in enumerate(players, start=1):
            shown = f"return document.querySelector('#player-{number}').getClientRects().length > 0"
            if not s.run(shown):
                s.find("[data-add-player]").click()
            field = s.find(f"#player-{number}")
            field.clear()
            field.type(name)
        s.find('form.new-game button[type="submit"]').click()
        # The page trades the play link's key for a cookie and loads again (jamb_pages.py).
        s.wait(
            "const game = document.querySelector('.game[data-live=\"open\"]');"
            "const entry = document.querySelector('[data-entry]');"
            "return !!game && !!entry && entry.getClientRects().length > 0",
            seconds=CHANGE_S,
            what="the new game's board",
        )
        s.run(_WATCH)
        return str(s.run("return location.pathname.split('/').pop()"))

    # -- reading the board

    def _version(self) -> int:
        return int(self.session.run("return document.querySelector('#board').dataset.version"))

    def _settled(self, number: int) -> None:
        self.session.wait(
            "return document.querySelector('#board').dataset.version === arguments[0]",
            str(number),
            seconds=CHANGE_S,
            what=f"version {number}",
        )

    def column_heads(self, seat: int) -> list[str]:
        heads = self.session.run(
            "return Array.from(document.querySelectorAll(arguments[0]))"
            ".map((head) => head.textContent.replace(/\\s+/g, ' ').trim())",
            f"#sheet-{seat} .col-head",
        )
        return [str(head) for head in heads]

    def wait_player(self, name: str) -> None:
        self.session.wait(
            "return document.querySelector('#board').dataset.player === arguments[0]",
            name,
            seconds=CHANGE_S,
            what=f"{name} to move",
        )

    def tray_faces(self) -> list[int]:
        faces = self.session.run(
            "return Array.from(document.querySelectorAll('.tray input[data-die]'))"
            ".map((die) => die.value)"
        )
        return [int(face) for face in faces]

    def announced(self, seat: int) -> str:
        css = f"#sheet-{seat} td.announced .cell-btn"
        self.session.wait_for(css, seconds=CHANGE_S)
        return str(self.session.run("return document.querySelector(arguments[0]).id", css))

    def sum_lines(self, seat: int, lines: dict[str, str]) -> dict[str, list[int]]:
        texts = self.session.run(
            "const sheet = document.querySelector(arguments[0]);"
            "const out = {};"
            "for (const [name, css] of Object.entries(arguments[1])) {"
            "  out[name] = Array.from(sheet.querySelectorAll(css)).map((c) => c.textContent);"
            "}"
            "return out;",
            f"#sheet-{seat}",
            lines,
        )
        return {
            name: [int(re.sub(r"\D", "", text)) for text in values]
            for name, values in texts.items()
        }

    def wait_end(self) -> None:
        self.session.wait(
            "const end = document.querySelector('section.end');"
            "return !!end && end.getClientRects().length > 0",
            seconds=CHANGE_S,
            what="the end of the game",
        )

    def errors(self) -> list[str]:
        return [str(error) for error in self.session.run("return window.__errors || []")]

    def run(self, function: str) -> object:
        return self.session.run(f"return ({function})()")

    # -- changing the game

    def _cell(self, seat: int, name: str) -> str:
        return f'[id="{_css(f"c{seat}-{name}")}"]'

    def _tap(self, css: str) -> None:
        """A finger's tap: the element swiped to, just enough (the page keeps due cells in view;
        a cell elsewhere may sit under the sticky column heads), then clicked."""
        found = "const el = document.querySelector(arguments[0]);"
        found += "if (el) el.scrollIntoView({block: 'nearest'}); return el;"
        for attempt in range(3):
            element = self.session.wait(found, css, seconds=CHANGE_S, what=css)
            try:
                Element(self.session, element[ELEMENT]).click()
                return
            except WebDriverError as error:
                # The board drew the element anew between the look and the tap (a live update,
                # the chances narrowing): a finger taps the place, so tap the new element.
                if "stale element" not in str(error) or attempt == 2:
                    raise

    def type_dice(self, dice: str, roll: int, *, say_roll: bool = False) -> None:
        field = self.session.find("#dice-input")
        field.clear()
        field.type(dice)
        if roll != 3 or say_roll:
            self._tap(f'[data-rolls="{roll}"]')

    def previewed(self, dice: str, roll: int) -> None:
        self.session.wait(
            "const board = document.querySelector('#board');"
            'const button = document.querySelector(`[data-rolls="${arguments[1]}"]`);'
            "return board.dataset.dice === arguments[0] && board.dataset.roll === arguments[1]"
            " && button.getAttribute('aria-pressed') === 'true'",
            "".join(sorted(dice)),
            str(roll),
            seconds=CHANGE_S,
            what=f"the preview of {dice} on roll {roll}",
        )

    def roll(self, hold: Iterable[int] = ()) -> list[int]:
        held = set(hold)
        checked = self.session.run(
            "return Array.from(document.querySelectorAll('.tray input[data-die]'))"
            ".map((die) => die.checked)"
        )
        toggles = [n for n, on in enumerate(checked) if on != (n in held)]
        for position in toggles:
            self._tap(f".die-toggle:nth-of-type({position + 1})")
        if toggles:
            self.session.wait(
                "const dice = Array.from(document.querySelectorAll('.tray input[data-die]'));"
                "return dice.every((die, n) => die.checked === arguments[0].includes(n))",
                sorted(held),
                what="the dice held",
            )
        before = self._version()
        self._tap(".roll-button")
        faces = self.session.wait(
            "if (document.querySelector('#board').dataset.version !== arguments[0]) return null;"
            "return Array.from(document.querySelectorAll('.tray input[data-die]'))"
            ".map((die) => Number(die.value))",
            str(before + 1),
            seconds=CHANGE_S,
            what=f"version {before + 1}",
        )
        return [int(face) for face in faces]

    def enter(self, seat: int, name: str, points: int | None = None) -> None:
        css = self._cell(seat, name)
        shows = "return document.querySelector(arguments[0]).textContent.trim() === arguments[1]"
        if points is not None:
            self.session.wait(shows, css, str(points), seconds=CHANGE_S, what=f"{name}: {points}")
        before = self._version()
        self._tap(css)
        self._settled(before + 1)
        if points is not None:
            assert self.session.run(shows, css, str(points)), f"{name} shows {points}"

    def announce(self, name: str) -> None:
        find = (
            "return Array.from(document.querySelectorAll('button')).find((button) =>"
            " (button.getAttribute('aria-label') || button.textContent).trim() === arguments[0])"
            " || null"
        )
        button = self.session.wait(find, name, seconds=CHANGE_S, what=f"the button {name}")
        before = self._version()
        element = Element(self.session, button[ELEMENT])
        element.swipe_to()
        element.click()
        self._settled(before + 1)

    def refused(self, seat: int, name: str, message: str) -> None:
        css = self._cell(seat, name)
        disabled = "return document.querySelector(arguments[0]).getAttribute('aria-disabled')"
        assert self.session.run(disabled, css) == "true", f"{name} is not locked"
        before = self._version()
        self._tap(css)  # a finger taps a locked cell as any other
        self.session.wait(
            "const toast = document.querySelector('#toast');"
            "return !!toast && toast.textContent.includes(arguments[0])",
            message,
            seconds=CHANGE_S,
            what=f"the message {message!r}",
        )
        assert self._version() == before  # nothing changed
        text = "return document.querySelector(arguments[0]).textContent.trim()"
        assert self.session.run(text, css) == ""
