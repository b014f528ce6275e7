"""The board's HTML forms: reading their fields, with a plain German (or English) message for
every bad one.

A form field is text; these functions turn it into what the service takes and
raise :class:`FormError` (a ``ValueError``) with a message for the player.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import FormData

from kniffel.board import limits
from kniffel.board.service import DICE_MODES
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import PRESETS, Dice, KniffelError, Options
from kniffel.rules.game import MAX_PLAYERS

__all__ = [
    "JOKERS",
    "MAX_KNIFFEL_BONUS",
    "MAX_NAME",
    "FormError",
    "NewGame",
    "Preset",
    "dice_field",
    "keep_field",
    "new_game_form",
    "optional_int",
    "points_field",
    "presets",
    "required_text",
    "version_field",
]

# One home for both: kniffel.board.limits (creation, import and the forms share them).
MAX_NAME = limits.MAX_NAME
MAX_KNIFFEL_BONUS = limits.MAX_KNIFFEL_BONUS
#: A whole number as a form field holds it: ASCII digits only (``²`` or ``٣`` are no number),
#: and few enough of them that no field can make ``int`` work hard.
_WHOLE = re.compile(r"-?[0-9]{1,9}")
#: The joker choices with their names and one-line explanations (German message ids).
JOKERS = (
    ("free", "frei", "Jedes erlaubte Feld; Full House und Straßen zählen voll."),
    ("forced", "Pflicht", "Erst das passende Feld oben, sonst unten mit vollen Punkten (Yahtzee)."),
    ("none", "kein", "Der Wurf zählt überall ganz normal."),
)
_VARIANT_NOTES = {
    "kniffel": "Eine freie Spalte, 13 Züge.",
    "yahtzee": "Eine Spalte mit 100 Punkten je weiterem Kniffel und Pflicht-Joker.",
    "rauf-runter": "↓ Runter, ↑ Rauf und Frei: 39 Züge, die Pfeil-Spalten der Reihe nach.",
    "dreifach": "Drei freie Spalten, die ×1, ×2 und ×3 zählen: 39 Züge.",
}


class FormError(ValueError):
    """A form field the board cannot use; the message is for the player."""


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    label: str
    note: str
    options: dict[str, Any]


def presets(t: Translator) -> list[Preset]:
    """The variants to choose from, with their house rules as the form's defaults."""
    return [
        Preset(name, t(v.label), t(_VARIANT_NOTES[name]), v.options.as_dict())
        for name, v in PRESETS.items()
    ]


@dataclass(frozen=True, slots=True)
class NewGame:
    """The new-game form's fields (also to show them again after a mistake)."""

    variant: str = "rauf-runter"
    players: tuple[str, ...] = ()
    dice_mode: str = "physical"
    chance: bool = True
    pasch: str = "all_dice"
    zero_only_upper: bool = False
    joker: str = "free"
    kniffel_bonus: str = "0"
    custom: bool = False  #: house rules differ from the preset's: show them open
    errors: list[str] = field(default_factory=list)

    @property
    def slots(self) -> list[str]:
        """Eight name fields, the given names first."""
        names = list(self.players[:MAX_PLAYERS])
        return names + [""] * (MAX_PLAYERS - len(names))

    @property
    def shown_players(self) -> int:
        """How many name fields to show before "add player" (at least two)."""
        return max(2, len(self.players))

    def options(self) -> dict[str, Any]:
        return {
            "chance": self.chance,
            "pasch": self.pasch,
            "zero_only_upper": self.zero_only_upper,
            "joker": self.joker,
            "kniffel_bonus": int(self.kniffel_bonus),
        }


def new_game_form(form: FormData, t: Translator) -> NewGame:
    """Read the new-game form; raises :class:`FormError` naming the first bad field.

    Without the house-rules fields (``house_rules`` absent) the preset's own
    options apply.
    """
    variant = _text(form, "variant") or "rauf-runter"
    names = [name.strip() for name in _texts(form, "player")]
    names = [name for name in names if name]
    dice_mode = _text(form, "dice_mode") or "physical"
    preset = PRESETS.get(variant)
    defaults = preset.options if preset is not None else Options()
    if _text(form, "house_rules"):
        chance = bool(_text(form, "chance"))
        pasch = "matching_dice" if _text(form, "pasch") == "matching_dice" else "all_dice"
        zero_only_upper = bool(_text(form, "zero_only_upper"))
        joker = _text(form, "joker") or defaults.joker.value
        bonus_text = _text(form, "kniffel_bonus") or "0"
    else:
        chance = defaults.chance
        pasch = defaults.pasch.value
        zero_only_upper = defaults.zero_only_upper
        joker = defaults.joker.value
        bonus_text = str(defaults.kniffel_bonus)
    filled = NewGame(
        variant=variant,
        players=tuple(names),
        dice_mode=dice_mode,
        chance=chance,
        pasch=pasch,
        zero_only_upper=zero_only_upper,
        joker=joker,
        kniffel_bonus=bonus_text,
    )
    custom = preset is not None and _differs(filled, defaults)
    filled = NewGame(**{**_fields(filled), "custom": custom})
    problem = _new_game_problem(filled, t)
    if problem:
        raise FormError(problem)
    return filled


def _fields(form: NewGame) -> dict[str, Any]:
    return {name: getattr(form, name) for name in NewGame.__dataclass_fields__}


def _differs(form: NewGame, defaults: Options) -> bool:
    try:
        return form.options() != defaults.as_dict()
    except ValueError:
        return True


def _new_game_problem(form: NewGame, t: Translator) -> str:
    if form.variant not in PRESETS:
        return t("Unbekannte Variante: {name}", name=form.variant)
    if not form.players:
        return t("Bitte mindestens einen Spieler eintragen.")
    if len(form.players) > MAX_PLAYERS:
        return t("Höchstens 8 Spieler.")
    seen: set[str] = set()
    for name in form.players:
        if len(name) > MAX_NAME:
            return t("Namen dürfen höchstens {n} Zeichen haben.", n=MAX_NAME)
        if name in seen:
            return t("Jeder Name nur einmal: {name}", name=name)
        seen.add(name)
    if form.dice_mode not in DICE_MODES:
        return t("Unbekannte Würfel-Art: {name}", name=form.dice_mode)
    if form.joker not in {value for value, _, _ in JOKERS}:
        return t("Unbekannter Joker: {name}", name=form.joker)
    bonus = form.kniffel_bonus.strip()
    if not _WHOLE.fullmatch(bonus) or not 0 <= int(bonus) <= MAX_KNIFFEL_BONUS:
        return t("Der Kniffel-Bonus ist eine ganze Zahl von 0 bis 1000.")
    try:
        PRESETS[form.variant].with_options(form.options())
    except KniffelError as exc:
        return refusal_text(exc, t)
    return ""


def _texts(form: FormData, name: str) -> list[str]:
    return [value for value in form.getlist(name) if isinstance(value, str)]


def _text(form: FormData, name: str) -> str:
    values = _texts(form, name)
    return values[-1].strip() if values else ""


def required_text(form: FormData, name: str, message: str) -> str:
    value = _text(form, name)
    if not value:
        raise FormError(message)
    return value


def dice_field(form: FormData | Any, t: Translator, name: str = "dice") -> Dice | None:
    """The dice typed as digits (``66655``), or ``None`` when the field is empty."""
    text = _text(form, name) if isinstance(form, FormData) else str(form or "").strip()
    if not text:
        return None
    try:
        return Dice.parse(text)
    except KniffelError:
        raise FormError(t("Würfel als fünf Ziffern von 1 bis 6 eingeben, z. B. 66655.")) from None


def optional_int(text: str | None) -> int | None:
    """A whole number typed into a field; ``None`` when empty, ValueError when not a number."""
    value = (text or "").strip()
    if not value:
        return None
    if not _WHOLE.fullmatch(value):
        raise ValueError(value)
    return int(value)


def points_field(form: FormData | Any, t: Translator, name: str = "points") -> int | None:
    text = _text(form, name) if isinstance(form, FormData) else str(form or "")
    try:
        return optional_int(text)
    except ValueError:
        raise FormError(t("Punkte als ganze Zahl eingeben.")) from None


def version_field(form: FormData, t: Translator) -> int:
    """The version of the game the form was made on: every changing form carries it, so that a
    post made on an older board is refused (409) instead of landing on the next player's sheet."""
    try:
        version = optional_int(_text(form, "version"))
    except ValueError:
        raise FormError("version must be a whole number") from None
    if version is None:
        raise FormError(t("Das Formular nennt keinen Spielstand; bitte die Seite neu laden."))
    return version


def keep_field(form: FormData, t: Translator) -> Sequence[int]:
    """The faces of the dice held for the next roll."""
    faces = []
    for value in _texts(form, "keep"):
        if value not in ("1", "2", "3", "4", "5", "6"):
            raise FormError(t("Würfel als fünf Ziffern von 1 bis 6 eingeben, z. B. 66655."))
        faces.append(int(value))
    return faces
