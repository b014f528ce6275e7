"""Every refusal in the reader's language: one catalogue entry per refusal ``code``.

The engine's errors (:class:`~kniffel.rules.KniffelError`, the record's
:class:`~kniffel.record.RecordError`) and the board's carry a ``code`` and its
``params``; :data:`REFUSALS` names the message of each code (a message id of
the catalogues) and :func:`refusal_text` fills in the params in the reader's
words: rows and columns by their labels, cells as ``Runter, Dreier``, lists
with "oder"/"or".

>>> from kniffel.rules import IllegalMoveError
>>> error = IllegalMoveError("down.threes is not due", code="not_due", cell="down.threes",
...                          column="down", row="threes", due_row="ones")
>>> refusal_text(error, Translator("de"))
'Runter, Dreier ist nicht dran; dran ist Einser'
>>> refusal_text(error, Translator("en"))
'Down, Threes is not due; Ones is due'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from babel.lists import format_list

from kniffel.locales import N_, Translator
from kniffel.rules import PRESETS, ColumnSpec, Row, point_ranges

__all__ = ["REFUSALS", "cell_words", "refusal_text"]

#: The message (a German message id of the catalogues) of every refusal code.
REFUSALS: dict[str, str] = {
    # who and where
    "players_count": N_("Ein Spiel hat {min} bis {max} Spieler, nicht {got}"),
    "player_name_blank": N_("Jeder Spielername ist Text und nicht leer"),
    "player_names_repeat": N_("Jeder Name nur einmal: {name}"),
    "unknown_player": N_("{player} spielt hier nicht; es spielen {players}"),
    "unknown_seat": N_("Platz {seat} gibt es nicht; es gibt {seats} Plätze"),
    "cell_syntax": N_("Unbekanntes Feld {cell}; ein Feld heißt SPALTE.ZEILE"),
    "unknown_cell": N_("Unbekanntes Feld {cell}"),
    "unknown_column": N_("Unbekannte Spalte {column}; die Spalten sind {columns}"),
    "unknown_row": N_("Unbekannte Zeile {row}; die Zeilen sind {rows}"),
    # turns and rolls
    "game_finished": N_("Das Spiel ist beendet; nur Korrekturen gehen noch"),
    "not_your_turn": N_("{player} ist nicht am Zug; dran ist {to_move}"),
    "nothing_to_undo": N_("Nichts rückgängig zu machen"),
    "roll_needs_dice": N_("Ein Wurf braucht die gefallenen Würfel"),
    "first_roll_keeps": N_("Beim ersten Wurf eines Zugs wird nichts gehalten ({keep})"),
    "no_rolls_left": N_("Keine Würfe mehr; die Würfel in ein Feld eintragen"),
    "keep_not_in_roll": N_("Die gehaltenen Würfel {keep} liegen nicht alle im letzten Wurf {dice}"),
    "dice_miss_keep": N_("Die neuen Würfel {dice} zeigen die gehaltenen {keep} nicht"),
    # entries
    "cell_filled": N_("{cell} ist schon ausgefüllt"),
    "cell_empty": N_("{cell} ist leer; da gibt es nichts zu ändern"),
    "not_due": N_("{cell} ist nicht dran; dran ist {due_row}"),
    "dice_and_points": N_("Würfel oder Punkte, nicht beides"),
    "dice_pending": N_("{player} hat {dice} gewürfelt; diese Würfel eintragen, keine anderen"),
    "no_dice": N_(
        "{player} hat noch nicht gewürfelt; erst würfeln oder Würfel oder Punkte eingeben"
    ),
    "points_not_whole": N_("Punkte sind eine ganze Zahl, nicht {points}"),
    "impossible_points": N_("{points} ist bei {row} nicht möglich; möglich sind {allowed}"),
    "joker_forced": N_("Joker-Pflicht: Der Kniffel muss in {cells}"),
    "joker_lower": N_(
        "Joker-Pflicht: Das passende Feld oben ist voll, also muss der Kniffel nach unten"
    ),
    "zero_only_upper": N_("Eine Null darf nur nach unten, wenn oben kein Feld mehr offen ist"),
    # Jamb and Yams
    "first_roll_only": N_("{cell} nimmt nur einen ersten Wurf, nicht Wurf {roll}"),
    "announce_first": N_("{cell} nimmt ohne Ansage nur einen ersten Wurf, nicht Wurf {roll}"),
    "roll_needed": N_("Für {cell} zählt, der wievielte Wurf es war; bitte den Wurf angeben"),
    "announce_column": N_("Ansagen geht nur in der Ansage-Spalte, nicht {cell}"),
    "announce_twice": N_("{cell} ist schon angesagt; eine Ansage pro Zug"),
    "announce_late": N_("Angesagt wird gleich nach dem ersten Wurf, nicht nach Wurf {roll}"),
    "announced_elsewhere": N_("Angesagt ist {announced}; der Wurf gehört dorthin, nicht in {cell}"),
    "middle_order": N_("{cell} ist noch nicht dran; von der Mitte aus offen: {rows}"),
    "roll_number": N_("Der Wurf ist 1, 2 oder 3, nicht {value}"),
    "roll_mismatch": N_("Die Würfel kamen mit Wurf {rolls}, nicht Wurf {roll}"),
    "first_roll_cells_only": N_(
        "Offen sind nur Felder für den ersten Wurf; die Würfel eintragen oder ansagen"
    ),
    # dice and options
    "invalid_dice": N_("Würfel zeigen Augen von 1 bis 6, nicht {value}"),
    "dice_count": N_("Ein Wurf hat genau 5 Würfel, nicht {got}"),
    "keep_count": N_("Höchstens 5 Würfel lassen sich halten, nicht {got}"),
    "unknown_variant": N_("Unbekannte Variante {variant}; die Varianten sind {variants}"),
    "unknown_option": N_("Unbekannte Hausregel {option}; die Hausregeln sind {options}"),
    "invalid_option": N_("Die Hausregel {option} ist {allowed}, nicht {value}"),
    "option_alone": N_(
        "Ein Σ2-Bonus von {points} Punkten gilt nur mit dem Σ2-Bonus: bitte beide wählen"
    ),
    "unknown_event": N_("Unbekanntes Ereignis {event}"),
    "invalid": N_("Nicht erlaubt"),
    # the record file
    "record_invalid": N_("Die Datei ist kein gültiger Spielstand"),
    "record_not_json": N_("Die Datei ist kein gültiges JSON"),
    "record_not_object": N_("Ein Spielstand ist ein JSON-Objekt"),
    "record_format": N_("Das Format muss {format} sein, nicht {got}"),
    "record_field": N_("{field} muss ein JSON-Objekt sein"),
    "record_evening": N_(
        "Der Spieleabend einer Datei ist eine Kennung aus 1 bis 32 Buchstaben, Ziffern, - oder _"
    ),
    "record_players": N_("players muss eine Liste von 1 bis {max} Namen sein"),
    "record_events": N_("events muss eine Liste sein"),
    "record_too_long": N_("Ein Spielstand hat höchstens {max} Ereignisse"),
    "event_not_object": N_("Ein Ereignis ist ein JSON-Objekt"),
    "event_type": N_("Unbekannte Ereignis-Art {type}; die Arten sind {types}"),
    "event_field": N_("Einem {type}-Ereignis fehlt {field}"),
    "event_text": N_("{field} muss Text sein, nicht {value}"),
    "event_number": N_("{field} muss eine ganze Zahl sein, nicht {value}"),
    "event_faces": N_("{field} muss eine Liste von Augen sein, nicht {value}"),
    # the board
    "bad_request": N_("Die Anfrage ist ungültig"),
    "invalid_request": N_("Die Anfrage ist ungültig: {reason}"),
    "not_found": N_("Seite nicht gefunden"),
    "method_not_allowed": N_("Diese Anfrage-Methode geht hier nicht"),
    "http_error": N_("Die Anfrage ging nicht (HTTP {status})"),
    "body_too_large": N_("Die Anfrage ist zu groß; höchstens {max} Bytes"),
    "request_timeout": N_("Die Anfrage kam nicht rechtzeitig an; nichts gespeichert"),
    "cross_origin": N_(
        "Abgelehnt: Das Formular kam von einer anderen Seite; die Seite des Spiels öffnen"
    ),
    "name_character": N_(
        "Der Name {name} enthält das unsichtbare oder Steuerzeichen {character}; "
        "Namen sind Buchstaben, Ziffern, Zeichen und Leerzeichen"
    ),
    "name_too_long": N_("Ein Name hat höchstens {max} Zeichen, nicht {got}"),
    "name_not_normal": N_(
        "Der Name {name} ist nicht in Normalform (NFC, ohne Leerzeichen am Rand)"
    ),
    "kniffel_bonus_range": N_("Der Kniffel-Bonus ist 0 bis {max} Punkte, nicht {got}"),
    "game_not_found": N_("Spiel nicht gefunden"),
    "revanche_unfinished": N_("Eine Revanche gibt es erst, wenn das Spiel beendet ist"),
    "game_unreadable": N_(
        "Diese Version der Tafel kann dieses Spiel nicht lesen; eine neuere Version hat es angelegt"
    ),
    "key_missing": N_("Ändern geht nur mit dem Schlüssel des Spiels (dem geteilten Link)"),
    "key_wrong": N_("Der Schlüssel passt nicht zu diesem Spiel"),
    "watch_only": N_("Dieses Gerät darf nur zusehen"),
    "version_conflict": N_("Das Spiel wurde inzwischen geändert; bitte noch einmal"),
    "too_busy": N_("Das Spiel ändert sich gerade zu schnell; bitte noch einmal"),
    "database_unavailable": N_(
        "Die Datenbank antwortet gerade nicht; nichts gespeichert, gleich noch einmal"
    ),
    "dice_mode": N_("Die Würfel sind echt oder virtuell, nicht {value}"),
    "physical_dice": N_("Dieses Spiel hat echte Würfel; die gefallenen Würfel eingeben"),
    "bot_seat": N_("Ein Bot nimmt nur den Platz eines Spielers ein; {player} spielt nicht mit"),
    "unknown_bot": N_("Unbekannter Bot {bot}; die Bots sind {bots}"),
    "bots_virtual": N_("Bots spielen nur mit virtuellen Würfeln"),
    "not_rolled": N_("{player} hat noch nicht gewürfelt; erst würfeln"),
    "virtual_roll": N_("Mit virtuellen Würfeln würfelt die Tafel"),
    "virtual_entry": N_("Mit virtuellen Würfeln zählen nur die gewürfelten Würfel"),
    "no_solver": N_("Tipp, Analyse und Chancen gibt es für {variant} noch nicht"),
    "roll_stands": N_("Ein Wurf mit virtuellen Würfeln gilt; er wird nicht zurückgenommen"),
}

# With the columns a house rule adds (Jamb's Ručna and Od sredine): a refusal names them too.
_COLUMNS: dict[str, ColumnSpec] = {
    spec.id: spec for variant in PRESETS.values() for spec in (*variant.columns, *variant.optional)
}


#: Refusals already put into words, by (code, params, language, game words): the board words
#: the same few refusals for every locked cell of every page (docs/benchmarks.md, "Load").
_WORDED: dict[tuple[object, ...], str] = {}
_WORDED_MAX = 4096


def refusal_text(error: Exception, t: Translator) -> str:
    """``error`` in ``t``'s language from its ``code`` and ``params`` (a record error's event
    first: ``Ereignis 1: …``); an error without a known code keeps its own message."""
    code = getattr(error, "code", None)
    params: Mapping[str, Any] = getattr(error, "params", {}) or {}
    message = REFUSALS.get(code) if isinstance(code, str) else None
    if message is None:
        return str(error)
    try:
        key = (code, _frozen(params), t.lang, t.game)
        worded = _WORDED.get(key)
    except TypeError:  # a param that cannot be a key: worded each time
        key, worded = None, None
    if worded is not None:
        return worded
    worded = _worded(message, params, t)
    if key is not None:
        if len(_WORDED) >= _WORDED_MAX:
            _WORDED.clear()
        _WORDED[key] = worded
    return worded


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((name, _frozen(item)) for name, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    hash(value)  # raises TypeError for anything else that cannot be a key
    return (type(value).__name__, value)


def _worded(message: str, params: Mapping[str, Any], t: Translator) -> str:
    values = {name: _words(name, value, t) for name, value in params.items()}
    text = string.Formatter().vformat(t(message), (), _Blank(values))
    event = params.get("event")
    if isinstance(event, int):
        return t("Ereignis {n}: {reason}", n=event, reason=text)
    return text


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "–"


def _words(name: str, value: Any, t: Translator) -> str:
    """One param as the reader reads it."""
    if name == "column" and isinstance(value, str) and value in _COLUMNS:
        return t.column(_COLUMNS[value])
    if name in ("row", "due_row") and isinstance(value, str):
        return _row(value, t)
    if name in ("cell", "announced") and isinstance(value, str):
        return cell_words(value, t)
    if name == "cells" and isinstance(value, list):
        return _either([cell_words(str(cell), t) for cell in value], t)
    if name in ("dice", "keep") and isinstance(value, list):
        return " ".join(map(str, value)) or "–"
    if name == "allowed" and isinstance(value, list):
        if value and all(isinstance(v, int) for v in value):
            return point_ranges(value, dash="–")
        return _either([str(v) for v in value], t)
    if name == "rows" and isinstance(value, list):
        return ", ".join(_row(str(v), t) for v in value)
    if name == "columns" and isinstance(value, list):
        return ", ".join(t.column(_COLUMNS[v]) if v in _COLUMNS else str(v) for v in value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value)
    return str(value)


def _row(value: str, t: Translator) -> str:
    try:
        return t.row(Row(value))
    except ValueError:
        return value


def cell_words(name: str, t: Translator) -> str:
    """``down.threes`` as ``Runter, Dreier``; a bare row (one column) as its label."""
    column, dot, row = name.partition(".")
    if not dot:
        return _row(name, t)
    if column not in _COLUMNS:
        return name
    return t.place(_COLUMNS[column], _row(row, t))


def _either(items: list[str], t: Translator) -> str:
    if not items:
        return "–"
    return format_list(items, style="or", locale=t.lang)
