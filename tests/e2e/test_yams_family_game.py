"""Yams played whole in the browser, in its players' language (issue 23, "Done when"): a
three-player Yams with virtual dice in French, started on the start page and every turn played on
the board page (tests/e2e/jamb_pages.py drives it). Its Jamb partner is
tests/e2e/test_jamb_family_games.py.

The Yams game (the options sèche and annoncée: five columns, 65 turns a player, 195 in all) rolls
virtual dice: the test reads them from the page's dice tray and reckons from those. Its first 62
turns a player roll once and enter, column by column; the last three a player hold the special
cases: an announcement kept, one missed (0), a sèche entry, a second roll refused there in French,
the annoncée column taking an unannounced first roll, a Chance at the second roll.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import PHONE
from .jamb_pages import ChromiumTable, Table, check_fits_and_words, check_narrowed_chances
from .test_phone_geometry import FITS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

JAMB_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

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


def check_yams_sheets(table: Table, faces: dict[tuple[str, str], list[int]]) -> None:
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
        assert table.sum_lines(seat, YAMS_LINES) == wanted, player


def _yams_order(player: str) -> list[str]:
    """The cells of a player's first 62 turns, column by column: ↓ from the top, ↑ from the
    bottom, the others top to bottom."""
    cells = [f"down.{row}" for row in YAMS_ROWS]
    cells += [f"up.{row}" for row in reversed(YAMS_ROWS)]
    cells += [f"{column}.{row}" for column in ("free", "hand", "announce") for row in YAMS_ROWS]
    return [cell for cell in cells if cell not in YAMS_LEFT[player]]


def _announce(table: Table, seat: int, cell: str) -> None:
    table.announce(f"Annoncer\u00a0: {FR_ROWS[cell.split('.')[1]]}")
    assert table.announced(seat) == f"c{seat}-{cell}"


def _pairs(faces: list[int], alike: bool) -> list[int]:
    """Two positions whose dice are alike (or unlike), to hold."""
    return next(
        [i, j] for i in range(5) for j in range(i + 1, 5) if (faces[i] == faces[j]) == alike
    )


def play_yams(table: Table, *, early_chances: bool = True, late_chances: bool = True) -> None:
    """The whole game, in either engine (tests/e2e/jamb_pages.py, tests/e2e/jamb_webkit.py);
    ``early_chances`` and ``late_chances``: whether the chances are narrowed to ±3 a quarter in
    (every sheet's from nothing, some 30 s of CI's budget) and late. CI's chromium game checks
    neither (the Jamb game checks them late); the WebKit game, opt-in, checks both
    (docs/contributing.md)."""
    table.start_game(
        lang="fr",
        variant="yams",
        players=YAMS_PLAYERS,
        dice_mode="virtual",
        house_rules=("hand", "announce"),
    )
    assert table.column_heads(0) == [
        "↓ Descendante",
        "↑ Montante",
        "L Libre",
        "S Sèche",
        "A Annoncée",
    ]
    check_fits_and_words(table, FITS)

    # The first 62 turns a player: one roll each, entered column by column.
    faces: dict[tuple[str, str], list[int]] = {}
    orders = {player: _yams_order(player) for player in YAMS_PLAYERS}
    for number, turn in enumerate(zip(*orders.values(), strict=True)):
        for seat, (player, cell) in enumerate(zip(YAMS_PLAYERS, turn, strict=True)):
            table.wait_player(player)
            faces[player, cell] = table.roll()
            table.enter(seat, cell)
        if number % 13 == 12:
            check_yams_sheets(table, faces)
        if (number == 55 and late_chances) or (number == 15 and early_chances):  # within ±3
            check_narrowed_chances(table, len(YAMS_PLAYERS), "encore en cours d'affinement")

    # Round 1. Léa announces a row and spoils it by what she holds: a pair held leaves no
    # Grande suite, two unlike dice held no Yams; missed, the row scores 0.
    first = table.roll()
    missed = "announce.large_straight" if len(set(first)) < 5 else "announce.kniffel"
    _announce(table, 0, missed)
    second = table.roll(_pairs(first, alike=missed.endswith("straight")))
    third = table.roll(_pairs(second, alike=missed.endswith("straight")))
    faces["Léa", missed] = third
    table.enter(0, missed, 0)
    # Hugo announces his Chance, keeps his fours to sixes, and enters the third roll there.
    first = table.roll()
    _announce(table, 1, "announce.chance")
    second = table.roll([i for i, face in enumerate(first) if face >= 4])
    third = table.roll([i for i, face in enumerate(second) if face >= 4])
    faces["Hugo", "announce.chance"] = third
    table.enter(1, "announce.chance", sum(third))
    # Chloé enters her first roll into the sèche column.
    first = table.roll()
    faces["Chloé", "hand.chance"] = first
    table.enter(2, "hand.chance", sum(first))

    # Round 2. Léa's Chance, at the second roll.
    table.roll()
    second = table.roll()
    faces["Léa", "free.chance"] = second
    table.enter(0, "free.chance", sum(second))
    # Hugo's second roll: the sèche column refuses it in French, and nothing changes.
    table.roll()
    second = table.roll()
    table.refused(1, "hand.ones", FR_REFUSED)
    assert table.tray_faces() == second
    faces["Hugo", "free.sixes"] = second
    table.enter(1, "free.sixes", yams_points("sixes", second))
    # Chloé's descendante ends with Chance.
    first = table.roll()
    faces["Chloé", "down.chance"] = first
    table.enter(2, "down.chance", sum(first))

    # Round 3: the last cells. Unannounced, the annoncée column takes a first roll.
    first = table.roll()
    other = next(cell for cell in YAMS_LEFT["Léa"][:2] if cell != missed)
    faces["Léa", other] = first
    table.enter(0, other, yams_points(other.split(".")[1], first))
    first = table.roll()
    faces["Hugo", "hand.ones"] = first
    table.enter(1, "hand.ones", yams_points("ones", first))
    first = table.roll()
    faces["Chloé", "up.ones"] = first
    table.enter(2, "up.ones", yams_points("ones", first))

    table.wait_end()
    check_fits_and_words(table, FITS)
    check_yams_sheets(table, faces)
    assert table.errors() == []


def test_a_three_player_yams_with_virtual_dice_in_french(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True)
    play_yams(ChromiumTable(context.new_page(), server), early_chances=False, late_chances=False)
    context.close()
