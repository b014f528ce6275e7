"""The page language: ``?lang=``, the remembered choice, then Babel's negotiation.

The words themselves live in the gettext catalogues of :mod:`kniffel.locales`
(German message ids; English, Croatian, Serbian in Latin script and French
translations); this module picks the language of a request and offers the
templates their ``gettext`` (``jinja2.ext.i18n``).

Serbian is written in two scripts and the board speaks it in Latin only: a
browser asking for ``sr`` (Cyrillic by default) or ``sr-Cyrl`` gets ``sr-Latn``,
since every Serbian reader reads both scripts and the next language in the
header would be a foreign one (docs/board.md, "Sprachen").

>>> negotiate(None, "en-GB,en;q=0.9,de;q=0.8")
'en'
>>> negotiate(None, "fr-CH, fr;q=0.9, de;q=0.5")
'fr'
>>> negotiate(None, "sr-RS, sr;q=0.9, en;q=0.5"), negotiate(None, "hr-HR")
('sr_Latn', 'hr')
>>> negotiate(None, "it-IT, it;q=0.9")
'de'
>>> negotiate("en", "de"), negotiate("sr-Latn", "de")
('en', 'sr_Latn')
"""

from __future__ import annotations

from typing import Any

from babel import Locale
from babel.numbers import format_decimal
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from kniffel.locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, language_of, page_tag

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Translator",
    "bdi",
    "install",
    "language_of",
    "negotiate",
    "page_tag",
]


#: Each language in its own words, the switcher's tooltips: Babel's names, written out because
#: asking Babel loads each language's whole locale data, about 0.1 s of every start
#: (docs/benchmarks.md, "Start"); tests/web/test_languages.py checks them against Babel's.
LANGUAGE_NAMES = {
    "de": "Deutsch",
    "en": "English",
    "hr": "hrvatski",
    "sr_Latn": "srpski (latinica)",
    "fr": "français",
}


def negotiate(query: str | None, accept_language: str | None, cookie: str | None = None) -> str:
    """The page language: ``?lang=``, then the cookie, then the browser's preference."""
    for choice in (query, cookie):
        chosen = language_of(choice)
        if chosen is not None:
            return chosen
    if accept_language:
        offered = [page_tag(lang) for lang in LANGUAGES]
        found = Locale.negotiate(_tags(accept_language), offered, sep="-")
        if found is not None:
            return str(found)  # Babel's name: ``sr_Latn``
    return DEFAULT_LANGUAGE


def _tags(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header in the browser's order, without
    the ones it refuses (``q=0``) and the wildcard; Babel matches them (``en-GB`` → ``en``).
    Any Serbian tag is read as ``sr-Latn``, the one script the board writes Serbian in."""
    tags = []
    for part in header.split(","):
        tag, _, params = part.partition(";")
        tag = tag.strip()
        if tag and tag != "*" and params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00"):
            primary = tag.split("-")[0].casefold()
            tags.append("sr-Latn" if primary == "sr" else tag)
    return tags


def _translator(context: Context) -> Translator:
    lang = language_of(context.get("lang")) or DEFAULT_LANGUAGE
    game = context.get("game_words")
    return Translator(lang, game)


@pass_context
def _gettext(context: Context, message: str, **values: Any) -> str:
    translator = _translator(context)
    if any(isinstance(value, Markup) for value in values.values()):
        # A name isolated with |bdi stays markup; the sentence and other values are escaped.
        return Markup(escape(translator(message))).format(**values)
    return translator(message, **values)


def bdi(name: object) -> Markup:
    """A player's name isolated from the text around it (``<bdi>``): a right-to-left name
    cannot turn the sentence around it (docs/architecture.md, "Limits and security")."""
    return Markup("<bdi>{}</bdi>").format(name)


@pass_context
def tenths(context: Context, value: float) -> str:
    """A figure with one decimal, as the page's language writes it (``195,5`` / ``195.5``)."""
    return format_decimal(round(value, 1), format="#,##0.0", locale=_translator(context).lang)


@pass_context
def _pgettext(context: Context, where: str, message: str, **values: Any) -> str:
    return _translator(context).pgettext(where, message, **values)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int, **values: Any) -> str:
    return _translator(context).ngettext(singular, plural, n, **values)


@pass_context
def _roll_label(context: Context, number: int) -> str:
    """The ``number``-th roll in words: an ordinal of its own in each language ("1er lancer")."""
    return _translator(context).roll(number)


def install(env: Environment) -> None:
    """Adds ``jinja2.ext.i18n`` to ``env`` with the catalogues: ``_()``/``gettext()`` speak the
    template's ``lang`` (and ``game_words``) and fill ``{name}`` placeholders."""
    env.add_extension("jinja2.ext.i18n")
    env.filters["bdi"] = bdi
    env.filters["page_tag"] = page_tag
    env.filters["tenths"] = tenths
    env.globals["languages"] = LANGUAGES
    env.globals["language_names"] = LANGUAGE_NAMES
    env.globals["roll_label"] = _roll_label
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, newstyle=False
    )
