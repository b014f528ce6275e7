"""Jamb and Yams played to the end in the browser, in their players' languages (issue 23,
"Done when"): a four-player Jamb with real dice in Croatian, a three-player Yams with virtual
dice in French.

A Jamb game with the Ručna column is 65 turns a player; typed one by one on a phone page that
is 260 turns, several minutes of test time. So the game starts from a record imported through
the start page (written below, every die of it known) that leaves three turns open for each of
the four players, and those twelve turns are played in the browser: an announcement kept, an
announcement missed (0), first-roll entries into Ručna, a late entry there refused in Croatian
(nothing changes), an unannounced first roll into Najava and Kenta by its roll. At the end
every player's Σ1, Σ2, Σ3 and total of each column, and the total of all columns, are checked
against a reckoning done here with plain arithmetic from the dice (docs/rules.md, "Jamb"), not
by the rules engine.

The Yams game (the options sèche and annoncée: five columns, 65 turns a player) is started on the
start page with virtual dice; its first 62 turns a player are played through the JSON API with
the game's play link (one roll each, the dice that fell read from the answers), and the last
three a player in the browser: an announcement kept, one missed (0), a sèche entry, a late entry
there refused in French, the announce column taking an unannounced first roll. Virtual dice are
random: the test reads them from the page's dice tray and reckons from those.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e

JAMB_PLAYERS = ("Ana", "Ivo", "Marko", "Petra")
#: The columns of a Jamb game with the option ``hand``, in the sheet's order.
JAMB_COLUMNS = ("down", "free", "up", "announce", "hand")
JAMB_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
JAMB_ROWS = (*JAMB_UPPER, "max", "min", "trips", "straight", "full_house", "poker", "jamb")


@dataclass(frozen=True)
class Turn:
    """One turn typed in the browser: the dice at the table, which roll made them, the cell."""

    player: str
    cell: str
    dice: str
    roll: int
    announce: bool = False  #: announced before the dice are typed
    refused: str = ""  #: a cell tried first, which must refuse the dice


#: The turns left open by the imported record, in the order they are played.
BROWSER_TURNS = (
    # Ana announces Jamb and makes it on the third roll; Ivo announces Kenta and misses (0).
    Turn("Ana", "announce.jamb", "66666", 3, announce=True),
    Turn("Ivo", "announce.straight", "11234", 3, announce=True),
    # Marko enters his first roll into Ručna; Petra's second roll is refused there.
    Turn("Marko", "hand.fives", "55512", 1),
    Turn("Petra", "free.fours", "44412", 2, refused="hand.fours"),
    Turn("Ana", "down.jamb", "33333", 2),
    Turn("Ivo", "up.ones", "11123", 3),
    # Unannounced, Najava takes a first roll.
    Turn("Marko", "announce.max", "66654", 1),
    Turn("Petra", "hand.fours", "44446", 1),
    # Kenta made on the second roll scores 56.
    Turn("Ana", "free.straight", "23456", 2),
    Turn("Ivo", "hand.full_house", "22333", 1),
    Turn("Marko", "free.trips", "44412", 3),
    Turn("Petra", "announce.poker", "22223", 2, announce=True),
)


#: The Croatian names of the rows announced below (kniffel.locales.family_words).
HR_ROWS = {"jamb": "Jamb", "straight": "Kenta", "poker": "Poker"}


def _others(face: int, n: int) -> list[int]:
    """``n`` faces other than ``face``, all different."""
    return [f for f in range(1, 7) if f != face][:n]


def jamb_dice(seat: int, column: str, row: str) -> tuple[str, int]:
    """The dice (and their roll) the record enters for ``seat`` into ``column.row``: varied
    by seat and column, so that some columns reach Σ1's bonus and some rows are missed."""
    c = JAMB_COLUMNS.index(column)
    k = seat + c
    if row in JAMB_UPPER:
        face = JAMB_UPPER.index(row) + 1
        count = 1 + (k + face) % 4
        dice = [face] * count + _others(face, 5 - count)
    elif row == "max":
        dice = [6, 6, 5, 5, 1 + k % 6]
    elif row == "min":
        dice = [1, 1, 2, 3, 1 + (2 * seat + c) % 6]
    elif row == "trips":
        face = 1 + k % 6
        dice = [1, 2, 3, 5, 6] if k % 4 == 3 else [face] * 3 + _others(face, 2)
    elif row == "straight":
        dice = [1, 2, 3, 4, 6] if (3 * seat + c) % 5 == 4 else [1 + k % 2 + i for i in range(5)]
    elif row == "full_house":
        dice = [1 + k % 6] * 3 + [1 + (k + 2) % 6] * 2
    elif row == "poker":
        face = 1 + (2 * seat + c) % 6
        dice = [face] * 4 + _others(face, 1)
    else:  # jamb
        face = 1 + (seat + 2 * c) % 6
        dice = [face] * 4 + _others(face, 1) if k % 3 == 2 else [face] * 5
    # Ručna and the unannounced Najava take only a first roll (docs/rules.md, "Jamb").
    roll = 1 if column in ("announce", "hand") else 1 + (k + JAMB_ROWS.index(row)) % 3
    return "".join(map(str, dice)), roll


def _open_in_browser(player: str) -> set[str]:
    return {turn.cell for turn in BROWSER_TURNS if turn.player == player}


def _order(seat: int) -> list[str]:
    """The cells the record fills for ``seat``, in an order the columns allow: ↓ from the top,
    ↑ from the bottom, the others top to bottom."""
    cells = [f"down.{row}" for row in JAMB_ROWS]
    cells += [f"up.{row}" for row in reversed(JAMB_ROWS)]
    cells += [f"{column}.{row}" for column in ("free", "announce", "hand") for row in JAMB_ROWS]
    left = _open_in_browser(JAMB_PLAYERS[seat])
    return [cell for cell in cells if cell not in left]


def jamb_record() -> dict[str, object]:
    """The imported game: every cell filled but those of :data:`BROWSER_TURNS`."""
    orders = [_order(seat) for seat in range(len(JAMB_PLAYERS))]
    assert len({len(order) for order in orders}) == 1  # the same number of turns each
    events = []
    for turn in zip(*orders, strict=True):
        for seat, cell in enumerate(turn):
            dice, roll = jamb_dice(seat, *cell.split("."))
            events.append(
                {
                    "type": "enter",
                    "player": JAMB_PLAYERS[seat],
                    "cell": cell,
                    "dice": [int(d) for d in dice],
                    "roll": roll,
                }
            )
    return {
        "format": "kniffel-record/1",
        "variant": "jamb",
        "options": {"hand": True},
        "players": list(JAMB_PLAYERS),
        "events": events,
    }


# -- the reckoning: docs/rules.md, "Jamb", in plain arithmetic


def jamb_points(row: str, dice: str, roll: int) -> int:
    """What ``dice`` made on roll ``roll`` score in ``row`` of a Jamb sheet."""
    faces = sorted(int(d) for d in dice)
    counts = {face: faces.count(face) for face in faces}
    most = max(counts, key=lambda face: (counts[face], face))
    if row in JAMB_UPPER:
        face = JAMB_UPPER.index(row) + 1
        return face * counts.get(face, 0)
    if row in ("max", "min"):
        return sum(faces)
    if row == "trips":
        return 3 * most + 10 if counts[most] >= 3 else 0
    if row == "straight":
        return {1: 66, 2: 56, 3: 46}[roll] if faces in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if row == "full_house":
        return sum(faces) + 30 if sorted(counts.values()) == [2, 3] else 0
    if row == "poker":
        return 4 * most + 40 if counts[most] >= 4 else 0
    return 5 * most + 50 if counts[most] == 5 else 0  # jamb


@dataclass(frozen=True)
class ColumnSums:
    sum1: int
    sum2: int
    sum3: int

    @property
    def total(self) -> int:
        return self.sum1 + self.sum2 + self.sum3


def jamb_sums(points: dict[str, int]) -> ColumnSums:
    """Σ1 = 1-6, + 30 at 60; Σ2 = (Max − Min) × ones, never below 0; Σ3 = Triling to Jamb."""
    upper = sum(points[row] for row in JAMB_UPPER)
    sum1 = upper + 30 if upper >= 60 else upper
    sum2 = max(0, (points["max"] - points["min"]) * points["ones"])
    sum3 = sum(points[row] for row in ("trips", "straight", "full_house", "poker", "jamb"))
    return ColumnSums(sum1, sum2, sum3)


def reckon_jamb() -> dict[str, dict[str, ColumnSums]]:
    """Every player's sums per column, from the record's dice and the browser's."""
    dice = {
        (player, f"{column}.{row}"): jamb_dice(seat, column, row)
        for seat, player in enumerate(JAMB_PLAYERS)
        for column in JAMB_COLUMNS
        for row in JAMB_ROWS
    }
    dice.update({(turn.player, turn.cell): (turn.dice, turn.roll) for turn in BROWSER_TURNS})
    return {
        player: {
            column: jamb_sums(
                {row: jamb_points(row, *dice[player, f"{column}.{row}"]) for row in JAMB_ROWS}
            )
            for column in JAMB_COLUMNS
        }
        for player in JAMB_PLAYERS
    }


# -- the page


def _version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def _settled(page: Page, version: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-version", str(version))


def _cell(page: Page, seat: int, cell: str) -> Locator:
    return page.locator(f'[id="c{seat}-{cell}"]')


def _numbers(cells: Locator) -> list[int]:
    """The figures of a sum line, thousands separators and all ("1.234" in Croatian)."""
    return [int(re.sub(r"\D", "", text)) for text in cells.all_text_contents()]


def _type(page: Page, dice: str, roll: int) -> None:
    """The player types the five dice, sees them previewed, and then taps which roll made
    them (the preview must follow: it once kept the third roll's)."""
    page.locator("#dice-input").fill("")
    page.locator("#dice-input").focus()
    page.keyboard.type(dice)
    expect(page.locator("#board")).to_have_attribute("data-dice", "".join(sorted(dice)))
    page.locator(f'[data-rolls="{roll}"]').click()
    expect(page.locator(f'[data-rolls="{roll}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board")).to_have_attribute("data-roll", str(roll))


def test_a_four_player_jamb_with_real_dice_in_croatian(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    record = tmp_path / "jamb.json"
    record.write_text(json.dumps(jamb_record()), encoding="utf-8")
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/?lang=hr")
    page.locator("#record-file").set_input_files(str(record))
    page.get_by_role("button", name="Uvezi").click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#sheet-0 .col-head")).to_have_text(
        ["↓ Dolje", "Slobodna", "↑ Gore", "Najava", "Ručna"]
    )

    for turn in BROWSER_TURNS:
        seat = JAMB_PLAYERS.index(turn.player)
        row = turn.cell.split(".")[1]
        points = jamb_points(row, turn.dice, turn.roll)
        expect(page.locator("#sheet-" + str(seat))).not_to_have_class(re.compile("is-back"))
        if turn.announce:
            version = _version(page)
            # The button's name is the verb and the row, once (not "Najavi: Najava, Jamb").
            page.get_by_role("button", name=f"Najavi: {HR_ROWS[row]}", exact=True).click()
            _settled(page, version + 1)
            expect(page.locator(f"#sheet-{seat} td.announced")).to_have_count(1)
            expect(page.locator(f"#sheet-{seat} td.announced .cell-btn")).to_have_id(
                f"c{seat}-{turn.cell}"
            )
        _type(page, turn.dice, turn.roll)
        if turn.refused:
            late = _cell(page, seat, turn.refused)
            expect(late).to_have_attribute("aria-disabled", "true")
            version = _version(page)
            late.click(force=True)  # Playwright waits for enabled buttons; a finger does not
            expect(page.locator("#toast")).to_contain_text(
                "Ručna, Četvorke prima samo prvo bacanje, ne bacanje 2"
            )
            assert _version(page) == version  # nothing changed
            expect(late).to_have_text("")
        cell = _cell(page, seat, turn.cell)
        expect(cell).to_have_text(str(points))  # the preview, before the tap
        version = _version(page)
        cell.click()
        _settled(page, version + 1)
        expect(cell).to_have_text(str(points))

    expect(page.locator("section.end")).to_be_visible()
    reckoning = reckon_jamb()
    for seat, player in enumerate(JAMB_PLAYERS):
        sums = [reckoning[player][column] for column in JAMB_COLUMNS]
        sheet = page.locator(f"#sheet-{seat}")
        assert _numbers(sheet.locator("tr.sum1 td")) == [s.sum1 for s in sums], player
        assert _numbers(sheet.locator("tr.sum2 td")) == [s.sum2 for s in sums], player
        assert _numbers(sheet.locator("tr.sum3 td")) == [s.sum3 for s in sums], player
        assert _numbers(sheet.locator("tr.total td")) == [s.total for s in sums], player
        assert _numbers(sheet.locator("tr.grand td")) == [sum(s.total for s in sums)], player
    assert errors == []
    context.close()


# -- Yams (docs/rules.md, "Yams"), with virtual dice

YAMS_PLAYERS = ("Léa", "Hugo", "Chloé")
#: The columns of a Yams game with the options ``hand`` (sèche) and ``announce`` (annoncée).
YAMS_COLUMNS = ("down", "up", "free", "hand", "announce")
YAMS_UPPER = JAMB_UPPER
YAMS_ROWS = (
    *YAMS_UPPER,
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "kniffel",
    "chance",
)
#: The cells each player leaves to the browser.
YAMS_LEFT = {
    "Léa": ("announce.large_straight", "announce.kniffel", "free.chance"),
    "Hugo": ("announce.chance", "hand.ones", "free.sixes"),
    "Chloé": ("hand.chance", "down.chance", "up.ones"),
}


def yams_points(row: str, faces: list[int]) -> int:
    """What ``faces`` score in ``row`` of a Yams sheet: Brelan and Carré count the matching
    dice only, Full 25, Petite suite 30, Grande suite 40, Yams 50, no joker."""
    counts = {face: faces.count(face) for face in faces}
    most = max(counts, key=lambda face: (counts[face], face))
    if row in YAMS_UPPER:
        face = YAMS_UPPER.index(row) + 1
        return face * counts.get(face, 0)
    if row == "three_kind":
        return 3 * most if counts[most] >= 3 else 0
    if row == "four_kind":
        return 4 * most if counts[most] >= 4 else 0
    if row == "full_house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if row == "small_straight":
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= set(faces) for run in runs) else 0
    if row == "large_straight":
        return 40 if sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if row == "kniffel":
        return 50 if counts[most] == 5 else 0
    return sum(faces)  # chance


@dataclass(frozen=True)
class YamsSums:
    upper: int
    bonus: int
    lower: int

    @property
    def total(self) -> int:
        return self.upper + self.bonus + self.lower


def yams_sums(points: dict[str, int]) -> YamsSums:
    """1-6 with 35 at 63 or more; the lower block; no bonus for a further Yams."""
    upper = sum(points[row] for row in YAMS_UPPER)
    lower = sum(points[row] for row in YAMS_ROWS if row not in YAMS_UPPER)
    return YamsSums(upper, 35 if upper >= 63 else 0, lower)


def _yams_order(player: str) -> list[str]:
    cells = [f"down.{row}" for row in YAMS_ROWS]
    cells += [f"up.{row}" for row in reversed(YAMS_ROWS)]
    cells += [f"{column}.{row}" for column in ("free", "hand", "announce") for row in YAMS_ROWS]
    return [cell for cell in cells if cell not in YAMS_LEFT[player]]


def _faces(page: Page) -> list[int]:
    dice = page.locator(".tray input[data-die]")
    return [int(value) for value in dice.evaluate_all("dice => dice.map(d => d.value)")]


def _roll(page: Page, hold: list[int] | None = None) -> list[int]:
    """Roll, holding exactly the dice at the positions ``hold``; the faces that fell."""
    dice = page.locator(".tray input[data-die]")
    for position in range(dice.count()):
        if dice.nth(position).is_checked() != (position in (hold or [])):
            page.locator(".die-toggle").nth(position).click()
    version = _version(page)
    page.locator(".roll-button").click()
    _settled(page, version + 1)
    return _faces(page)


def _enter(page: Page, seat: int, cell: str, points: int) -> None:
    """Tap ``cell``, which previews ``points`` for the dice on the tray, and see it written."""
    button = _cell(page, seat, cell)
    expect(button).to_have_text(str(points))
    version = _version(page)
    button.click()
    _settled(page, version + 1)
    expect(button).to_have_text(str(points))


#: The French names of the rows announced below (kniffel.locales.family_words).
FR_ROWS = {"large_straight": "Grande suite", "kniffel": "Yams", "chance": "Chance"}


def _announce(page: Page, seat: int, cell: str) -> None:
    version = _version(page)
    name = f"Annoncer\u00a0: {FR_ROWS[cell.split('.')[1]]}"
    page.get_by_role("button", name=name, exact=True).click()
    _settled(page, version + 1)
    expect(page.locator(f"#sheet-{seat} td.announced .cell-btn")).to_have_id(f"c{seat}-{cell}")


def _pairs(faces: list[int], alike: bool) -> list[int]:
    """Two positions whose dice are alike (or unlike), to hold."""
    return next(
        [i, j] for i in range(5) for j in range(i + 1, 5) if (faces[i] == faces[j]) == alike
    )


def test_a_three_player_yams_with_virtual_dice_in_french(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/?lang=fr")
    page.locator('input[name="variant"][value="yams"]').check()
    page.locator('input[name="dice_mode"][value="virtual"]').check()
    page.locator("details.house-rules summary").click()
    page.locator('input[name="hand"]').check()
    page.locator('input[name="announce"]').check()
    if not page.locator("#player-3").is_visible():
        page.locator("[data-add-player]").click()
    for number, name in enumerate(YAMS_PLAYERS, start=1):
        page.locator(f"#player-{number}").fill(name)
    page.locator('form.new-game button[type="submit"]').click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#sheet-0 .col-head")).to_have_text(
        ["↓ Descendante", "↑ Montante", "Libre", "Sèche", "Annoncée"]
    )

    # The first 62 turns a player through the API, with the play link's key: one roll each.
    play = urlsplit(page.locator("#play-url").input_value())
    game = play.path.rsplit("/", 1)[1]
    headers = {"X-Kniffel-Key": parse_qs(play.fragment)["key"][0]}
    api = f"{server}/api/games/{game}"
    faces: dict[tuple[str, str], list[int]] = {}
    orders = {player: _yams_order(player) for player in YAMS_PLAYERS}
    for turn in zip(*orders.values(), strict=True):
        for player, cell in zip(YAMS_PLAYERS, turn, strict=True):
            rolled = page.request.post(f"{api}/roll", headers=headers, data={"player": player})
            assert rolled.ok, rolled.text()
            faces[player, cell] = rolled.json()["turn"]["dice"]
            event = {"type": "enter", "player": player, "cell": cell}
            entered = page.request.post(f"{api}/events", headers=headers, data={"event": event})
            assert entered.ok, entered.text()
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-player", "Léa")

    # Round 1. Léa announces a row and spoils it by what she holds: a pair held leaves no
    # Grande suite, two unlike dice held no Yams; missed, the row scores 0.
    first = _roll(page)
    missed = "announce.large_straight" if len(set(first)) < 5 else "announce.kniffel"
    _announce(page, 0, missed)
    second = _roll(page, _pairs(first, alike=missed.endswith("straight")))
    third = _roll(page, _pairs(second, alike=missed.endswith("straight")))
    faces["Léa", missed] = third
    _enter(page, 0, missed, 0)
    # Hugo announces his Chance, keeps his fours to sixes, and enters the third roll there.
    first = _roll(page)
    _announce(page, 1, "announce.chance")
    second = _roll(page, [i for i, face in enumerate(first) if face >= 4])
    third = _roll(page, [i for i, face in enumerate(second) if face >= 4])
    faces["Hugo", "announce.chance"] = third
    _enter(page, 1, "announce.chance", sum(third))
    # Chloé enters her first roll into the sèche column.
    first = _roll(page)
    faces["Chloé", "hand.chance"] = first
    _enter(page, 2, "hand.chance", sum(first))

    # Round 2. Léa's Chance, at the second roll.
    _roll(page)
    second = _roll(page, [])
    faces["Léa", "free.chance"] = second
    _enter(page, 0, "free.chance", sum(second))
    # Hugo's second roll: the sèche column refuses it in French, and nothing changes.
    _roll(page)
    second = _roll(page, [])
    late = _cell(page, 1, "hand.ones")
    expect(late).to_have_attribute("aria-disabled", "true")
    version = _version(page)
    late.click(force=True)  # Playwright waits for enabled buttons; a finger does not
    expect(page.locator("#toast")).to_contain_text(
        "Sèche, As ne prend qu’un premier lancer, pas le lancer 2"
    )
    assert _version(page) == version and _faces(page) == second
    expect(late).to_have_text("")
    faces["Hugo", "free.sixes"] = second
    _enter(page, 1, "free.sixes", yams_points("sixes", second))
    # Chloé's descendante ends with Chance.
    first = _roll(page)
    faces["Chloé", "down.chance"] = first
    _enter(page, 2, "down.chance", sum(first))

    # Round 3: the last cells. Unannounced, the annoncée column takes a first roll.
    first = _roll(page)
    other = next(cell for cell in YAMS_LEFT["Léa"][:2] if cell != missed)
    faces["Léa", other] = first
    _enter(page, 0, other, yams_points(other.split(".")[1], first))
    first = _roll(page)
    faces["Hugo", "hand.ones"] = first
    _enter(page, 1, "hand.ones", yams_points("ones", first))
    first = _roll(page)
    faces["Chloé", "up.ones"] = first
    _enter(page, 2, "up.ones", yams_points("ones", first))

    expect(page.locator("section.end")).to_be_visible()
    for seat, player in enumerate(YAMS_PLAYERS):
        sums = [
            yams_sums(
                {row: yams_points(row, faces[player, f"{column}.{row}"]) for row in YAMS_ROWS}
            )
            for column in YAMS_COLUMNS
        ]
        sheet = page.locator(f"#sheet-{seat}")
        assert _numbers(sheet.locator("tr.upper-sum td")) == [s.upper for s in sums], player
        assert _numbers(sheet.locator("tr.bonus td .value")) == [s.bonus for s in sums], player
        assert _numbers(sheet.locator("tr.lower-sum td")) == [s.lower for s in sums], player
        assert _numbers(sheet.locator("tr.kniffel-bonus td")) == [0] * 5, player
        assert _numbers(sheet.locator("tr.total td")) == [s.total for s in sums], player
        assert _numbers(sheet.locator("tr.grand td")) == [sum(s.total for s in sums)], player
    assert errors == []
    context.close()
