"""Jamb and Yams played whole in the browser, in their players' languages (issue 23, "Done
when"): a four-player Jamb with real dice in Croatian, a three-player Yams with virtual dice in
French, both started on the start page and every turn played on the board page
(tests/e2e/jamb_pages.py drives it: keys and single taps, each change awaited by the board's
version).

The Jamb game (↓, Slobodna, ↑ and Najava: 52 turns a player, 208 in all) types dice the test
chooses: varied by player, column and row, so that some columns reach Σ1's bonus and some rows
are missed. Its last three turns a player hold the special cases: an announcement kept, an
announcement missed (0), unannounced first rolls into Najava, a second roll refused there in
Croatian (nothing changes), Kenta by its roll (56 on the second). Every player's Σ1, Σ2, Σ3 and
total of each column, and the total of all columns, are checked after every thirteen rounds and
at the end against a reckoning done here with plain arithmetic from the dice (docs/rules.md,
"Jamb"), not by the rules engine.

The Yams game (the options sèche and annoncée: five columns, 65 turns a player, 195 in all) rolls
virtual dice: the test reads them from the page's dice tray and reckons from those. Its first 62
turns a player roll once and enter, column by column; the last three a player hold the special
cases: an announcement kept, one missed (0), a sèche entry, a second roll refused there in French,
the annoncée column taking an unannounced first roll, a Chance at the second roll.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE
from .jamb_pages import (
    announce,
    enter,
    previewed,
    refused,
    roll,
    start_game,
    sum_lines,
    tray_faces,
    type_dice,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

JAMB_PLAYERS = ("Ana", "Ivo", "Marko", "Petra")
#: The columns of a Jamb game, in the sheet's order.
JAMB_COLUMNS = ("down", "free", "up", "announce")
JAMB_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
JAMB_ROWS = (*JAMB_UPPER, "max", "min", "trips", "straight", "full_house", "poker", "jamb")


@dataclass(frozen=True)
class Turn:
    """One turn typed in the browser: the dice at the table, which roll made them, the cell."""

    cell: str
    dice: str
    roll: int
    announce: bool = False  #: announced before the dice are typed
    refused: str = ""  #: a cell tried first, which must refuse the dice


#: Each player's last three turns, in the order they are played.
LAST_TURNS = {
    "Ana": (
        # Ana announces Jamb and makes it on the third roll.
        Turn("announce.jamb", "66666", 3, announce=True),
        Turn("down.jamb", "33333", 2),
        # Kenta made on the second roll scores 56.
        Turn("free.straight", "23456", 2),
    ),
    "Ivo": (
        # Ivo announces Kenta and misses it: 0.
        Turn("announce.straight", "11234", 3, announce=True),
        Turn("up.ones", "11123", 3),
        Turn("announce.full_house", "22333", 1),
    ),
    "Marko": (
        # Unannounced, Najava takes a first roll.
        Turn("announce.fives", "55512", 1),
        Turn("announce.max", "66654", 1),
        Turn("free.trips", "44412", 3),
    ),
    "Petra": (
        # Unannounced, Najava refuses a second roll, and says why.
        Turn("free.fours", "44412", 2, refused="announce.fours"),
        Turn("announce.fours", "44446", 1),
        Turn("announce.poker", "22223", 2, announce=True),
    ),
}
#: The Croatian words of the special turns (kniffel.locales.family_words, the catalogue).
HR_ROWS = {"jamb": "Jamb", "straight": "Kenta", "poker": "Poker"}
HR_REFUSED = "Najava, Četvorke bez najave prima samo prvo bacanje, ne bacanje 2"


def _others(face: int, n: int) -> list[int]:
    """``n`` faces other than ``face``, all different."""
    return [f for f in range(1, 7) if f != face][:n]


def jamb_dice(seat: int, column: str, row: str) -> tuple[str, int]:
    """The dice (and their roll) typed for ``seat`` into ``column.row``: varied by seat and
    column, so that some columns reach Σ1's bonus and some rows are missed."""
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
    # Najava takes only a first roll unannounced (docs/rules.md, "Jamb"); Kenta scores by its
    # roll; elsewhere the roll does not count, and the third is the one the board assumes.
    if column == "announce":
        roll = 1
    elif row == "straight":
        roll = 1 + k % 3
    else:
        roll = 3
    return "".join(map(str, dice)), roll


def jamb_turns(seat: int) -> list[Turn]:
    """Every turn of ``seat``, in an order the columns allow: round by round ↓ from the top,
    ↑ from the bottom, Slobodna and Najava top to bottom, then the last three turns."""
    last = LAST_TURNS[JAMB_PLAYERS[seat]]
    left = {turn.cell for turn in last}
    cells = [
        cell
        for r, row in enumerate(JAMB_ROWS)
        for cell in (f"down.{row}", f"up.{JAMB_ROWS[-1 - r]}", f"free.{row}", f"announce.{row}")
        if cell not in left
    ]
    return [Turn(cell, *jamb_dice(seat, *cell.split("."))) for cell in cells] + list(last)


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


def jamb_column(points: dict[str, int]) -> dict[str, int]:
    """Σ1 = 1-6, + 30 at 60; Σ2 = (Max − Min) × ones once all three are there, never below 0;
    Σ3 = Triling to Jamb; of the rows filled so far (``points``)."""
    upper = sum(points.get(row, 0) for row in JAMB_UPPER)
    sum1 = upper + 30 if upper >= 60 else upper
    sum2 = 0
    if all(row in points for row in ("max", "min", "ones")):
        sum2 = max(0, (points["max"] - points["min"]) * points["ones"])
    sum3 = sum(points.get(row, 0) for row in JAMB_ROWS[8:])
    return {"sum1": sum1, "sum2": sum2, "sum3": sum3, "total": sum1 + sum2 + sum3}


#: The sum lines of a Jamb sheet (docs/board.md, "Jamb und Yams").
JAMB_LINES = {
    "sum1": "tr.sum1 td",
    "sum2": "tr.sum2 td",
    "sum3": "tr.sum3 td",
    "total": "tr.total td",
    "grand": "tr.grand td",
}


def check_jamb_sheets(page: Page, played: dict[str, list[Turn]]) -> None:
    """Every sheet's sum lines are those reckoned from the turns ``played`` so far."""
    for seat, player in enumerate(JAMB_PLAYERS):
        cells = {turn.cell: turn for turn in played[player]}
        columns = [
            jamb_column(
                {
                    row: jamb_points(
                        row, cells[f"{column}.{row}"].dice, cells[f"{column}.{row}"].roll
                    )
                    for row in JAMB_ROWS
                    if f"{column}.{row}" in cells
                }
            )
            for column in JAMB_COLUMNS
        ]
        wanted = {line: [sums[line] for sums in columns] for line in JAMB_LINES if line != "grand"}
        wanted["grand"] = [sum(sums["total"] for sums in columns)]
        assert sum_lines(page, seat, JAMB_LINES) == wanted, player


def play_jamb_turn(page: Page, seat: int, turn: Turn) -> None:
    row = turn.cell.split(".")[1]
    if turn.announce:
        # The button's name is the verb and the row, once (not "Najavi: Najava, Jamb").
        announce(page, f"Najavi: {HR_ROWS[row]}")
        expect(page.locator(f"#sheet-{seat} td.announced .cell-btn")).to_have_id(
            f"c{seat}-{turn.cell}"
        )
    type_dice(page, turn.dice, turn.roll)
    if turn.refused:
        previewed(page, turn.dice, turn.roll)
        refused(page, seat, turn.refused, HR_REFUSED)
    special = turn.announce or turn.refused or turn in LAST_TURNS[JAMB_PLAYERS[seat]]
    enter(page, seat, turn.cell, jamb_points(row, turn.dice, turn.roll) if special else None)


def test_a_four_player_jamb_with_real_dice_in_croatian(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start_game(page, server, lang="hr", variant="jamb", players=JAMB_PLAYERS)
    expect(page.locator("#sheet-0 .col-head")).to_have_text(
        ["↓ Dolje", "Slobodna", "↑ Gore", "Najava"]
    )

    turns = {player: jamb_turns(seat) for seat, player in enumerate(JAMB_PLAYERS)}
    played: dict[str, list[Turn]] = {player: [] for player in JAMB_PLAYERS}
    for number in range(len(JAMB_COLUMNS) * len(JAMB_ROWS)):
        for seat, player in enumerate(JAMB_PLAYERS):
            turn = turns[player][number]
            expect(page.locator("#board")).to_have_attribute("data-player", player)
            play_jamb_turn(page, seat, turn)
            played[player].append(turn)
        if number % 13 == 12:
            check_jamb_sheets(page, played)

    expect(page.locator("section.end")).to_be_visible()
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
#: The cells of each player's last three turns.
YAMS_LEFT = {
    "Léa": ("announce.large_straight", "announce.kniffel", "free.chance"),
    "Hugo": ("announce.chance", "hand.ones", "free.sixes"),
    "Chloé": ("hand.chance", "down.chance", "up.ones"),
}
#: The French words of the special turns (kniffel.locales.family_words, the catalogue).
FR_ROWS = {"large_straight": "Grande suite", "kniffel": "Yams", "chance": "Chance"}
FR_REFUSED = "Sèche, As ne prend qu’un premier lancer, pas le lancer 2"


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


def yams_column(points: dict[str, int]) -> dict[str, int]:
    """1-6 with 35 at 63 or more; the lower block; no bonus for a further Yams; of the rows
    filled so far (``points``)."""
    upper = sum(points.get(row, 0) for row in YAMS_UPPER)
    bonus = 35 if upper >= 63 else 0
    lower = sum(points.get(row, 0) for row in YAMS_ROWS if row not in YAMS_UPPER)
    return {"upper": upper, "bonus": bonus, "lower": lower, "total": upper + bonus + lower}


#: The sum lines of a Yams sheet, as of a Kniffel sheet.
YAMS_LINES = {
    "upper": "tr.upper-sum td",
    "bonus": "tr.bonus td .value",
    "lower": "tr.lower-sum td",
    "extra": "tr.kniffel-bonus td",
    "total": "tr.total td",
    "grand": "tr.grand td",
}


def check_yams_sheets(page: Page, faces: dict[tuple[str, str], list[int]]) -> None:
    """Every sheet's sum lines are those reckoned from the dice entered so far (``faces``)."""
    for seat, player in enumerate(YAMS_PLAYERS):
        columns = [
            yams_column(
                {
                    row: yams_points(row, faces[player, f"{column}.{row}"])
                    for row in YAMS_ROWS
                    if (player, f"{column}.{row}") in faces
                }
            )
            for column in YAMS_COLUMNS
        ]
        wanted = {line: [sums[line] for sums in columns] for line in ("upper", "bonus", "lower")}
        wanted["extra"] = [0] * len(YAMS_COLUMNS)
        wanted["total"] = [sums["total"] for sums in columns]
        wanted["grand"] = [sum(sums["total"] for sums in columns)]
        assert sum_lines(page, seat, YAMS_LINES) == wanted, player


def _yams_order(player: str) -> list[str]:
    """The cells of a player's first 62 turns, column by column: ↓ from the top, ↑ from the
    bottom, the others top to bottom."""
    cells = [f"down.{row}" for row in YAMS_ROWS]
    cells += [f"up.{row}" for row in reversed(YAMS_ROWS)]
    cells += [f"{column}.{row}" for column in ("free", "hand", "announce") for row in YAMS_ROWS]
    return [cell for cell in cells if cell not in YAMS_LEFT[player]]


def _announce(page: Page, seat: int, cell: str) -> None:
    announce(page, f"Annoncer\u00a0: {FR_ROWS[cell.split('.')[1]]}")
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
    start_game(
        page,
        server,
        lang="fr",
        variant="yams",
        players=YAMS_PLAYERS,
        dice_mode="virtual",
        house_rules=("hand", "announce"),
    )
    expect(page.locator("#sheet-0 .col-head")).to_have_text(
        ["↓ Descendante", "↑ Montante", "Libre", "Sèche", "Annoncée"]
    )

    # The first 62 turns a player: one roll each, entered column by column.
    faces: dict[tuple[str, str], list[int]] = {}
    orders = {player: _yams_order(player) for player in YAMS_PLAYERS}
    for number, turn in enumerate(zip(*orders.values(), strict=True)):
        for seat, (player, cell) in enumerate(zip(YAMS_PLAYERS, turn, strict=True)):
            expect(page.locator("#board")).to_have_attribute("data-player", player)
            faces[player, cell] = roll(page)
            enter(page, seat, cell)
        if number % 13 == 12:
            check_yams_sheets(page, faces)

    # Round 1. Léa announces a row and spoils it by what she holds: a pair held leaves no
    # Grande suite, two unlike dice held no Yams; missed, the row scores 0.
    first = roll(page)
    missed = "announce.large_straight" if len(set(first)) < 5 else "announce.kniffel"
    _announce(page, 0, missed)
    second = roll(page, _pairs(first, alike=missed.endswith("straight")))
    third = roll(page, _pairs(second, alike=missed.endswith("straight")))
    faces["Léa", missed] = third
    enter(page, 0, missed, 0)
    # Hugo announces his Chance, keeps his fours to sixes, and enters the third roll there.
    first = roll(page)
    _announce(page, 1, "announce.chance")
    second = roll(page, [i for i, face in enumerate(first) if face >= 4])
    third = roll(page, [i for i, face in enumerate(second) if face >= 4])
    faces["Hugo", "announce.chance"] = third
    enter(page, 1, "announce.chance", sum(third))
    # Chloé enters her first roll into the sèche column.
    first = roll(page)
    faces["Chloé", "hand.chance"] = first
    enter(page, 2, "hand.chance", sum(first))

    # Round 2. Léa's Chance, at the second roll.
    roll(page)
    second = roll(page)
    faces["Léa", "free.chance"] = second
    enter(page, 0, "free.chance", sum(second))
    # Hugo's second roll: the sèche column refuses it in French, and nothing changes.
    roll(page)
    second = roll(page)
    refused(page, 1, "hand.ones", FR_REFUSED)
    assert tray_faces(page) == second
    faces["Hugo", "free.sixes"] = second
    enter(page, 1, "free.sixes", yams_points("sixes", second))
    # Chloé's descendante ends with Chance.
    first = roll(page)
    faces["Chloé", "down.chance"] = first
    enter(page, 2, "down.chance", sum(first))

    # Round 3: the last cells. Unannounced, the annoncée column takes a first roll.
    first = roll(page)
    other = next(cell for cell in YAMS_LEFT["Léa"][:2] if cell != missed)
    faces["Léa", other] = first
    enter(page, 0, other, yams_points(other.split(".")[1], first))
    first = roll(page)
    faces["Hugo", "hand.ones"] = first
    enter(page, 1, "hand.ones", yams_points("ones", first))
    first = roll(page)
    faces["Chloé", "up.ones"] = first
    enter(page, 2, "up.ones", yams_points("ones", first))

    expect(page.locator("section.end")).to_be_visible()
    check_yams_sheets(page, faces)
    assert errors == []
    context.close()
