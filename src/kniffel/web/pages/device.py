"""A game made on this device with no server (issue 31, item 5; docs/board.md, "Installieren und
ohne Netz"; docs/decisions.md, "The board offline").

``GET /device`` is the page such a game is played on: the service worker keeps it when it installs
(``worker/sw.js``), so the installed app opens it with no network at all. The game itself lives in
the device's IndexedDB (``static/device/games.js``) as a ``kniffel-record/1`` record; the rules in
the page (``static/rules.js``, :mod:`kniffel.offline` in Pyodide) draw its sheet. The server gives
the page only what it cannot compute there: a blank sheet of each preset, for each set of columns
its house rules give, in the page's words (the board's own ``sheet.html``, so the device draws
the sheet the board draws), the words of every refusal, so that a bad entry or correction on the
device reads as it reads on the board, and the words of the board's notes (the upper bonus's,
the undo note: :func:`kniffel.web.present.offline_words.offline_words`). Corrections use the
board's own dialog (``edit_dialog.html``; ``static/device/edit.js``).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup

from kniffel.board.sheet_view import board_view, offline_cell_words
from kniffel.locales import Translator
from kniffel.rules import Discipline, Game, Variant, get_variant
from kniffel.web import rendering
from kniffel.web.present.offline_words import offline_words, refusal_words

__all__ = ["DEVICE_PRESETS", "device_words", "router"]

router = APIRouter(include_in_schema=False)

#: The presets a device starts with no server, typed dice or points: the Kniffel sheets, and Jamb
#: and Yams with the roll number said and announcements made on the device. Virtual dice and bots
#: start on the server.
DEVICE_PRESETS = ("rauf-runter", "kniffel", "yahtzee", "dreifach", "jamb", "yams")
#: One seat's sheet as the board's page draws it (``sheet.html``), to fill the page's templates.
_SHEET = rendering.templates.env.from_string(
    '{% from "sheet.html" import sheet_table with context %}'
    "{{ sheet_table(sheet, board, true, true) }}"
)


def _column_sets(name: str) -> list[Variant]:
    """The preset with each choice of the columns its house rules add (Jamb's hand and middle
    columns, Yams' hand and announce columns): the sheets a game of it can have."""
    preset = get_variant(name)
    optional = [spec.id for spec in preset.optional]
    chosen = product((False, True), repeat=len(optional))
    return [preset.with_options(dict(zip(optional, on, strict=True))) for on in chosen]


def _widest(name: str) -> Variant:
    """The preset with every column its house rules can add: its every cell, for the words."""
    return get_variant(name, {spec.id: True for spec in get_variant(name).optional})


def _arrows(variant: Variant) -> bool:
    """Whether a column of ``variant`` is played in order: a cleared cell there is due again (the
    correction dialog's note says which)."""
    return any(spec.discipline is not Discipline.FREE for spec in Game(variant, ["·"]).columns)


def _blank_sheets(t: Translator) -> list[dict[str, Any]]:
    """Each preset's sheet for one seat, nothing entered, once for each set of columns its house
    rules give (``columns``: their ids, as the page finds the game's): the page copies it for
    every player."""
    blanks = []
    for name in DEVICE_PRESETS:
        own = t.for_variant(get_variant(name))
        # The cells' names as the board words them (static/tafel/paint.js reads them), and the
        # notes the board writes under the sheet (static/tafel/notes.js fills them in).
        words = offline_cell_words(_widest(name), own)
        notes = offline_words(_widest(name), t)["notes"]
        for n, variant in enumerate(_column_sets(name)):
            board = board_view(Game(variant, ["·"]), own)
            # The board's own sheet, in the preset's words as its game page gives them
            # (``game_words``: no "Kniffel-Bonus" row on a Jamb or Yams sheet).
            sheet = _SHEET.render(
                lang=t.lang, game_words=name, sheet=board.sheets[0], board=board, game_id=""
            )
            blanks.append(
                {"preset": name, "columns": " ".join(variant.column_ids), "board": board}
                | {"sheet": Markup(sheet), "words": words if n == 0 else None}
                | {"notes": notes if n == 0 else None, "arrows": _arrows(variant)}
            )
    return blanks


def device_words(t: Translator) -> dict[str, Any]:
    """What the page needs to word a refusal of a game of any of :data:`DEVICE_PRESETS` (with
    every column their house rules can add) as :func:`kniffel.locales.refusals.refusal_text` words
    it (``static/device/words.js``; :func:`kniffel.web.present.offline_words.refusal_words`)."""
    return refusal_words(t, [_widest(name) for name in DEVICE_PRESETS])


@router.get("/device")
def device_game(request: Request) -> Response:
    """The page of a game kept on this device (its id in the address's fragment)."""

    t = rendering.translator(request)
    context = {"blanks": _blank_sheets(t), "words": device_words(t)}
    return rendering.render(request, "device.html", context)
