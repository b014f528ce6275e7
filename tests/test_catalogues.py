"""The catalogues: every message the code and the templates use is translated in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import kniffel
from kniffel.locales import LANGUAGES, ROW_LABELS, Translator, po_file
from kniffel.rules import PRESETS, Row
from kniffel.rules import ROWS as KNIFFEL_ROWS

SOURCE = Path(kniffel.__file__).parent

#: How the code marks a message: gettext's names, and the translators' call ``t(...)``.
KEYWORDS = {
    "_": None,
    "N_": None,
    "gettext": None,
    "t": None,
    "words": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
}
METHODS = [
    ("**/templates/**.html", "jinja2.ext:babel_extract"),
    ("**.py", "python"),
]


def used_messages() -> set[tuple[str | None, str]]:
    """Every (context, message id) the sources mark, as Babel extracts them."""
    found: set[tuple[str | None, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        SOURCE, METHODS, keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
    ):
        if isinstance(message, tuple):
            message = message[0]
        if message:
            found.add((context, message))
    return found


def translated(lang: str) -> dict[tuple[str | None, str], str]:
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    # A plural entry (ngettext) counts as translated when every one of its forms is.
    return {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]): (
            m.string if isinstance(m.string, str) else " | ".join(m.string) * all(m.string)
        )
        for m in catalog
        if m.id
    }


def test_the_sources_use_many_messages() -> None:
    assert len(used_messages()) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_used_message_is_translated(lang: str) -> None:
    catalogue = translated(lang)
    missing = sorted(
        f"{context or ''}|{message}"
        for context, message in used_messages()
        if not catalogue.get((context, message))
    )
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_entry_is_translated_in_both(lang: str) -> None:
    """Both catalogues hold the same message ids, each with a translation."""
    mine, other = translated(lang), translated("en" if lang == "de" else "de")
    assert sorted(k for k in mine if k not in other) == []
    assert sorted(f"{k}" for k, text in mine.items() if not text) == []


def test_a_missing_translation_is_caught(tmp_path: Path) -> None:
    """The check above is real: a used message with no entry is reported."""
    catalogue = translated("en")
    del catalogue[(None, "Rückgängig")]
    assert (None, "Rückgängig") in used_messages() - catalogue.keys()


def test_placeholders_match() -> None:
    """A translation keeps the message's ``{name}`` placeholders."""
    import string

    def names(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    english = translated("en")
    assert [k for k, text in english.items() if names(text) != names(k[1])] == []


def test_row_and_column_labels_come_from_the_catalogues() -> None:
    en, de = Translator("en"), Translator("de")
    assert [en.row(row) for row in KNIFFEL_ROWS][:3] == ["Ones", "Twos", "Threes"]
    assert de.row(Row.SMALL_STRAIGHT) == "Kleine Straße"
    assert set(ROW_LABELS) == set(Row)
    assert not hasattr(Row.ONES, "label_de") and not hasattr(Row.ONES, "label_en")
    columns = {spec.label for v in PRESETS.values() for spec in v.columns}
    assert {en.column(spec) for v in PRESETS.values() for spec in v.columns} >= {"Down", "Up"}
    assert columns


def test_the_yahtzee_preset_speaks_its_own_words() -> None:
    yahtzee = Translator("en").for_variant(PRESETS["yahtzee"])
    assert yahtzee.row(Row.KNIFFEL) == "Yahtzee"
    assert yahtzee("Kniffel-Bonus") == "Yahtzee bonus"
    assert Translator("en").for_variant(PRESETS["kniffel"])("Kniffel-Bonus") == "Kniffel bonus"
    assert Translator("de").for_variant(PRESETS["yahtzee"]).row(Row.KNIFFEL) == "Kniffel"
