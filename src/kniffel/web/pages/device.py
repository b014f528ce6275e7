"""A game made on this device with no server (issue 31, item 5; docs/board.md, "Installieren und
ohne Netz"; docs/decisions.md, "The board offline").

``GET /device`` is the page such a game is played on: the service worker keeps it when it installs
(``worker/sw.js``), so the installed app opens it with no network at all. The game itself lives in
the device's IndexedDB (``static/device/games.js``) as a ``kniffel-record/1`` record; the rules in
the page (``static/rules.js``, :mod:`kniffel.offline` in Pyodide) draw its sheet. The server gives
the page only what it cannot compute there: a blank sheet of each preset in the page's words
(the board's own ``sheet.html``, so the device draws the sheet the board draws) and the words of
every refusal, so that a bad entry on the device reads as it reads on the board.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from kniffel.board.sheet_view import board_view, offline_cell_words
from kniffel.locales import Translator
from kniffel.rules import PRESETS, Game, get_variant
from kniffel.web import rendering
from kniffel.web.present.offline_words import refusal_words

__all__ = ["DEVICE_PRESETS", "device_words", "router"]

router = APIRouter(include_in_schema=False)

#: The presets a device starts with no server: the Kniffel sheets, typed dice or points. Jamb and
#: Yams (the roll number, announcements) and virtual dice start on the server.
DEVICE_PRESETS = ("rauf-runter", "kniffel", "yahtzee", "dreifach")


def _blank_sheets(t: Translator) -> list[dict[str, Any]]:
    """Each preset's sheet for one seat, nothing entered: the page copies it for every player."""
    blanks = []
    for name in DEVICE_PRESETS:
        variant = get_variant(name)
        game, own = Game(variant, ["·"]), t.for_variant(variant)
        board = board_view(game, own)
        # The cells' names as the board words them (static/tafel/paint.js reads them).
        words = offline_cell_words(variant, own)
        blanks.append({"preset": name, "board": board, "sheet": board.sheets[0], "words": words})
    return blanks


def device_words(t: Translator) -> dict[str, Any]:
    """What the page needs to word a refusal of a game of any of :data:`DEVICE_PRESETS` as
    :func:`kniffel.locales.refusals.refusal_text` words it (``static/device/words.js``;
    :func:`kniffel.web.present.offline_words.refusal_words`)."""
    return refusal_words(t, [PRESETS[name] for name in DEVICE_PRESETS])


@router.get("/device")
def device_game(request: Request) -> Response:
    """The page of a game kept on this device (its id in the address's fragment)."""

    t = rendering.translator(request)
    context = {"blanks": _blank_sheets(t), "words": device_words(t)}
    return rendering.render(request, "device.html", context)
