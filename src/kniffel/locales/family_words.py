"""The words of the column family's other games: Jamb's and Yams's rows and columns (issue 23).

Players of Jamb (Croatia, Serbia) and Yams (France) write their sheets in words of their own:
Jedinice … Šestice, Max, Min, Triling, Kenta, Ful, Poker, Jamb; Na dole, Slobodna, Na gore,
Najava; Brelan, Carré, Full, Petite suite, Grande suite, Yams; descendante, montante, libre,
sèche, annoncée. This module holds them by the presets' row and column ids (the contract of
docs/rules.md for the presets ``jamb`` and ``yams``) in every language of the board, so that
the sheet, the refusals and the CLI name a Jamb or Yams cell as its players do.

Jamb's rows and columns are new to the board: every language has its own word for each here.
Yams is the Kniffel grid (its row ids are Kniffel's): its French words are all here, and in the
other languages it reads the catalogues' Kniffel words (:data:`kniffel.locales.ROW_LABELS`)
except for five of a kind, ``Yams`` everywhere, and its two option columns, which are Jamb's
column kinds and take Jamb's words (``sèche`` is Ručna, ``annoncée`` is Najava).

>>> row_name("jamb", "straight", Translator("hr")), column_name("jamb", "up", Translator("sr_Latn"))
('Kenta', 'Na gore')
>>> row_name("yams", "four_kind", Translator("fr")), row_name("yams", "kniffel", Translator("de"))
('Carré', 'Yams')
>>> column_name("yams", "hand", Translator("fr")), column_name("yams", "hand", Translator("hr"))
('Sèche', 'Ručna')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from kniffel.locales import LANGUAGES, ROW_LABELS, Translator
from kniffel.rules import Row

__all__ = ["FAMILY", "FamilyWords", "column_name", "row_name"]

#: A name by language (Babel's names, as :data:`kniffel.locales.LANGUAGES`).
Words = Mapping[str, str]


def _words(de: str, en: str, hr: str, sr_latn: str, fr: str) -> Words:
    """One name in every language, in the order of :data:`kniffel.locales.LANGUAGES`."""
    return MappingProxyType(dict(zip(LANGUAGES, (de, en, hr, sr_latn, fr), strict=True)))


def _french(word: str) -> Words:
    """A Yams name that only the French sheet writes its own way."""
    return MappingProxyType({"fr": word})


@dataclass(frozen=True)
class FamilyWords:
    """A preset's own words: its rows and columns by id, each in the board's languages.

    ``rows`` and ``columns`` name every id the preset has; a language missing from an entry
    reads the catalogues' Kniffel word for that id (Yams outside France).
    """

    preset: str
    rows: Mapping[str, Words]
    columns: Mapping[str, Words]


#: Jamb (sources: sr.wikipedia "Jamb (igra)", iklub.rs, yamb-hr/yamb): the rows top to bottom,
#: then the columns ↓ Slobodna ↑ Najava and the options Ručna and Od sredine. The Croatian
#: sheet writes "dolje"/"gore" where the Serbian one writes "na dole"/"na gore".
JAMB = FamilyWords(
    preset="jamb",
    rows=MappingProxyType(
        {
            "ones": _words("Einser", "Ones", "Jedinice", "Jedinice", "As"),
            "twos": _words("Zweier", "Twos", "Dvojke", "Dvojke", "Deux"),
            "threes": _words("Dreier", "Threes", "Trojke", "Trojke", "Trois"),
            "fours": _words("Vierer", "Fours", "Četvorke", "Četvorke", "Quatre"),
            "fives": _words("Fünfer", "Fives", "Petice", "Petice", "Cinq"),
            "sixes": _words("Sechser", "Sixes", "Šestice", "Šestice", "Six"),
            "max": _words("Max", "Max", "Max", "Max", "Max"),
            "min": _words("Min", "Min", "Min", "Min", "Min"),
            "trips": _words("Drilling", "Trips", "Triling", "Triling", "Brelan"),
            "straight": _words("Straße", "Straight", "Kenta", "Kenta", "Suite"),
            "full_house": _words("Full House", "Full house", "Ful", "Ful", "Full"),
            "poker": _words("Poker", "Poker", "Poker", "Poker", "Carré"),
            "jamb": _words("Jamb", "Jamb", "Jamb", "Jamb", "Jamb"),
        }
    ),
    columns=MappingProxyType(
        {
            "down": _words("Runter", "Down", "Dolje", "Na dole", "Descendante"),
            "free": _words("Frei", "Free", "Slobodna", "Slobodna", "Libre"),
            "up": _words("Rauf", "Up", "Gore", "Na gore", "Montante"),
            "announce": _words("Ansage", "Announce", "Najava", "Najava", "Annoncée"),
            "hand": _words("Hand", "Hand", "Ručna", "Ručna", "Sèche"),
            "middle": _words(
                "Von der Mitte", "From the middle", "Od sredine", "Od sredine", "Du milieu"
            ),
        }
    ),
)

#: Yams: the Kniffel grid with French names; descendante, montante, libre, and the options
#: sèche (first roll only) and annoncée (announced after the first roll).
YAMS = FamilyWords(
    preset="yams",
    rows=MappingProxyType(
        {
            "ones": _french("As"),
            "twos": _french("Deux"),
            "threes": _french("Trois"),
            "fours": _french("Quatre"),
            "fives": _french("Cinq"),
            "sixes": _french("Six"),
            "three_kind": _french("Brelan"),
            "four_kind": _french("Carré"),
            "full_house": _french("Full"),
            "small_straight": _french("Petite suite"),
            "large_straight": _french("Grande suite"),
            "kniffel": _words("Yams", "Yams", "Yams", "Yams", "Yams"),
            "chance": _french("Chance"),
        }
    ),
    columns=MappingProxyType(
        {
            "down": _french("Descendante"),
            "up": _french("Montante"),
            "free": _french("Libre"),
            "hand": JAMB.columns["hand"],
            "announce": JAMB.columns["announce"],
        }
    ),
)

#: The presets whose words live here.
FAMILY: Mapping[str, FamilyWords] = MappingProxyType({"jamb": JAMB, "yams": YAMS})

#: Kniffel's column words (message ids of the catalogues) by column id, for Yams outside France.
_KNIFFEL_COLUMNS = {"down": "Runter", "up": "Rauf", "free": "Frei"}


def row_name(preset: str, row: str, t: Translator) -> str:
    """The name of ``preset``'s row ``row`` as its players write it, in ``t``'s language."""
    words = _family(preset).rows.get(row)
    if words is None:
        rows = ", ".join(FAMILY[preset].rows)
        raise KeyError(f"{preset} has no row {row!r}; its rows are {rows}")
    return words.get(t.lang) or t(ROW_LABELS[Row(row)])


def column_name(preset: str, column: str, t: Translator) -> str:
    """The name of ``preset``'s column ``column`` as its players write it, in ``t``'s language."""
    words = _family(preset).columns.get(column)
    if words is None:
        columns = ", ".join(FAMILY[preset].columns)
        raise KeyError(f"{preset} has no column {column!r}; its columns are {columns}")
    return words.get(t.lang) or t(_KNIFFEL_COLUMNS[column])


def _family(preset: str) -> FamilyWords:
    family = FAMILY.get(preset)
    if family is None:
        raise KeyError(f"no family words for {preset!r}; they are for {', '.join(FAMILY)}")
    return family
