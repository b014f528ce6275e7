"""A game made on this device with no server (issue 31, item 5; docs/board.md, "Installieren und
ohne Netz"; docs/decisions.md, "The board offline").

``GET /device`` is the page such a game is played on: the service worker keeps it when it installs
(``worker/sw.js``), so the installed app opens it with no network at all. The game itself lives in
the device's IndexedDB (``static/device/games.js``) as a ``kniffel-record/1`` record; the rules in
the page (``static/rules.js``, :mod:`kniffel.offline` in Pyodide) draw its sheet. The server gives
the page only what it cannot compute there: a blank sheet of each preset, for each set of columns
its house rules give, in the page's words (the board's own ``sheet.html``, so the device draws
the sheet the board draws) and the words of every refusal, so that a bad entry on the device
reads as it reads on the board.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from babel.lists import format_list
from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup

from kniffel.board.sheet_view import board_view, offline_cell_words
from kniffel.locales import Translator
from kniffel.locales.refusals import REFUSALS, cell_words
from kniffel.rules import PRESETS, Game, Variant, get_variant
from kniffel.web import rendering

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
#: The longest list a refusal names ("Joker-Pflicht: Der Kniffel muss in …"): a sheet's rows.
_LONGEST_LIST = 16


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


def _blank_sheets(t: Translator) -> list[dict[str, Any]]:
    """Each preset's sheet for one seat, nothing entered, once for each set of columns its house
    rules give (``columns``: their ids, as the page finds the game's): the page copies it for
    every player."""
    blanks = []
    for name in DEVICE_PRESETS:
        own = t.for_variant(get_variant(name))
        # The cells' names as the board words them (static/tafel/paint.js reads them).
        words = offline_cell_words(_widest(name), own)
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
            )
    return blanks


def device_words(t: Translator) -> dict[str, Any]:
    """What the page needs to word a refusal as :func:`kniffel.locales.refusals.refusal_text`
    words it (``static/device/words.js``): each refusal's message in ``t``'s language (each
    preset's own words where they differ), every cell, row and column in words, and the
    language's "a, b or c" for lists of up to 16 items."""
    refusals = {code: t(message) for code, message in REFUSALS.items()}
    presets: dict[str, Any] = {}
    for name in DEVICE_PRESETS:
        variant = _widest(name)
        own = t.for_variant(PRESETS[name])
        rows = Game(variant, ["·"]).rows
        cells = {
            f"{spec.id}.{row.value}": cell_words(f"{spec.id}.{row.value}", own)
            for spec in variant.columns
            for row in rows
        }
        cells.update({row.value: own.row(row) for row in rows})
        presets[name] = {
            "refusals": {
                code: own(message)
                for code, message in REFUSALS.items()
                if own(message) != refusals[code]
            },
            "cells": cells,
            "rows": {row.value: own.row(row) for row in rows},
            "columns": {spec.id: own.column(spec) for spec in variant.columns},
        }
    either = {
        str(n): format_list([f"{{{i}}}" for i in range(n)], style="or", locale=t.lang)
        for n in range(2, _LONGEST_LIST + 1)
    }
    return {"lang": t.tag, "refusals": refusals, "presets": presets, "or": either}


@router.get("/device")
def device_game(request: Request) -> Response:
    """The page of a game kept on this device (its id in the address's fragment)."""

    t = rendering.translator(request)
    context = {"blanks": _blank_sheets(t), "words": device_words(t)}
    return rendering.render(request, "device.html", context)
