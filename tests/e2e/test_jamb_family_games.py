"""Jamb played whole in the browser, in its players' language (issue 23, "Done when"): a
four-player Jamb with real dice in Croatian, started on the start page and every turn played on
the board page (tests/e2e/jamb_pages.py drives it: keys and single taps, each change awaited by
the board's version). Its Yams partner is tests/e2e/test_yams_family_game.py (a file of its own,
so that CI's two processes play the two games side by side).

The Jamb game (↓, Slobodna, ↑ and Najava: 52 turns a player, 208 in all) types dice the test
chooses: varied by player, column and row, so that some columns reach Σ1's bonus and some rows
are missed. Its last three turns a player hold the special cases: an announcement kept, an
announcement missed (0), unannounced first rolls into Najava, a second roll refused there in
Croatian (nothing changes), Kenta by its roll (56 on the second). Every player's Σ1, Σ2, Σ3 and
total of each column, and the total of all columns, are checked after every thirteen rounds and
at the end against a reckoning done here with plain arithmetic from the dice (docs/rules.md,
"Jamb"), not by the rules engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser

from .conftest import PHONE
from .jamb_pages import ChromiumTable, Table, check_fits_and_words, check_narrowed_chances
from .test_phone_geometry import FITS

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
HR_REFUSED = "Polje Najava, Četvorke bez najave prima samo prvo bacanje, ne bacanje 2"


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


def check_jamb_sheets(table: Table, played: dict[str, list[Turn]]) -> None:
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
        assert table.sum_lines(seat, JAMB_LINES) == wanted, player


def play_jamb_turn(table: Table, seat: int, turn: Turn) -> None:
    row = turn.cell.split(".")[1]
    if turn.announce:
        # The button's name is the verb and the row, once (not "Najavi: Najava, Jamb").
        table.announce(f"Najavi: {HR_ROWS[row]}")
        assert table.announced(seat) == f"c{seat}-{turn.cell}"
    # The roll is said where it counts (a Kenta, Najava): the board assumes none there.
    counts = [turn.cell, turn.refused]
    say_roll = any(name.startswith("announce.") or name.endswith(".straight") for name in counts)
    table.type_dice(turn.dice, turn.roll, say_roll=say_roll)
    if turn.refused:
        table.previewed(turn.dice, turn.roll)
        table.refused(seat, turn.refused, HR_REFUSED)
    special = turn.announce or turn.refused or turn in LAST_TURNS[JAMB_PLAYERS[seat]]
    table.enter(seat, turn.cell, jamb_points(row, turn.dice, turn.roll) if special else None)


def play_jamb(table: Table, *, early_chances: bool = True) -> None:
    """The whole game, in either engine (tests/e2e/jamb_pages.py, tests/e2e/jamb_webkit.py);
    ``early_chances``: whether the chances are also narrowed to ±3 a quarter in (every sheet's
    from nothing, some 30 s of CI's budget: CI's chromium game checks them late only, as the
    Yams game's does, and the WebKit game, with ``KNIFFEL_EVERY_ENGINE=1``, checks both;
    docs/contributing.md)."""
    table.start_game(lang="hr", variant="jamb", players=JAMB_PLAYERS)
    assert table.column_heads(0) == ["↓ Dolje", "S Slobodna", "↑ Gore", "N Najava"]
    check_fits_and_words(table, FITS)

    turns = {player: jamb_turns(seat) for seat, player in enumerate(JAMB_PLAYERS)}
    played: dict[str, list[Turn]] = {player: [] for player in JAMB_PLAYERS}
    for number in range(len(JAMB_COLUMNS) * len(JAMB_ROWS)):
        for seat, player in enumerate(JAMB_PLAYERS):
            turn = turns[player][number]
            table.wait_player(player)
            play_jamb_turn(table, seat, turn)
            played[player].append(turn)
        if number % 13 == 12:
            check_jamb_sheets(table, played)
        if number == 45 or (number == 12 and early_chances):  # the chances within ±3 points
            check_narrowed_chances(table, len(JAMB_PLAYERS), "još se računa točnije")

    table.wait_end()
    check_fits_and_words(table, FITS)
    assert table.errors() == []


def test_a_four_player_jamb_with_real_dice_in_croatian(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="hr", has_touch=True)
    play_jamb(ChromiumTable(context.new_page(), server), early_chances=False)
    context.close()
