"""Issue 31's "done when" at its full scale: a four-player Rauf-Runter-Kniffel game on two phones
with the server stopped for ten minutes in the middle (docs/board.md, "Installieren und ohne
Netz"; docs/decisions.md, "The board offline").

About twelve minutes, so it runs only when asked: ``KNIFFEL_FULL_SCALE=1 uv run --frozen pytest
tests/e2e/test_offline_full_scale.py`` (``KNIFFEL_FULL_SCALE_DOWN_S`` shortens the downtime to try
the test itself). CI runs the same flow at a small scale in ``test_offline.py`` (two phones, 20
entries, a reload, a conflict).

With the server stopped, neither phone hears of the other's entries, so only one of them can
carry the turns on: the first phone is the table's, and makes 30 entries (the four players' turns
in order, spread over the ten minutes), reloaded after 15. The second phone, open on the same
game with its key, enters a turn that the first phone entered too: a conflict, which is said in
words once the server is back and dropped. Every one of the 30 is stored in order, and every
total is right on both phones.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from kniffel.offline import sheet_state

from .conftest import BOARD, _free_port, board_process
from .test_board_state import new_game
from .test_offline import _DOWN, _enter_offline, _open_with_rules_kept, _stored

pytestmark = pytest.mark.skipif(
    os.environ.get("KNIFFEL_FULL_SCALE") != "1",
    reason="issue 31's done-when at full scale (12 minutes): opt in with KNIFFEL_FULL_SCALE=1",
)

#: How long the server is down, in seconds (ten minutes, as issue 31 asks).
DOWN_SECONDS = float(os.environ.get("KNIFFEL_FULL_SCALE_DOWN_S", "600"))
PLAYERS = ["Anna", "Ben", "Cem", "Dana"]
ENTRIES = 30
#: Generous: a phone's page starting Python on a busy machine.
WAIT_MS = 180_000


def test_a_four_player_game_on_two_phones_with_the_server_stopped_for_ten_minutes(
    browser: Browser, tmp_path: Path, preset_tables: None
) -> None:
    port = _free_port()
    # Each player's ↓ column from the top, turn by turn: (seat, cell, dice, points).
    moves = [
        (n % 4, f"down.{_DOWN[n // 4][0]}", _DOWN[n // 4][1], _DOWN[n // 4][2])
        for n in range(ENTRIES)
    ]
    with board_process(tmp_path, BOARD, port=port) as (url, process):
        game = new_game(url, "rauf-runter", PLAYERS)
        first, one = _open_with_rules_kept(browser, url, game)
        second, two = _open_with_rules_kept(browser, url, game)
        process.kill()  # the laptop's board stops
        process.wait()
    stopped = time.monotonic()
    try:
        for n, move in enumerate(moves):
            if n == ENTRIES // 2:
                one.reload()
                kept = one.locator(".status .kept-count")
                expect(kept).to_have_text(f"Noch nicht gesendet: {n}", timeout=WAIT_MS)
            _enter_offline(one, *move)
            # The entries spread over the downtime, as a game goes on at the table.
            pause = stopped + DOWN_SECONDS * (n + 1) / (ENTRIES + 1) - time.monotonic()
            if pause > 0:
                one.wait_for_timeout(pause * 1000)
        expect(one.locator(".status .kept-count")).to_have_text(f"Noch nicht gesendet: {ENTRIES}")
        # The second phone, which saw none of them, enters Anna's first turn as well.
        _enter_offline(two, 0, "free.chance", "66554", "26")
        expect(two.locator(".status .kept-count")).to_have_text("Noch nicht gesendet: 1")
        second.set_offline(True)  # its Wi-Fi comes back a little later than the board
        left = stopped + DOWN_SECONDS - time.monotonic()
        if left > 0:
            one.wait_for_timeout(left * 1000)

        with board_process(tmp_path, BOARD, port=port) as (url, _):  # the same store and port
            board = one.locator("#board")
            expect(board).not_to_have_attribute("data-kept", "true", timeout=WAIT_MS)
            expect(board).to_have_attribute("data-version", str(ENTRIES), timeout=WAIT_MS)
            expect(one.locator(".status .kept-refused")).to_have_count(0)
            second.set_offline(False)
            refused = two.locator(".status .kept-refused")
            expect(refused).to_contain_text("Anna: ", timeout=WAIT_MS)
            refused.get_by_role("button", name="Verwerfen").click()
            with urllib.request.urlopen(f"{url}/api/games/{game['id']}/record") as answer:
                record = json.load(answer)
            totals = [str(player["total"]) for player in sheet_state(record, [])["players"]]
            for page in (one, two):
                expect(page.locator("#board")).to_have_attribute("data-version", str(ENTRIES))
                expect(page.locator("#board")).not_to_have_attribute("data-kept", "true")
                for seat, total in enumerate(totals):
                    expect(page.locator(f"#tab-{seat} .player-total")).to_have_text(total)
            expected = [(PLAYERS[seat], cell) for seat, cell, _, _ in moves]
            assert _stored(url, game) == expected
    finally:
        first.close()
        second.close()
