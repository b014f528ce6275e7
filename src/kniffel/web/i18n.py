"""German first, English second: the board's words, numbers and dates.

The German text is the message id (as with gettext); :data:`ENGLISH` holds the
translation of every message the pages use. Babel formats numbers and dates
for the chosen locale and matches the browser's ``Accept-Language``.

>>> t = Translator("en")
>>> t("noch {n} bis 63", n=12)
'12 to go for 63'
>>> Translator("de").number(1234), t.number(1234)
('1.234', '1,234')
>>> negotiate(None, "en-GB,en;q=0.9,de;q=0.8")
'en'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel.core import negotiate_locale
from babel.dates import format_datetime
from babel.numbers import format_decimal

from kniffel.rules import ColumnSpec, Discipline, Row

__all__ = ["DEFAULT_LANGUAGE", "ENGLISH", "LANGUAGES", "Translator", "negotiate"]

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"

#: Every German message of the pages with its English translation.
ENGLISH: dict[str, str] = {
    # page frame
    "Die Tafel": "The Tafel",
    "Kniffel-Block für echte und virtuelle Würfel": "Kniffel score board for real and virtual dice",
    "Neues Spiel": "New game",
    "Zur Startseite": "Home",
    "Sprache": "Language",
    "Hilfe": "Help",
    # new game form
    "Variante": "Variant",
    "Spieler": "Players",
    "Spieler {n}": "Player {n}",
    "Name von Spieler {n}": "Name of player {n}",
    "Spieler hinzufügen": "Add player",
    "1 bis 8 Spieler; die Reihenfolge ist die Sitzordnung.": (
        "1 to 8 players; the order is the seating order."
    ),
    "Würfel": "Dice",
    "Echte Würfel": "Real dice",
    "Ihr würfelt am Tisch und tippt die Augen oder Punkte ein.": (
        "You roll at the table and type the faces or the points."
    ),
    "Virtuelle Würfel": "Virtual dice",
    "Die Tafel würfelt: bis zu drei Würfe, Würfel halten per Tipp.": (
        "The board rolls: up to three rolls, tap a die to hold it."
    ),
    "Hausregeln": "House rules",
    "Chance-Feld": "Chance box",
    "Mit Chance; ohne sie hat jede Spalte nur zwölf Felder.": (
        "With Chance; without it every column has only twelve boxes."
    ),
    "Pasch zählt nur gleiche Würfel": "Of a kind counts matching dice only",
    "Dreierpasch aus Fünfen zählt 15 statt der Summe aller Würfel.": (
        "Three fives count 15 instead of the sum of all dice."
    ),
    "Null nur im oberen Block": "Zero only in the upper block",
    "Streichen unten nur, wenn oben kein Feld mehr offen ist.": (
        "A zero goes into the lower block only when no upper box is open."
    ),
    "Joker": "Joker",
    "Was ein weiterer Kniffel darf, wenn alle Kniffel-Felder voll sind.": (
        "What a further Kniffel may do once every Kniffel box is filled."
    ),
    "frei": "free",
    "Jedes erlaubte Feld; Full House und Straßen zählen voll.": (
        "Any allowed box; full house and straights score in full."
    ),
    "Pflicht": "forced",
    "Erst das passende Feld oben, sonst unten mit vollen Punkten (Yahtzee).": (
        "First the matching upper box, else the lower block in full (Yahtzee)."
    ),
    "kein": "none",
    "Der Wurf zählt überall ganz normal.": "The roll scores as usual everywhere.",
    "Kniffel-Bonus": "Kniffel bonus",
    "Punkte für jeden weiteren Kniffel (Yahtzee: 100, 0 = aus).": (
        "Points for each further Kniffel (Yahtzee: 100, 0 = off)."
    ),
    "Spiel beginnen": "Start game",
    "Die Voreinstellungen der Variante werden übernommen; ändern geht hier.": (
        "The variant's defaults are filled in; change them here."
    ),
    "Offene Spiele": "Unfinished games",
    "Keine offenen Spiele.": "No unfinished games.",
    "Beendete Spiele": "Finished games",
    "Noch keine beendeten Spiele.": "No finished games yet.",
    "weiterspielen": "resume",
    "ansehen": "view",
    "Spiel importieren": "Import a game",
    "Eine Datei im Format kniffel-record/1 (JSON).": "A kniffel-record/1 file (JSON).",
    "Datei": "File",
    "Importieren": "Import",
    "Import abgelehnt, nichts gespeichert: {reason}": "Import refused, nothing stored: {reason}",
    "Ereignis {n}: {reason}": "event {n}: {reason}",
    "Gewinner: {names}": "Winners: {names}",
    "{n} Züge": "{n} turns",
    # variants (labels from the seeds)
    "Kniffel": "Kniffel",
    "Yahtzee": "Yahtzee",
    "Rauf-Runter-Kniffel": "Rauf-Runter-Kniffel (up and down)",
    "Dreifach-Kniffel": "Triple Kniffel",
    "Eine freie Spalte, 13 Züge.": "One free column, 13 turns.",
    "Eine Spalte mit 100 Punkten je weiterem Kniffel und Pflicht-Joker.": (
        "One column with 100 points per further Kniffel and the forced joker."
    ),
    "↓ Runter, ↑ Rauf und Frei: 39 Züge, die Pfeil-Spalten der Reihe nach.": (
        "↓ Down, ↑ Up and Free: 39 turns, the arrow columns in order."
    ),
    "Drei freie Spalten, die ×1, ×2 und ×3 zählen: 39 Züge.": (
        "Three free columns counting ×1, ×2 and ×3: 39 turns."
    ),
    # form errors
    "Bitte mindestens einen Spieler eintragen.": "Please enter at least one player.",
    "Höchstens 8 Spieler.": "At most 8 players.",
    "Jeder Name nur einmal: {name}": "Each name only once: {name}",
    "Namen dürfen höchstens {n} Zeichen haben.": "Names may have at most {n} characters.",
    "Unbekannte Variante: {name}": "Unknown variant: {name}",
    "Unbekannte Würfel-Art: {name}": "Unknown kind of dice: {name}",
    "Unbekannter Joker: {name}": "Unknown joker: {name}",
    "Der Kniffel-Bonus ist eine ganze Zahl von 0 bis 1000.": (
        "The Kniffel bonus is a whole number from 0 to 1000."
    ),
    "Bitte eine Datei wählen.": "Please choose a file.",
    # the board
    "Spiel {id}": "Game {id}",
    "Am Zug": "To move",
    "{name} ist am Zug": "{name} to move",
    "Wurf {n} von 3": "roll {n} of 3",
    "noch {n} Würfe": "{n} rolls left",
    "noch 1 Wurf": "1 roll left",
    "keine Würfe mehr": "no rolls left",
    "echte Würfel, bis zu 3 Würfe": "real dice, up to 3 rolls",
    "Spiel beendet": "Game over",
    "Punkte": "points",
    "{n} Punkte": "{n} points",
    "Summe oben": "Upper sum",
    "Bonus": "Bonus",
    "Summe unten": "Lower sum",
    "Gesamt": "Total",
    "noch {n} bis 63": "{n} to go for 63",
    "63 erreicht": "63 reached",
    "verpasst": "missed",
    "Pflichtfeld": "due",
    "offen": "open",
    "gesperrt": "locked",
    "nicht am Zug": "not to move",
    "{n} Punkte möglich": "{n} points possible",
    "1 Punkt": "1 point",
    "1 Punkt möglich": "1 point possible",
    "plus {n} Kniffel-Bonus": "plus {n} Kniffel bonus",
    "Kniffel-Bonus {n}": "Kniffel bonus {n}",
    "nicht mit diesem Wurf": "not with this roll",
    "Joker-Regel": "joker rule",
    "Null nur oben": "zero only in the upper block",
    "{n} Punkte sind hier nicht möglich": "{n} points are not possible here",
    "Gesperrt: In {column} ist {row} dran.": "Locked: in {column}, {row} is due.",
    "Gesperrt: {name} ist nicht am Zug.": "Locked: {name} is not to move.",
    "Erst die Würfel (z. B. 66655) oder die Punkte eingeben.": (
        "First type the dice (e.g. 66655) or the points."
    ),
    "Erst würfeln.": "Roll first.",
    "Das Spiel ist beendet; Korrekturen gehen weiter.": (
        "The game is over; corrections remain possible."
    ),
    "Blatt von {name}": "Sheet of {name}",
    "{name}: {total} Punkte": "{name}: {total} points",
    "Eintragen": "Enter",
    "Eingabe": "Entry",
    "Export": "Export",
    "Alle Spalten": "All columns",
    "Würfel eingeben": "Type the dice",
    "Augen der fünf Würfel, z. B. 66655": "Faces of the five dice, e.g. 66655",
    "Punkte eingeben": "Type the points",
    "Punkte statt Würfel": "Points instead of dice",
    "Augen": "Faces",
    "Auge {n} hinzufügen": "Add face {n}",
    "Würfel löschen": "Clear dice",
    "Letzten Würfel löschen": "Remove last die",
    "Dann ein Feld antippen: Es zeigt, was der Wurf dort zählt.": (
        "Then tap a box: it shows what the roll scores there."
    ),
    "Würfeln": "Roll",
    "Nochmal würfeln": "Roll again",
    "Würfel {n}: {face}": "Die {n}: {face}",
    "gehalten": "held",
    "Zum Halten antippen.": "Tap a die to hold it.",
    "Rückgängig": "Undo",
    "Nichts rückgängig zu machen.": "Nothing to undo.",
    "Macht rückgängig: {what}": "Undoes: {what}",
    "Ein Wurf mit virtuellen Würfeln gilt; er wird nicht zurückgenommen.": (
        "A roll of the virtual dice stands; it cannot be taken back."
    ),
    "Wurf von {name} ({dice})": "roll of {name} ({dice})",
    "Eintrag von {name}: {cell}": "entry of {name}: {cell}",
    "Korrektur von {name}: {cell}": "correction of {name}: {cell}",
    "Leeren bei {name}: {cell}": "clearing of {name}: {cell}",
    "Feld korrigieren": "Correct a box",
    "Neue Punkte": "New points",
    "Möglich: {values}": "Possible: {values}",
    "Speichern": "Save",
    "Feld leeren": "Clear box",
    "Abbrechen": "Cancel",
    "Ein geleertes Feld einer Pfeil-Spalte ist wieder Pflicht.": (
        "A cleared box in an arrow column is due again."
    ),
    "Teilen": "Share",
    "Mitspiel-Link": "Link to play along",
    "Wer diesen Link hat, darf eintragen.": "Whoever has this link may enter scores.",
    "Zuschauer-Link": "Link to watch",
    "Nur ansehen, nichts ändern.": "Only watch, change nothing.",
    "Link kopieren": "Copy link",
    "Kopiert.": "Copied.",
    "QR-Code des Mitspiel-Links": "QR code of the link to play along",
    "QR-Code des Zuschauer-Links": "QR code of the link to watch",
    "Nur ansehen: Zum Eintragen braucht es den Mitspiel-Link.": (
        "View only: entering needs the link to play along."
    ),
    "Als Datei speichern (kniffel-record/1)": "Save as a file (kniffel-record/1)",
    "Als Datei speichern": "Save as a file",
    "Verbunden": "Connected",
    "Verbindung getrennt, verbinde neu …": "Disconnected, reconnecting …",
    # errors on the board
    "Nicht erlaubt: {reason}": "Not allowed: {reason}",
    "Das Spiel wurde inzwischen geändert; bitte noch einmal.": (
        "The game changed meanwhile; please try again."
    ),
    "Dieses Gerät darf nur zusehen.": "This device may only watch.",
    "Spiel nicht gefunden.": "Game not found.",
    "Seite nicht gefunden.": "Page not found.",
    "Bitte ein Feld wählen.": "Please choose a box.",
    "Würfel als fünf Ziffern von 1 bis 6 eingeben, z. B. 66655.": (
        "Type the dice as five digits from 1 to 6, e.g. 66655."
    ),
    "Punkte als ganze Zahl eingeben.": "Type the points as a whole number.",
    "Würfel oder Punkte, nicht beides.": "Dice or points, not both.",
    "möglich sind: {values}": "possible are: {values}",
    "Unbekannter Spieler.": "Unknown player.",
    # extra Kniffel
    "Weiterer Kniffel!": "A further Kniffel!",
    "+{n} Kniffel-Bonus in der Spalte, in die du ihn einträgst.": (
        "+{n} Kniffel bonus in the column you enter it into."
    ),
    "Kein Kniffel-Bonus: Kein Kniffel-Feld hat 50 Punkte.": (
        "No Kniffel bonus: no Kniffel box holds 50 points."
    ),
    "Joker: Jedes erlaubte Feld; Full House, Kleine und Große Straße zählen voll.": (
        "Joker: any allowed box; full house, small and large straight score in full."
    ),
    "Joker (Pflicht): Der Kniffel muss in {cells}.": (
        "Joker (forced): the Kniffel must go into {cells}."
    ),
    "Joker (Pflicht): Das passende Feld oben ist nicht offen, also unten mit vollen Punkten.": (
        "Joker (forced): the matching upper box is not open, so the lower block in full."
    ),
    "Joker (Pflicht): Unten ist nichts offen; oben zählt er 0.": (
        "Joker (forced): nothing is open below; above it scores 0."
    ),
    "Kein Joker: Der Wurf zählt überall normal.": "No joker: the roll scores as usual.",
    # the end
    "{names} gewinnt mit {total} Punkten!": "{names} wins with {total} points!",
    "Gleichstand: {names} mit {total} Punkten!": "A tie: {names} with {total} points!",
    "Verlauf": "Progress",
    "Punktestand nach jedem Zug": "Running total after every turn",
    "Zug": "Turn",
    "Verlauf als Tabelle": "Progress as a table",
}

_ROW_EN = {row: row.label_en for row in Row}
_COLUMN_EN = {"Runter": "Down", "Rauf": "Up", "Frei": "Free"}


@dataclass(frozen=True, slots=True)
class Translator:
    """Translates the board's German messages into ``lang`` and formats for it."""

    lang: str = DEFAULT_LANGUAGE

    def __call__(self, message: str, **values: Any) -> str:
        text = message if self.lang == "de" else ENGLISH.get(message, message)
        return text.format(**values) if values else text

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self.lang)

    def points(self, value: int, *, possible: bool = False) -> str:
        """``3 Punkte``, ``1 Punkt`` (with ``möglich`` for a preview)."""
        if value == 1:
            return self("1 Punkt möglich" if possible else "1 Punkt")
        message = "{n} Punkte möglich" if possible else "{n} Punkte"
        return self(message, n=self.number(value))

    def when(self, moment: datetime) -> str:
        return format_datetime(moment, "short", locale=self.lang)

    def row(self, row: Row) -> str:
        return row.label_de if self.lang == "de" else _ROW_EN[row]

    def column(self, spec: ColumnSpec) -> str:
        """The column's name in words (``Runter``, ``Down``, ``×2``)."""
        return spec.label if self.lang == "de" else _COLUMN_EN.get(spec.label, spec.label)

    def column_header(self, spec: ColumnSpec) -> str:
        """The column's head on the sheet: its arrow, then its name."""
        name = self.column(spec)
        return name if spec.discipline is Discipline.FREE else f"{spec.symbol} {name}"


def negotiate(query: str | None, accept_language: str | None, cookie: str | None = None) -> str:
    """The page language: ``?lang=``, then the cookie, then the browser's preference."""
    for choice in (query, cookie):
        if choice in LANGUAGES:
            return choice
    if accept_language:
        found = negotiate_locale(_preferred(accept_language), list(LANGUAGES), sep="-")
        if found:
            return found.split("-")[0]
    return DEFAULT_LANGUAGE


def _preferred(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, best first, as base tags."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, index, tag.split("-")[0].lower()))
    return [tag for _, _, tag in sorted(ranked)]
