"""The words of the game review and the player pages, German first and English second.

The words come from the board's catalogues (:mod:`kniffel.locales`), like the
Tipp's and the analysis's (:class:`~kniffel.web.present.advice_words.AdviceWords`).

>>> from kniffel.locales import Translator
>>> ReviewWords(Translator("en"))("Spielbericht: {variant}", variant="Kniffel")
'Game review: Kniffel'
>>> ReviewWords(Translator("de")).accuracy(87.25)
'87,2\\xa0%'
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.locales import NP_
from kniffel.web.present.advice_words import AdviceWords

__all__ = ["ReviewWords"]

#: Each severity's name, a message id in the singular (``Einzahl``) and the plural (``Mehrzahl``).
SEVERITY_WORDS: dict[str, tuple[str, str]] = {
    "patzer": (NP_("Einzahl", "Patzer"), NP_("Mehrzahl", "Patzer")),
    "fehler": (NP_("Einzahl", "Fehler"), NP_("Mehrzahl", "Fehler")),
    "ungenauigkeit": (NP_("Einzahl", "Ungenauigkeit"), NP_("Mehrzahl", "Ungenauigkeiten")),
}


@dataclass(frozen=True, slots=True)
class ReviewWords(AdviceWords):
    """These pages' messages first, then the Tipp's and the board's."""

    def accuracy(self, value: float | None) -> str:
        """An accuracy (0 to 100, as the review figures it) with one decimal: ``87,2 %`` /
        ``87.2%``; a dash without a value."""
        return self.share(None if value is None else value / 100)

    def share(self, value: float | None) -> str:
        """A rate (0 to 1: wins, bonus, Kniffel) with one decimal, as :meth:`accuracy`."""
        return self.percent(value, decimals=1)

    def severity(self, name: str, plural: bool = False) -> str:
        """``Patzer`` / ``blunder`` …; ``plural`` for a count's heading."""
        singular, several = SEVERITY_WORDS[name]
        if plural:
            return self.t.pgettext("Mehrzahl", several)
        return self.t.pgettext("Einzahl", singular)
