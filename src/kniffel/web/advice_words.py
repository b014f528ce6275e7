"""The words of the Tipp and the analysis pages, German first and English second.

The board's :class:`~kniffel.web.i18n.Translator` knows the board's own
messages; these pages add their own few (``ENGLISH``) and the labels of a
choice: ``Behalten: 6 6 6``, ``Eintragen: Runter, Sechser (18)``.

>>> from kniffel.web.i18n import Translator
>>> words = AdviceWords(Translator("de"))
>>> words("Erwartete Endsumme"), words.decimal(1234.56)
('Erwartete Endsumme', '1.234,6')
>>> AdviceWords(Translator("en"))("Erwartete Endsumme")
'Expected final total'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal

from kniffel.rules import EnterAction, Variant
from kniffel.solver.advisor import Choice
from kniffel.web.i18n import Translator

__all__ = ["ENGLISH", "AdviceWords"]

ENGLISH: dict[str, str] = {
    "Tipp": "Hint",
    "Tipp für {name}": "Hint for {name}",
    "Erwartete Endsumme": "Expected final total",
    "Erwartete Endsumme mit der besten Wahl": "Expected final total with the best choice",
    "Verlust": "Loss",
    "beste Wahl": "best choice",
    "Würfeln": "Roll",
    "Alle neu würfeln": "Roll all dice again",
    "Behalten: {dice}": "Keep: {dice}",
    "Eintragen: {cell} ({points})": "Enter: {cell} ({points})",
    "Exakt berechnet (optimales Spiel allein).": "Exact (optimal solitaire play).",
    "Geschätzt wie der starke Bot: der Zug exakt, der Rest des Blocks geschätzt.": (
        "Estimated as the strong bot plays: the turn exact, the rest of the sheet estimated."
    ),
    "Zu den Würfeln {dice} ({rolls}. Wurf).": "For the dice {dice} (roll {rolls}).",
    "Vor dem ersten Wurf.": "Before the first roll.",
    "Tipp schließen": "Close the hint",
    "Der Tipp wird berechnet … {percent} %": "The hint is being computed … {percent} %",
    "Die Analyse wird berechnet … {percent} %": "The analysis is being computed … {percent} %",
    "Für diese Hausregeln ist die Tabelle der Analyse noch nicht berechnet. "
    "Berechnen lassen kann sie, wer den Schlüssel des Spiels hat.": (
        "The analysis's table for these house rules is not computed yet. "
        "Whoever holds the game's key can have it computed."
    ),
    "Für diese Hausregeln ist die Tabelle des Tipps noch nicht berechnet. "
    "Berechnen lassen kann sie, wer den Schlüssel des Spiels hat.": (
        "The hint's table for these house rules is not computed yet. "
        "Whoever holds the game's key can have it computed."
    ),
    "Analyse": "Analysis",
    "Spielbericht": "Game review",
    "Analyse: {variant}": "Analysis: {variant}",
    "Zurück zum Spiel": "Back to the game",
    "Jede Entscheidung neben der besten, mit der erwarteten Endsumme beider.": (
        "Every decision beside the best one, with the expected final total of both."
    ),
    "Korrekturen und zurückgenommene Züge zählen nicht; Einträge nur mit Punkten auch nicht.": (
        "Corrections and undone moves do not count; nor do entries given as points only."
    ),
    "Erwarteter Verlust je Spieler": "Expected loss per player",
    "Entscheidungen": "Decisions",
    "Erwarteter Verlust": "Expected loss",
    "Alle Entscheidungen": "All decisions",
    "Die {n} teuersten Entscheidungen": "The {n} costliest decisions",
    "Noch keine Entscheidungen.": "No decisions yet.",
    "Ereignis": "Event",
    "Zug": "Turn",
    "Spieler": "Player",
    "Würfel": "Dice",
    "Gewählt": "Chosen",
    "Beste Wahl": "Best choice",
    "Erwartung": "Expected",
    "am Tisch": "at the table",
    "{n}. Wurf": "roll {n}",
    "Spiel läuft noch.": "The game is still running.",
    "Spiel beendet.": "The game is over.",
    "Mensch": "Person",
    "Bot: gierig": "Bot: greedy",
    "Bot: stark": "Bot: strong",
    "Wer spielt": "Who plays",
    "Bots würfeln virtuell: Mit Bots ist das Spiel eins mit virtuellen Würfeln.": (
        "Bots roll virtual dice: a game with bots is played with virtual dice."
    ),
}


@dataclass(frozen=True, slots=True)
class AdviceWords:
    """Translates these pages' messages (and, through ``t``, the board's)."""

    t: Translator

    @property
    def lang(self) -> str:
        return self.t.lang

    def __call__(self, message: str, **values: Any) -> str:
        if self.t.lang == "de" or message not in ENGLISH:
            return self.t(message, **values)
        text = ENGLISH[message]
        return text.format(**values) if values else text

    def decimal(self, value: float) -> str:
        """An expected total with one decimal, as the language writes it."""
        return format_decimal(round(value, 1), format="#,##0.0", locale=self.t.lang)

    def choice(self, choice: Choice, variant: Variant, rolls: int) -> str:
        """``Behalten: 6 6 6``, ``Alle neu würfeln``, ``Eintragen: Runter, Sechser (18)``."""
        action = choice.action
        if isinstance(action, EnterAction):
            row = self.t.row(action.cell.row)
            if len(variant.columns) > 1:
                row = f"{self.t.column(variant.column(action.cell.column))}, {row}"
            return self("Eintragen: {cell} ({points})", cell=row, points=choice.points)
        if action.keep:
            return self("Behalten: {dice}", dice=" ".join(map(str, action.keep)))
        return self("Alle neu würfeln") if rolls else self("Würfeln")
