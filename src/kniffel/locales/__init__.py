"""The board's words in German, English, Croatian, Serbian (Latin script) and French: gettext
catalogues, compiled when first used.

The catalogues are the ``.po`` files beside this module (``de/LC_MESSAGES/messages.po``,
``en/…``, ``hr/…``, ``sr_Latn/…``, ``fr/…``); the German text is the message id. Nothing
compiled is kept in the repository: the first lookup of a language reads its ``.po`` file with
Babel and compiles it in memory (docs/decisions.md, "Translations").

A language is named as Babel names its locale (``sr_Latn``); the page and the API write it as a
language tag (``sr-Latn``, :func:`page_tag`), and :func:`language_of` reads either.

A game may speak its own words: a message looked up for the ``yahtzee`` preset
first tries the message context ``yahtzee`` (English "Yahtzee bonus" where
Kniffel says "Kniffel bonus").

>>> t = Translator("en")
>>> t("noch {n} bis zum Bonus", n=12)
'12 to the bonus'
>>> Translator("de").number(1234), t.number(1234)
('1.234', '1,234')
>>> Translator("en", game="yahtzee")("Kniffel-Bonus")
'Yahtzee bonus'
>>> Translator("hr").ngettext("{n} Zug", "{n} Züge", 22), Translator("fr").percent("77")
('22 poteza', '77\\xa0%')
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from kniffel.rules import Cell, ColumnSpec, Row, Variant

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALES",
    "NP_",
    "N_",
    "ROLL_LABELS",
    "ROW_LABELS",
    "Catalogue",
    "Translator",
    "catalogue",
    "language_of",
    "page_tag",
    "percent_gap",
]

#: The board's languages, German first (the message ids), then English; then Croatian and Serbian
#: in Latin script for Jamb, French for Yams (issue 23). Babel's locale names.
LANGUAGES = ("de", "en", "hr", "sr_Latn", "fr")
DEFAULT_LANGUAGE = "de"
DOMAIN = "messages"
LOCALES = Path(__file__).parent


def page_tag(lang: str) -> str:
    """``lang`` as a language tag on the page and in the API (BCP 47: ``sr-Latn``).

    >>> page_tag("sr_Latn"), page_tag("fr")
    ('sr-Latn', 'fr')
    """
    return lang.replace("_", "-")


def language_of(tag: str | None) -> str | None:
    """The board's language a ``?lang=``, a cookie or a ``--lang`` names (``sr-Latn``,
    ``sr_latn``; any case), or None for anything else.

    >>> language_of("sr-Latn"), language_of("FR"), language_of("sr"), language_of(None)
    ('sr_Latn', 'fr', None, None)
    """
    if tag is None:
        return None
    wanted = tag.strip().replace("-", "_").casefold()
    return next((lang for lang in LANGUAGES if lang.casefold() == wanted), None)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues without translating it here."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` within ``context`` for the catalogues without translating it here."""
    return message


#: The row labels: message ids of the catalogues (German first, as on the paper sheet).
ROW_LABELS: dict[Row, str] = {
    Row.ONES: N_("Einser"),
    Row.TWOS: N_("Zweier"),
    Row.THREES: N_("Dreier"),
    Row.FOURS: N_("Vierer"),
    Row.FIVES: N_("Fünfer"),
    Row.SIXES: N_("Sechser"),
    Row.THREE_KIND: N_("Dreierpasch"),
    Row.FOUR_KIND: N_("Viererpasch"),
    Row.FULL_HOUSE: N_("Full House"),
    Row.SMALL_STRAIGHT: N_("Kleine Straße"),
    Row.LARGE_STRAIGHT: N_("Große Straße"),
    Row.KNIFFEL: N_("Kniffel"),
    Row.CHANCE: N_("Chance"),
    # Jamb's rows (docs/rules.md, "Jamb")
    Row.MAX: N_("Max"),
    Row.MIN: N_("Min"),
    Row.TRIPS: N_("Triling"),
    Row.STRAIGHT: N_("Kenta"),
    Row.POKER: N_("Poker"),
    Row.JAMB: N_("Jamb"),
}

#: The rolls of a turn by number, each its own message: an ordinal is a word of its own in some
#: languages (French "1er lancer", "2e lancer").
ROLL_LABELS = (N_("1. Wurf"), N_("2. Wurf"), N_("3. Wurf"))

#: The column names that are words (``×2`` is the same in every language).
COLUMN_LABELS = (
    *(N_("Runter"), N_("Rauf"), N_("Frei"), N_("Kniffel")),
    *(N_("Ansage"), N_("Hand"), N_("Von der Mitte")),
)


@dataclass(frozen=True)
class Catalogue:
    """One language's compiled catalogue and the (context, id) pairs it translates."""

    lang: str
    translations: Translations
    known: frozenset[tuple[str | None, str]]

    def text(self, message: str, context: str | None = None) -> str:
        """``message`` in this language (within ``context`` where it has its own words)."""
        if context is not None and (context, message) in self.known:
            return str(self.translations.pgettext(context, message))
        return str(self.translations.gettext(message))

    def plural(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        """The form of ``singular``/``plural`` for ``n`` by the language's plural rule
        (gettext's ``ngettext``; within ``context`` where it has its own words)."""
        if context is not None and (context, singular) in self.known:
            return str(self.translations.npgettext(context, singular, plural, n))
        return str(self.translations.ngettext(singular, plural, n))


def po_file(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalogue(lang: str) -> Catalogue:
    """The compiled catalogue of ``lang`` (one of :data:`LANGUAGES`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    with po_file(lang).open("rb") as source:
        messages = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    known = frozenset(
        (m.context, m.id if isinstance(m.id, str) else m.id[0])
        for m in messages
        if m.id and (m.string if isinstance(m.string, str) else all(m.string or ()))
    )
    return Catalogue(lang, Translations(compiled, domain=DOMAIN), known)


@lru_cache(maxsize=4096)  # a page formats the same few numbers many times (Babel is slow)
def _number(value: int, lang: str) -> str:
    return format_decimal(value, locale=lang)


@cache
def percent_gap(lang: str) -> str:
    """What stands between a number and ``%`` in ``lang``, read from Babel's percent pattern
    (``77 %`` in German, French and Croatian; ``77%`` in English and Serbian): its own no-break
    space, so that a line never ends between the figure and its sign (as the page's ``Intl``
    writes it too).

    >>> percent_gap("de") == "\\N{NO-BREAK SPACE}", percent_gap("en")
    (True, '')
    """
    pattern = Locale.parse(lang).percent_formats[None].pattern
    return "".join(c for c in pattern if c.isspace())


@dataclass(frozen=True, slots=True)
class Translator:
    """Translates the board's German message ids into ``lang`` and formats for it.

    ``game`` is the variant whose own words come first (``yahtzee``).
    """

    lang: str = DEFAULT_LANGUAGE
    game: str | None = None

    def __call__(self, message: str, **values: Any) -> str:
        text = catalogue(self.lang).text(message, self.game)
        return text.format(**values) if values else text

    def t(self, message: str, **values: Any) -> str:
        """The same as calling the translator (the name the catalogues' extraction knows)."""
        return self(message, **values)

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """``{n} Spiel`` or ``{n} Spielen`` as ``n`` asks, by the language's plural rule;
        ``{n}`` is filled in as this language writes numbers.

        >>> Translator("en").ngettext("{n} Zug", "{n} Züge", 1)
        '1 turn'
        """
        text = catalogue(self.lang).plural(singular, plural, n, self.game)
        return text.format(**{"n": self.number(n), **values})

    def pgettext(self, context: str, message: str, **values: Any) -> str:
        """``message`` in ``context`` (``Spieler`` as a table head is "Player", not "Players")."""
        text = catalogue(self.lang).text(message, context)
        return text.format(**values) if values else text

    def for_variant(self, variant: Variant) -> Translator:
        """This translator speaking ``variant``'s own words."""
        return Translator(self.lang, variant.name)

    def number(self, value: int) -> str:
        return _number(value, self.lang)

    def percent(self, number: str) -> str:
        """``number`` (already written in this language) with the percent sign, as the language
        writes it: ``77 %`` or ``77%``."""
        return f"{number}{percent_gap(self.lang)}%"

    @property
    def tag(self) -> str:
        """This language as the page's ``lang`` attribute writes it (``sr-Latn``)."""
        return page_tag(self.lang)

    def points(self, value: int, *, possible: bool = False) -> str:
        """``3 Punkte``, ``1 Punkt`` (with ``möglich`` for a preview), in the form the language
        takes for ``value`` (Croatian ``2 boda``, ``5 bodova``, ``21 bod``).

        >>> Translator("en").points(1), Translator("de").points(1234, possible=True)
        ('1 point', '1.234 Punkte möglich')
        """
        if possible:
            return self.ngettext("{n} Punkt möglich", "{n} Punkte möglich", value)
        return self.ngettext("{n} Punkt", "{n} Punkte", value)

    def point_forms(self, *, possible: bool = False, upto: int = 1000) -> dict[str, str]:
        """:meth:`points` as templates by the language's plural category (CLDR's, as the
        browser's ``Intl.PluralRules`` names it), ``{n}`` standing for the number: the page words
        cells with them while it draws the sheet itself (docs/decisions.md, "The board offline").
        Every number up to ``upto`` takes its category's form.

        >>> Translator("hr").point_forms()
        {'other': '{n} bodova', 'one': '{n} bod', 'few': '{n} boda'}
        """
        locale = Locale.parse(self.lang)
        forms: dict[str, str] = {}
        for n in range(upto + 1):
            form = self.points(n, possible=possible).replace(self.number(n), "{n}", 1)
            category = locale.plural_form(n)
            if forms.setdefault(category, form) != form:
                raise ValueError(f"{self.lang}: {n} has another form than its {category}")
        return forms

    def roll(self, number: int) -> str:
        """The ``number``-th roll of a turn (1 to 3) in words.

        >>> Translator("fr").roll(1), Translator("fr").roll(2), Translator("de").roll(3)
        ('1er lancer', '2e lancer', '3. Wurf')
        """
        return self.t(ROLL_LABELS[number - 1])

    def when(self, moment: datetime) -> str:
        return format_datetime(moment, "short", locale=self.lang)

    def row(self, row: Row) -> str:
        return self.t(ROW_LABELS[row])

    def column(self, spec: ColumnSpec) -> str:
        """The column's name in words (``Runter``, ``Down``, ``×2``)."""
        return self.t(spec.label) if spec.label in COLUMN_LABELS else spec.label

    def place(self, column: ColumnSpec | None, row: str) -> str:
        """A row's words with its column's name before them (``Runter, Dreier``), or alone
        when there is no column to name (a one-column game): the one place that wording is
        made (issue 22).
        """
        return row if column is None else f"{self.column(column)}, {row}"

    def cell(self, variant: Variant, cell: Cell) -> str:
        """``cell`` in words: ``Runter, Dreier``; in a one-column game only ``Dreier``."""
        column = None if len(variant.columns) == 1 else variant.column(cell.column)
        return self.place(column, self.row(cell.row))

    def column_header(self, spec: ColumnSpec) -> str:
        """The column's head on the sheet: its arrow, then its name."""
        name = self.column(spec)
        return f"{spec.symbol} {name}" if spec.symbol else name
