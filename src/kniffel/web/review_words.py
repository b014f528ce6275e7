"""The words of the game review and the player pages, German first and English second.

German is the message id; :data:`ENGLISH` translates. Messages not found here
are the Tipp's and the analysis's (:class:`~kniffel.web.advice_words.AdviceWords`)
or the board's.

>>> from kniffel.web.i18n import Translator
>>> ReviewWords(Translator("en"))("Spielbericht: {variant}", variant="Kniffel")
'Game review: Kniffel'
>>> ReviewWords(Translator("de")).percent(87.25)
'87,2 %'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal

from kniffel.web.advice_words import AdviceWords

__all__ = ["ENGLISH", "ReviewWords"]

ENGLISH: dict[str, str] = {
    # the review
    "Spielbericht": "Game review",
    "Spielbericht: {variant}": "Game review: {variant}",
    "Alle Entscheidungen als Tabelle": "All decisions as a table",
    "Zum Spielbericht": "To the game review",
    "Genauigkeit": "Accuracy",
    "Verlust": "Loss",
    "{loss} Punkte in {n} Entscheidungen": "{loss} points in {n} decisions",
    "{loss} je Entscheidung": "{loss} per decision",
    "nicht bewertet: {n} Einträge nur mit Punkten": "not rated: {n} entries of points only",
    "Erwartete Endsumme nach jeder Entscheidung": "Expected final total after every decision",
    "Entscheidung": "Decision",
    "Erwartete Endsumme": "Expected final total",
    "Die teuersten Entscheidungen": "The costliest decisions",
    "Keine teure Entscheidung: Jede Wahl war die beste oder fast.": (
        "No costly decision: every choice was the best or nearly."
    ),
    "{player}, Zug {turn}, {when}, Würfel {dice}": "{player}, turn {turn}, {when}, dice {dice}",
    "Gewählt: {choice}": "Chosen: {choice}",
    "Besser: {choice}": "Better: {choice}",
    "Kostete {loss} Punkte": "Cost {loss} points",
    "Nicht bewertet": "Not rated",
    "Zug {turn}: {player} trug nur Punkte ein ({cell}, {points}) – ohne Würfel keine Bewertung.": (
        "Turn {turn}: {player} entered points only ({cell}, {points}); without dice no rating."
    ),
    "So wird gerechnet": "How it is computed",
    "review-formula": (
        "Loss: the expected points of the final total a decision gave away against the best "
        "choice. Accuracy of a decision: 100 % × 2^(−loss/5), so every 5 points lost halve it; "
        "a player's accuracy is the mean over the rated decisions (100 % = every decision as "
        "the best bot would). Blunder: at least 10 points lost; mistake: at least 4; "
        "inaccuracy: at least 1."
    ),
    # the player pages
    "Spieler: {name}": "Player: {name}",
    "Bestenliste": "Leaderboard",
    "Alle Spieler": "All players",
    "Spiele": "Games",
    "Siege": "Wins",
    "Siegquote": "Win rate",
    "Schnitt": "Mean",
    "Bestes": "Best",
    "Schlechtestes": "Worst",
    "Bonusquote": "Bonus rate",
    "Kniffel-Quote": "Kniffel rate",
    "Verlust je Entscheidung": "Loss per decision",
    "Gegen": "Against",
    "Variante": "Variant",
    "Noch keine beendeten Spiele.": "No finished games yet.",
    "Punkte": "Points",
    "Anzahl": "Count",
    "Punkteverteilung": "Distribution of totals",
    "Punkte über die Zeit": "Totals over time",
    "Genauigkeit über die Zeit": "Accuracy over time",
    "Spiel": "Game",
    "Der starke Bot: {mean} im Schnitt": "The strong bot: {mean} on average",
    "Trend": "Trend",
    "Gesamt": "Total",
}

#: The German text of the formula (the message id above is a key, not text).
FORMULA_DE = (
    "Verlust: die erwarteten Punkte der Endsumme, die eine Entscheidung gegenüber der besten "
    "Wahl hergab. Genauigkeit einer Entscheidung: 100 % × 2^(−Verlust/5), alle 5 verlorenen "
    "Punkte halbieren sie; die Genauigkeit eines Spielers ist der Mittelwert über die bewerteten "
    "Entscheidungen (100 % = jede Entscheidung wie der beste Bot). Patzer: mindestens 10 Punkte "
    "Verlust; Fehler: mindestens 4; Ungenauigkeit: mindestens 1."
)

#: Each severity's name: (German, English) in the singular and in the plural.
SEVERITY_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "patzer": (("Patzer", "blunder"), ("Patzer", "Blunders")),
    "fehler": (("Fehler", "mistake"), ("Fehler", "Mistakes")),
    "ungenauigkeit": (("Ungenauigkeit", "inaccuracy"), ("Ungenauigkeiten", "Inaccuracies")),
}


@dataclass(frozen=True, slots=True)
class ReviewWords(AdviceWords):
    """These pages' messages first, then the Tipp's and the board's."""

    def __call__(self, message: str, **values: Any) -> str:
        if message == "review-formula" and self.t.lang == "de":
            return FORMULA_DE
        if self.t.lang != "de" and message in ENGLISH:
            text = ENGLISH[message]
            return text.format(**values) if values else text
        if message in ENGLISH:
            return message.format(**values) if values else message
        return AdviceWords.__call__(self, message, **values)

    def percent(self, value: float | None) -> str:
        """``87,2 %`` / ``87.2 %``; a dash without a value."""
        if value is None:
            return "–"
        number = format_decimal(round(value, 1), format="0.0", locale=self.t.lang)
        return f"{number} %"

    def severity(self, name: str, plural: bool = False) -> str:
        """``Patzer`` / ``blunder`` …; ``plural`` for a count's heading."""
        german, english = SEVERITY_WORDS[name][1 if plural else 0]
        return german if self.t.lang == "de" else english
