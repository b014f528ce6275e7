"""The words of the Tipp and the analysis pages, German first and English second.

The words come from the board's catalogues (:mod:`kniffel.locales`); these
pages add the labels of a choice: ``Behalten: 6 6 6``,
``Eintragen: Runter, Sechser (18)``.

>>> from kniffel.locales import Translator, percent_gap
>>> words = AdviceWords(Translator("de"))
>>> words("Erwartete Endsumme"), words.decimal(1234.56)
('Erwartete Endsumme', '1.234,6')
>>> AdviceWords(Translator("en"))("Erwartete Endsumme")
'Expected final total'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal, format_percent

from kniffel.locales import Translator, percent_gap
from kniffel.rules import AnnounceAction, EnterAction, Variant

if TYPE_CHECKING:
    from kniffel.board.advice_values import Labelled

__all__ = ["AdviceWords"]


@dataclass(frozen=True, slots=True)
class AdviceWords:
    """Translates these pages' messages through the board's catalogues."""

    t: Translator

    @property
    def lang(self) -> str:
        return self.t.lang

    def __call__(self, message: str, **values: Any) -> str:
        return self.t(message, **values)

    def decimal(self, value: float) -> str:
        """An expected total with one decimal, as the language writes it."""
        return format_decimal(round(value, 1), format="#,##0.0", locale=self.t.lang)

    def percent(self, share: float | None, *, decimals: int = 0) -> str:
        """A share (0 to 1: every percentage of the board is passed so) in percent as the
        language writes it, by Babel's ``format_percent``: ``77 %`` / ``77%``, with
        ``decimals`` ``87,2 %``; a dash without a value.

        >>> AdviceWords(Translator("de")).percent(0.8725, decimals=1)
        '87,2\\xa0%'
        >>> AdviceWords(Translator("en")).percent(0.77), AdviceWords(Translator("en")).percent(None)
        ('77%', '–')
        """
        if share is None:
            return "–"
        return _percent(share, decimals, self.lang)

    def chance(self, p: float, decided: bool = True) -> str:
        """A chance in whole percent (``77 %``); below 1 % and above 99 % say so. A chance
        the sheet has not settled (``decided`` false) is never 0 % or 100 % (docs/solver.md,
        "The Tipp's reasons").

        >>> AdviceWords(Translator("de")).chance(0.001), AdviceWords(Translator("en")).chance(0.996)
        ('< 1\\xa0%', '> 99%')
        """
        if not decided:
            p = min(max(p, 1e-9), 1 - 1e-9)
        whole = round(p * 100)
        if p > 0 and whole == 0:
            return _percent(0.01, 0, self.lang, bound="< ")
        if p < 1 and whole == 100:
            return _percent(0.99, 0, self.lang, bound="> ")
        return self.percent(p)

    def choice(self, choice: Labelled, variant: Variant, rolls: int) -> str:
        """``Behalten: 6 6 6``, ``Alle neu würfeln``, ``Eintragen: Runter, Sechser (18)``,
        ``Ansagen: Najava, Poker`` (Jamb and Yams)."""
        action = choice.action
        if isinstance(action, EnterAction):
            cell = self.t.cell(variant, action.cell)
            return self.t("Eintragen: {cell} ({points})", cell=cell, points=choice.points)
        if isinstance(action, AnnounceAction):
            return self.t("Ansagen: {cell}", cell=self.t.cell(variant, action.cell))
        if action.keep:
            return self.t("Behalten: {dice}", dice=" ".join(map(str, action.keep)))
        return self.t("Alle neu würfeln") if rolls else self.t("Würfeln")


@lru_cache(maxsize=4096)
def _percent(share: float, decimals: int, lang: str, bound: str = "") -> str:
    """Babel's ``format_percent`` of ``share``, kept: it parses its pattern and looks up the
    locale on every call (about 0.3 ms), and a list of players formats a hundred shares,
    most of them the same few (``/spieler``: docs/benchmarks.md, "Cost per request").
    ``bound`` (``"< "``, ``"> "``) is the pattern's literal prefix: Babel writes it, its output
    is never edited."""
    digits = "." + "0" * decimals if decimals else ""
    pattern = f"{bound}#,##0{digits}{percent_gap(lang)}%"
    return format_percent(share, format=pattern, locale=lang)
