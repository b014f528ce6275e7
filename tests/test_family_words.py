"""Jamb's and Yams's words (kniffel.locales.family_words): every id of issue 23's contract named in
every language, the words the issue names, and agreement with the catalogues where they meet."""

from __future__ import annotations

import pytest

from kniffel.locales import LANGUAGES, Translator
from kniffel.locales.family_words import FAMILY, JAMB, YAMS, column_name, row_name
from kniffel.rules import PRESETS, Row
from kniffel.rules.rows import rows_for

#: The contract (issue 23, "Contract"): other programs rely on these ids.
JAMB_ROWS = [
    *("ones", "twos", "threes", "fours", "fives", "sixes"),
    *("max", "min", "trips", "straight", "full_house", "poker", "jamb"),
]
JAMB_COLUMNS = ["down", "free", "up", "announce", "hand", "middle"]
YAMS_COLUMNS = ["down", "up", "free", "hand", "announce"]


def test_the_tables_name_the_contract_s_ids() -> None:
    assert set(FAMILY) == {"jamb", "yams"}
    assert list(JAMB.rows) == JAMB_ROWS
    # The same ids, in the same order, as the rules' sheets (kniffel.rules).
    assert list(JAMB.rows) == [row.value for row in rows_for(PRESETS["jamb"].options)]
    assert list(YAMS.rows) == [row.value for row in rows_for(PRESETS["yams"].options)]
    assert list(JAMB.columns) == JAMB_COLUMNS
    assert list(YAMS.rows) == [row.value for row in rows_for(PRESETS["kniffel"].options)]
    assert list(YAMS.columns) == YAMS_COLUMNS


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", ["jamb", "yams"])
def test_every_row_and_column_has_a_name_in_every_language(preset: str, lang: str) -> None:
    t = Translator(lang)
    family = FAMILY[preset]
    names = [row_name(preset, row, t) for row in family.rows]
    names += [column_name(preset, column, t) for column in family.columns]
    assert all(name.strip() == name and name for name in names)
    # No two rows of one sheet read alike (a player could not tell them apart).
    rows = [row_name(preset, row, t) for row in family.rows]
    assert len(set(rows)) == len(rows)
    columns = [column_name(preset, column, t) for column in family.columns]
    assert len(set(columns)) == len(columns)


def test_jamb_reads_as_croatian_and_serbian_sheets_write_it() -> None:
    for lang in ("hr", "sr_Latn"):
        t = Translator(lang)
        assert [row_name("jamb", row, t) for row in JAMB_ROWS] == [
            *("Jedinice", "Dvojke", "Trojke", "Četvorke", "Petice", "Šestice"),
            *("Max", "Min", "Triling", "Kenta", "Ful", "Poker", "Jamb"),
        ]
    serbian = Translator("sr_Latn")
    assert [column_name("jamb", column, serbian) for column in JAMB_COLUMNS] == [
        *("Na dole", "Slobodna", "Na gore", "Najava", "Ručna", "Od sredine"),
    ]
    croatian = Translator("hr")
    assert [column_name("jamb", column, croatian) for column in JAMB_COLUMNS] == [
        *("Dolje", "Slobodna", "Gore", "Najava", "Ručna", "Od sredine"),
    ]


def test_yams_reads_as_french_sheets_write_it() -> None:
    french = Translator("fr")
    assert [row_name("yams", row, french) for row in YAMS.rows] == [
        *("As", "Deux", "Trois", "Quatre", "Cinq", "Six"),
        *("Brelan", "Carré", "Full", "Petite suite", "Grande suite", "Yams", "Chance"),
    ]
    assert [column_name("yams", column, french) for column in YAMS_COLUMNS] == [
        *("Descendante", "Montante", "Libre", "Sèche", "Annoncée"),
    ]


def test_yams_elsewhere_reads_the_kniffel_words_but_yams() -> None:
    german, croatian = Translator("de"), Translator("hr")
    assert row_name("yams", "three_kind", german) == "Dreierpasch"
    assert row_name("yams", "kniffel", german) == "Yams"
    assert row_name("yams", "small_straight", croatian) == "Mala kenta"
    assert column_name("yams", "down", Translator("en")) == "Down"
    assert column_name("yams", "announce", croatian) == "Najava"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_agrees_with_the_catalogues_where_they_meet(lang: str) -> None:
    """A word both the table and the catalogues hold reads the same in both: the arrow and
    free columns, the upper rows, and Yams's French rows (Kniffel's in the French catalogue)."""
    t = Translator(lang)
    for column, message in (("down", "Runter"), ("up", "Rauf"), ("free", "Frei")):
        assert column_name("jamb", column, t) == t(message)
        assert column_name("yams", column, t) == t(message)
    for row in (Row.ONES, Row.TWOS, Row.THREES, Row.FOURS, Row.FIVES, Row.SIXES):
        assert row_name("jamb", row.value, t) == t.row(row)
    if lang == "fr":
        french_rows = [Row(row) for row in YAMS.rows if row != Row.KNIFFEL]
        assert [row_name("yams", row.value, t) for row in french_rows] == [
            t.row(row) for row in french_rows
        ]


def test_an_unknown_id_is_refused_in_plain_words() -> None:
    t = Translator("hr")
    with pytest.raises(KeyError, match="jamb has no row 'chance'; its rows are ones, twos"):
        row_name("jamb", "chance", t)
    with pytest.raises(KeyError, match="yams has no column 'middle'"):
        column_name("yams", "middle", t)
    with pytest.raises(KeyError, match="no family words for 'kniffel'"):
        row_name("kniffel", "ones", t)
