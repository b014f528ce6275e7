"""The catalogues: every message the code and the templates use is translated in every language
(German ids; English, Croatian, Serbian in Latin script, French), placeholders kept, plural forms
as each language counts."""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import kniffel
from kniffel.locales import LANGUAGES, ROW_LABELS, Translator, po_file
from kniffel.locales.refusals import refusal_text
from kniffel.rules import PRESETS, Enter, Game, KniffelError, Row, get_variant
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
    "own_words": None,
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
    """Every catalogue holds the German one's message ids, no more, each with a translation."""
    mine, other = translated(lang), translated("en" if lang == "de" else "de")
    assert sorted(k for k in mine if k not in other) == []
    assert sorted(f"{k}" for k in other if k not in mine) == []
    assert sorted(f"{k}" for k, text in mine.items() if not text) == []


def test_a_missing_translation_is_caught(tmp_path: Path) -> None:
    """The check above is real: a used message with no entry is reported."""
    catalogue = translated("en")
    del catalogue[(None, "Rückgängig")]
    assert (None, "Rückgängig") in used_messages() - catalogue.keys()


def names(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "de"])
def test_placeholders_match(lang: str) -> None:
    """A translation keeps the message's ``{name}`` placeholders, in every plural form."""
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        forms = (m.string,) if isinstance(m.string, str) else m.string
        wanted = set().union(*(names(i) for i in ids))
        if m.id == "review-formula":  # an id that names its text; the text has no placeholders
            wanted = set()
        wrong += [(m.context, ids[0], form) for form in forms if names(form) != wanted]
    assert wrong == []


def test_a_lost_placeholder_is_caught() -> None:
    """The check above is real: a translation that drops ``{n}`` is told apart."""
    assert names("{n} poteza") == names("{n} Züge") and names("poteza") != names("{n} Züge")


#: Each language's plural rule: how many forms, and the form (0, 1, 2) for some counts.
PLURALS = {
    "de": (2, {0: 1, 1: 0, 2: 1, 5: 1, 21: 1}),
    "en": (2, {0: 1, 1: 0, 2: 1, 5: 1, 21: 1}),
    # Croatian and Serbian: 1, 21, 101 / 2–4, 22–24 / 0, 5–20, 25–30, 111–114.
    "hr": (3, {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 20: 2, 21: 0, 22: 1, 25: 2}),
    "sr_Latn": (3, {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 20: 2, 21: 0, 22: 1}),
    # French: 0 and 1 take the singular.
    "fr": (2, {0: 0, 1: 0, 2: 1, 5: 1, 21: 1}),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_the_language_s(lang: str) -> None:
    """The ``Plural-Forms`` header counts as the language does, and every plural entry has that
    many forms (gettext picks a form by the header's rule: a wrong rule says "5 potez")."""
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    count, forms = PLURALS[lang]
    assert catalog.num_plurals == count
    rule = gettext.c2py(catalog.plural_expr)
    assert {n: rule(n) for n in forms} == forms
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals and all(len(m.string) == count and all(m.string) for m in plurals)


def test_the_new_languages_say_their_words() -> None:
    """Spot checks that the catalogues are the languages they claim (not copies of another)."""
    assert Translator("hr")("Neues Spiel") == "Nova igra"
    assert Translator("sr_Latn")("Neues Spiel") == "Nova partija"
    assert Translator("fr")("Neues Spiel") == "Nouvelle partie"
    assert [Translator("hr").row(row) for row in Row][:6] == [
        "Jedinice",
        "Dvojke",
        "Trojke",
        "Četvorke",
        "Petice",
        "Šestice",
    ]
    french = Translator("fr")
    assert [french.row(r) for r in (Row.THREE_KIND, Row.FOUR_KIND, Row.FULL_HOUSE)] == [
        "Brelan",
        "Carré",
        "Full",
    ]
    assert french.row(Row.SMALL_STRAIGHT) == "Petite suite"
    english = translated("en")  # once: reading a catalogue takes a moment
    for lang in ("hr", "sr_Latn", "fr"):
        same = [k for k, text in translated(lang).items() if text == english[k]]
        assert len(same) < 40, (lang, same)  # names, formats and "Bonus", not whole sentences


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


# ------------------------------------------ the words as Jamb's and Yams's players write them


def _refusal(lang: str, code: str, **params: object) -> str:
    error = KniffelError(code, code=code, **params)
    return refusal_text(error, Translator(lang, "jamb"))


@pytest.mark.parametrize("lang", ["hr", "sr_Latn"])
def test_croatian_and_serbian_messages_need_no_gender_of_a_name(lang: str) -> None:
    """ "Ana još nije bacao" took the masculine form for every player (issue 32): a message
    about a player is built so that no word agrees with the name."""
    gendered = re.compile(r"\b(bacao|bacio|bacala|bacila|upisao|upisala|igrao|igrala)\b")
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    for m in catalog:
        forms = (m.string,) if isinstance(m.string, str) else m.string
        assert not any(gendered.search(form) for form in forms), (m.id, forms)
    assert _refusal(lang, "no_dice", player="Ana").startswith("Ana: još nema bacanja;")


@pytest.mark.parametrize("lang", ["hr", "sr_Latn"])
def test_croatian_and_serbian_put_no_name_where_it_would_be_declined(lang: str) -> None:
    """ "Savjet za Ana": after a preposition a name takes a case ("za Anu"), which the board
    cannot make of any name; a message says "igrača {name}" or puts the name apart instead."""
    declined = re.compile(
        r"\b(za|s|sa|od|kod|protiv|prema|bez|do|iz|o|po|pri|u|na|k|ka)\s+"
        r"\{(name|names|player|to_move|winner)\}"
    )
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    for m in catalog:
        forms = (m.string,) if isinstance(m.string, str) else m.string
        assert not any(declined.search(form) for form in forms), (m.id, forms)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", "1 ist bei Zweier nicht möglich; möglich sind 0, 2, 4, 6, 8, 10"),
        ("en", "1 is not possible in Twos; possible are 0, 2, 4, 6, 8, 10"),
        ("fr", "1 n’est pas possible en Deux\u202f; sont possibles 0, 2, 4, 6, 8, 10"),
        ("hr", "Dvojke: 1 nije moguće; moguće je 0, 2, 4, 6, 8, 10"),
    ],
)
def test_points_a_row_cannot_take_are_refused_in_words_right_for_any_number(
    lang: str, words: str
) -> None:
    """One point typed into the Twos was refused with "1 Punkte sind bei Zweier nicht möglich"
    ("1 points are not possible"): the refusal names the figure without a noun to agree with."""
    game = Game(get_variant("kniffel"), ["Anna"])
    error = game.check(Enter("Anna", game.cell("main.twos"), points=1))
    assert error is not None and refusal_text(error, Translator(lang)) == words


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("hr", "Polje Dolje, Dvojke nije sljedeće; sljedeće je polje Jedinice"),
        ("sr_Latn", "Polje Na dole, Dvojke nije na redu; na redu je polje Jedinice"),
        ("fr", "La case Descendante, Deux n’est pas à remplir\u202f; c’est As à remplir"),
    ],
)
def test_a_cell_that_is_not_due_agrees_in_number(lang: str, words: str) -> None:
    """ "Dolje, Dvojke nije na redu; na redu je Jedinice": a row's plural name took a singular
    verb. The cell is called "polje" (a field), which the verb agrees with."""
    assert _refusal(lang, "not_due", cell="down.twos", due_row="ones") == words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_due_and_to_move_are_different_words(lang: str) -> None:
    """A box is "due" (its turn in an arrow column), a player is "to move": one word for both
    made "na redu" mean two things on the Croatian board (issue 32)."""
    t = Translator(lang)
    to_move, due = t("am Zug"), t("Pflichtfeld")
    assert to_move not in due and due not in to_move
    assert to_move not in t("{mark} = Pflichtzelle", mark="●")
    assert t("nicht am Zug") not in _refusal(lang, "not_due", cell="down.twos", due_row="ones")


@pytest.mark.parametrize(
    ("lang", "one", "five"),
    [
        ("hr", "12,5 bodova u 1 odluci", "12,5 bodova u 5 odluka"),
        ("sr_Latn", "12,5 poena u 1 odluci", "12,5 poena u 5 odluka"),
        ("fr", "12,5 points en 1 décision", "12,5 points en 5 décisions"),
        ("de", "12,5 Punkte in 1 Entscheidung", "12,5 Punkte in 5 Entscheidungen"),
    ],
)
def test_a_loss_is_counted_in_decisions_by_the_plural_rule(lang: str, one: str, five: str) -> None:
    """The review wrote "Gubitak bodovi: 12,5, odluke: 5" (issue 32)."""
    t = Translator(lang)
    singular, plural = "{loss} Punkte in {n} Entscheidung", "{loss} Punkte in {n} Entscheidungen"
    assert t.ngettext(singular, plural, 1, loss="12,5") == one
    assert t.ngettext(singular, plural, 5, loss="12,5") == five
    assert t.ngettext(singular, plural, 3, loss="12,5") != five or lang in ("de", "fr")


def test_french_writes_its_ordinals_its_cancel_and_no_de_before_a_name() -> None:
    """ "1e lancer", "Abandonner" and "correction de Amélie" (issue 32): "1er lancer", "Annuler",
    and messages with a player's name that need no elision ("correction (Amélie)")."""
    t = Translator("fr")
    assert [t.roll(n) for n in (1, 2, 3)] == ["1er lancer", "2e lancer", "3e lancer"]
    assert t("Abbrechen") == "Annuler" and t("Rückgängig") != t("Abbrechen")
    with po_file("fr").open("rb") as source:
        catalog = read_po(source, locale="fr")
    name = re.compile(r"\b(de|que|le|la) \{(name|names|player|players|to_move)\}")
    for m in catalog:
        forms = (m.string,) if isinstance(m.string, str) else m.string
        assert not any(name.search(form) for form in forms), (m.id, forms)
    assert (
        t("Korrektur von {name}: {cell}", name="Amélie", cell="As")
        == "correction (Amélie)\u00a0: As"
    )


def test_french_puts_a_no_break_space_before_colon_semicolon_and_marks() -> None:
    with po_file("fr").open("rb") as source:
        catalog = read_po(source, locale="fr")
    glued = re.compile(r"(?<![\u00a0\u202f])[:;!?](?=\s|$)")
    wrong = []
    for m in catalog:
        forms = (m.string,) if isinstance(m.string, str) else m.string
        wrong += [form for form in forms if m.id and glued.search(form)]
    assert wrong == []
    assert Translator("fr")("{label}: {text}", label="Export", text="x") == "Export\u00a0: x"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_jamb_and_yams_say_their_own_word_for_five_of_a_kind(lang: str) -> None:
    """ "Udio Kniffela", "Taux de Kniffel", "Bonus Kniffel" on Jamb and Yams pages (issue 32)."""
    assert "Kniffel" not in Translator(lang, "jamb")("Kniffel-Quote")
    yams = Translator(lang, "yams")
    for message in ("Kniffel-Quote", "Kniffel-Bonus", "Kniffel", "Weiterer Kniffel!"):
        assert "Kniffel" not in yams(message), message
    assert "Kniffel" not in yams.ngettext(
        "{n} Punkt je weiterem Kniffel", "{n} Punkte je weiterem Kniffel", 50
    )
    assert Translator("fr", "yams")("Kniffel-Bonus") == "Bonus Yams"
    assert Translator("hr", "jamb")("Kniffel-Quote") == "Udio Jamba"


def test_no_message_writes_a_percent_after_a_figure_by_hand() -> None:
    """A share goes into a message already written as its language writes percents (Babel's
    ``format_percent``: "40 %", "40%"), never as "{percent} %" (issue 34)."""
    by_hand = re.compile(r"\}[ \u00a0\u202f]?%")
    assert [m for _c, m in used_messages() if by_hand.search(m)] == []
    assert not re.search(r'\+ " %"', (SOURCE / "web/static/tafel/chances.js").read_text())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("possible", [False, True])
def test_every_number_of_points_takes_the_form_of_its_plural_category(
    lang: str, possible: bool
) -> None:
    """The page words points offline by CLDR's plural category (``Intl.PluralRules``); the
    catalogue's plural rule must give one form per category (docs/decisions.md, "The board
    offline"). ``point_forms`` refuses a catalogue whose rule splits a category."""
    t = Translator(lang)
    forms = t.point_forms(possible=possible)
    for n in (0, 1, 2, 5, 11, 21, 22, 25, 101, 112):
        category = Locale.parse(lang).plural_form(n)
        assert forms[category].replace("{n}", t.number(n)) == t.points(n, possible=possible)
