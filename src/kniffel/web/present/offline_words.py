"""The board's words for a page that draws the sheet itself while the server cannot be reached
(issue 31; docs/decisions.md, "The board offline"): the rules run in the page and answer codes
and numbers (:mod:`kniffel.offline`), the server gives the words they are said in.

- :func:`refusal_words`: each refusal's message in the page's language, every cell, row and
  column of the game in words, and the language's "a, b or c"; ``static/device/words.js`` fills
  them in as :func:`kniffel.locales.refusals.refusal_text` does.
- :func:`offline_words`: those of one game's variant, and the notes the board writes under the
  sheet: the upper bonus's note, the undo note, the rolls of the turn and the line under virtual
  dice (``static/tafel/notes.js``).

tests/e2e/test_offline_words.py holds what the page says offline equal to what the server says.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from babel.lists import format_list

from kniffel.board.sheet_view import BONUS_NOTES
from kniffel.board.turn_view import EXTRA_KNIFFEL, UNDONE, roll_hint, rolls_note
from kniffel.locales import Translator
from kniffel.locales.refusals import REFUSALS, cell_words
from kniffel.rules import CODES, MAX_ROLLS, Cell, Game, Row, Variant

__all__ = ["offline_words", "refusal_words"]

#: The refusals the rules in the page give: the engine's and the record's, and the two of
#: :mod:`kniffel.offline` (the board's own, a key or a busy store, come from the server alone).
_RULES_CODES = (*CODES, "roll_stands", "not_rolled")
#: The longest list a refusal names ("Joker-Pflicht: Der Kniffel muss in …"): a sheet's rows.
_LONGEST_LIST = 16


def refusal_words(
    t: Translator, variants: Iterable[Variant], codes: Iterable[str] = REFUSALS
) -> dict[str, Any]:
    """What the page needs to word a refusal as :func:`~kniffel.locales.refusals.refusal_text`
    words it: the message of each of ``codes`` (every refusal unless named) in ``t``'s language
    (each variant's own words, by its name, where they differ), every cell, row and column in
    words, and the language's "a, b or c" for lists of up to 16 items."""
    refusals = {code: t(REFUSALS[code]) for code in codes}
    presets: dict[str, Any] = {}
    for variant in variants:
        own = t.for_variant(variant)
        game = Game(variant, ["·"])
        cells = {
            f"{spec.id}.{row.value}": cell_words(f"{spec.id}.{row.value}", own)
            for spec in game.columns
            for row in game.rows
        }
        cells.update({row.value: own.row(row) for row in game.rows})
        presets[variant.name] = {
            "refusals": {
                code: own(REFUSALS[code])
                for code in refusals
                if own(REFUSALS[code]) != refusals[code]
            },
            "cells": cells,
            "rows": {row.value: own.row(row) for row in game.rows},
            "columns": {spec.id: own.column(spec) for spec in game.columns},
        }
    either = {
        str(n): format_list([f"{{{i}}}" for i in range(n)], style="or", locale=t.lang)
        for n in range(2, _LONGEST_LIST + 1)
    }
    return {"lang": t.tag, "refusals": refusals, "presets": presets, "or": either}


@lru_cache(maxsize=64)  # asked by every board page of a device that enters
def offline_words(variant: Variant, t: Translator) -> dict[str, Any]:
    """The words of a game of ``variant`` that the page says while it draws the sheet itself:
    ``refusals`` (:func:`refusal_words`, the variant under ``variant``) and ``notes``: the
    bonus note by :func:`kniffel.offline.bonus_note`'s state, the rolls of the turn and the
    line under virtual dice for every number of rolls, the undo note's parts
    (:func:`kniffel.offline.undo_note`), the lines of a further Kniffel
    (:func:`kniffel.offline.extra_kniffel`) and every cell as the undo note names it. ``{n}``,
    ``{name}``, ``{cell}``, ``{cells}``, ``{dice}`` and ``{what}`` stand for what the page fills
    in. Shared: not to be changed."""
    own = t.for_variant(variant)
    game = Game(variant, ["·"])
    blanks = {name: f"{{{name}}}" for name in ("n", "name", "cell", "cells", "dice", "what")}
    notes = {
        "bonus": {state: own(message, **blanks) for state, message in BONUS_NOTES.items()},
        "rolls": [rolls_note(own, "virtual", rolls) for rolls in range(MAX_ROLLS + 1)],
        "physical": rolls_note(own, "physical", 0),
        "hints": [roll_hint(own, rolls) for rolls in range(MAX_ROLLS + 1)],
        "undo": {kind: own(message, **blanks) for kind, message in UNDONE.items()},
        "cells": {
            str(Cell(spec.id, row)): own.cell(variant, Cell(spec.id, row))
            for spec in game.columns
            for row in game.rows
        },
    }
    if Row.KNIFFEL in game.rows:  # a further Kniffel: not on a Jamb sheet, which has none
        notes["extra"] = {part: own(message, **blanks) for part, message in EXTRA_KNIFFEL.items()}
    refusals = refusal_words(own, [variant], _RULES_CODES)
    return {"variant": variant.name, "refusals": refusals, "notes": notes}
