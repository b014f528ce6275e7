"""The board's HTML forms: reading their fields, with a plain German (or English) message for
every bad one.

A form field is text; these functions turn it into what the service takes and
raise :class:`FormError` (a ``ValueError``) with a message for the player.

The new-game form is read by FastAPI into :class:`NewGameForm` (a form model) and validated as
the JSON API's :class:`~kniffel.web.api.schemas.NewGameBody`: one model checks a new game from both
(docs/architecture.md, "Limits and security"); here its refusals get the reader's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import ErrorDetails
from starlette.datastructures import FormData

from kniffel.board import limits
from kniffel.board.service import BOT_NAMES
from kniffel.locales import Translator
from kniffel.locales.family_words import column_name
from kniffel.locales.refusals import refusal_text
from kniffel.locales.variant_notes import variant_note
from kniffel.rules import (
    FIGURES,
    HOUSE_RULES,
    MAX_PLAYERS,
    PRESETS,
    Dice,
    HouseRule,
    KniffelError,
    Options,
    house_rule,
)
from kniffel.web.api.schemas import NewGameBody, VariantName
from kniffel.web.middleware.errors import validation_message

__all__ = [
    "JOKERS",
    "MAX_KNIFFEL_BONUS",
    "MAX_NAME",
    "FormError",
    "HouseRuleField",
    "NewGame",
    "NewGameForm",
    "Preset",
    "bot_name",
    "dice_field",
    "house_rule_fields",
    "keep_field",
    "new_game_body",
    "new_game_refusal",
    "number_field",
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
#: The joker choices with their names and one-line explanations (German message ids), as the
#: rules declare them.
JOKERS = tuple(
    (value, name, note)
    for value, (name, note) in zip(
        house_rule("joker").choices, house_rule("joker").choice_words, strict=True
    )
)


class FormError(ValueError):
    """A form field the board cannot use; the message is for the player."""


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    label: str
    note: str
    options: dict[str, Any]


def presets(t: Translator) -> list[Preset]:
    """The variants to choose from, with their house rules as the form's defaults; each note is
    made from the variant (:func:`~kniffel.locales.variant_notes.variant_note`)."""
    return [
        Preset(name, t(v.label), variant_note(v, t), v.options.as_dict())
        for name, v in _FORM_PRESETS.items()
    ]


@dataclass(frozen=True, slots=True)
class HouseRuleField:
    """A house rule (:data:`kniffel.rules.HOUSE_RULES`) as the new-game form shows it.

    ``widget`` is ``check`` (a checkbox: a yes/no rule, or a rule of two values that sends
    ``on``, the one that is not the rules' default), ``radio`` (one button per choice) or
    ``number``; ``presets`` are those that offer it (the script shows it for them alone).
    """

    name: str
    widget: str
    on: Any
    title: str
    note: str
    presets: tuple[str, ...]
    choices: tuple[tuple[str, str, str], ...] = ()  #: each radio button's value, name and note
    least: int = 0  #: a number field's least value
    #: The title and note in each preset's own words where they differ ("Kniffel-Bonus",
    #: "Bonus Yahtzee", "Bonus Yams"; docs/glossary.md): (presets, title, note) per wording.
    own: tuple[tuple[str, str, str], ...] = ()

    @property
    def sent(self) -> str:
        """The text a checked box sends."""
        return "1" if self.on is True else str(self.on)

    @property
    def id(self) -> str:
        return self.name.replace("_", "-")

    def script(self) -> dict[str, Any]:
        """What the page's script reads to set the field to a preset's value, and ``off``, the
        value of a box left empty (a game started on the device reads the form as
        :func:`_from_form` does: ``static/device/start.js``)."""
        rule = next(rule for rule in HOUSE_RULES if rule.name == self.name)
        off = False if self.on is True else rule.default
        return {
            "name": self.name,
            "widget": self.widget,
            "on": self.on,
            "off": off,
            "presets": self.presets,
        }


def _widget(rule: HouseRule) -> tuple[str, Any]:
    """How the form shows ``rule``, and the value a checked box stands for."""
    if rule.kind is bool:
        return "check", True
    if len(rule.choices) == 2:
        return "check", next(choice for choice in rule.choices if choice != rule.default)
    return ("radio", None) if rule.choices else ("number", None)


def house_rule_fields(t: Translator) -> list[HouseRuleField]:
    """Every house rule as the form shows it, in ``t``'s words. A rule that adds a column takes
    the sheet's own name of the column (:mod:`kniffel.locales.family_words`), so that the option
    and the column it adds have one name in each language: Jamb's Ručna is Yams' sèche."""
    shown = []
    for rule in HOUSE_RULES:
        widget, on = _widget(rule)
        figures = {**FIGURES, **rule.figures}
        title = t(rule.title, **figures)
        if rule.column:
            preset = next(p for p in rule.presets if rule.name in _optional_columns(p))
            title = column_name(preset, rule.name, t)
        wordings: dict[tuple[str, str], list[str]] = {}
        for preset in rule.presets:
            own = t.for_variant(PRESETS[preset])
            said = (
                title if rule.column else own(rule.title, **figures),
                own(rule.note, **figures) if rule.note else "",
            )
            wordings.setdefault(said, []).append(preset)
        choices = tuple(
            (str(value), t(name), t(note))
            for value, (name, note) in zip(rule.choices, rule.choice_words, strict=False)
        )
        shown.append(
            HouseRuleField(
                rule.name,
                widget,
                on,
                title,
                t(rule.note, **figures) if rule.note else "",
                rule.presets,
                choices,
                rule.least,
                tuple((" ".join(presets), *said) for said, presets in wordings.items())
                if len(wordings) > 1
                else (),
            )
        )
    return shown


def _optional_columns(preset: str) -> tuple[str, ...]:
    return tuple(spec.id for spec in PRESETS[preset].optional)


def _from_form(rule: HouseRule, text: str) -> Any:
    """The value of ``rule``'s field as the form posted it (``text``)."""
    widget, on = _widget(rule)
    text = text.strip()
    if widget == "check":
        if on is True:
            return bool(text)
        return on if text == str(on) else rule.default
    if widget == "radio":
        return text or None  # none: the preset's value
    number = text or "0"
    # Not a whole number: left as text, for the model to refuse.
    return int(number) if _WHOLE.fullmatch(number) else number


#: The presets the form and the API start: every one, Jamb and Yams with their own house rules.
_FORM_PRESETS = {name: PRESETS[name] for name in get_args(VariantName)}
#: The house rules a form sends for a variant it does not know: the Kniffel ones, so that the
#: variant itself is what gets refused.
_KNIFFEL_OFFERED = PRESETS["kniffel"].options.offered


def bot_name(seat: int) -> str:
    """The name of a bot whose name field was left empty: ``Bot 2`` for the second seat."""
    return f"Bot {seat}"


class _NewGameFields(BaseModel):
    """The new-game form's fields as posted, all text (``player`` and ``seat`` once per seat),
    and one text field per house rule (:data:`kniffel.rules.HOUSE_RULES`, added by
    :data:`NewGameForm`).

    FastAPI reads it from the form (``Annotated[NewGameForm, Form()]``); :meth:`body` is the JSON
    API's request for the same game, which :func:`new_game_body` validates.
    """

    model_config = ConfigDict(extra="ignore")

    variant: str = "rauf-runter"
    player: list[str] = Field(default_factory=list)
    seat: list[str] = Field(default_factory=list)
    dice_mode: str = "physical"
    house_rules: str = ""  #: present when the house-rule fields were sent

    def seats(self) -> list[tuple[str, str]]:
        """Each name field as typed with who plays it (``person``, ``greedy``, ``best``)."""
        return [
            (name.strip(), self.seat[i] if i < len(self.seat) else "person")
            for i, name in enumerate(self.player)
        ]

    def players(self) -> tuple[list[str], dict[str, str]]:
        """The players in seat order and the bots among them: a person's empty field is no
        seat; a bot's empty field is the bot's seat under :func:`bot_name`."""
        names: list[str] = []
        bots: dict[str, str] = {}
        for seat, (name, who) in enumerate(self.seats(), start=1):
            if who in BOT_NAMES:
                name = name or bot_name(seat)
                bots[name] = who
            if name:
                names.append(name)
        return names, bots

    def rule_text(self, name: str) -> str:
        """The house rule ``name``'s field as posted."""
        return str(getattr(self, name, ""))

    def options(self) -> dict[str, Any] | None:
        """The house rules the form asks for; ``None`` (the preset's own) without their fields.

        The form holds the fields of every preset (a script shows the chosen one's); only
        those the chosen preset offers are read, so Jamb never hears of a Chance field.
        """
        if not self.house_rules:
            return None
        preset = _FORM_PRESETS.get(self.variant.strip() or "rauf-runter")
        offered = preset.options.offered if preset is not None else _KNIFFEL_OFFERED
        return {
            rule.name: _from_form(rule, self.rule_text(rule.name))
            for rule in HOUSE_RULES
            if rule.name in offered
        }

    def body(self) -> dict[str, Any]:
        """The JSON API's request body (:class:`~kniffel.web.api.schemas.NewGameBody`) for this
        form."""
        names, bots = self.players()
        options = self.options()
        return {
            "variant": self.variant.strip() or "rauf-runter",
            "options": options,
            "players": names,
            "dice_mode": self.dice_mode.strip() or "physical",
            "bots": bots,
        }

    def shown(self) -> NewGame:
        """The fields to show the form again next to its message."""
        variant = self.variant.strip() or "rauf-runter"
        preset = _FORM_PRESETS.get(variant)
        defaults = preset.options if preset is not None else Options()
        asked = self.options()
        chosen = {**defaults.as_dict(), **{k: v for k, v in (asked or {}).items() if v is not None}}
        # A Jamb sheet has no Chance nor joker: the Kniffel fields show the rules' defaults, and
        # a number field shows what was typed.
        rules = {rule.name: chosen.get(rule.name, rule.default) for rule in HOUSE_RULES}
        for rule in HOUSE_RULES:
            if _widget(rule)[0] == "number":
                rules[rule.name] = self.rule_text(rule.name) if asked else str(rules[rule.name])
        seats = self.seats()[:MAX_PLAYERS]
        return NewGame(
            variant=variant,
            players=tuple(name for name, _ in seats),
            seats=tuple(who if who in BOT_NAMES else "person" for _, who in seats),
            dice_mode=self.dice_mode.strip() or "physical",
            rules=rules,
            custom=preset is None or chosen != defaults.as_dict(),
        )


# The form's house-rule fields are the rules' (kniffel.rules.HOUSE_RULES), never spelled out here.
if TYPE_CHECKING:
    NewGameForm = _NewGameFields
else:
    NewGameForm = create_model(
        "NewGameForm",
        __base__=_NewGameFields,
        __module__=__name__,
        **{rule.name: (str, "") for rule in HOUSE_RULES},
    )


def new_game_body(form: _NewGameFields, t: Translator) -> NewGameBody:
    """The form validated as the JSON API validates a new game; :class:`FormError` says the
    first problem in ``t``'s words."""
    try:
        return NewGameBody.model_validate(form.body())
    except ValidationError as exc:
        raise FormError(_problem(exc.errors()[0], t)) from None


def _problem(error: ErrorDetails, t: Translator) -> str:
    where, value = error["loc"], error.get("input")
    if where == ("variant",):
        return t("Unbekannte Variante: {name}", name=value)
    if where == ("players",):
        if error["type"] == "too_short":
            return t("Bitte mindestens einen Spieler eintragen.")
        return t("Höchstens {n} Spieler.", n=MAX_PLAYERS)
    if where[0] == "players":
        return t("Namen dürfen höchstens {n} Zeichen haben.", n=MAX_NAME)
    if where == ("dice_mode",):
        return t("Unbekannte Würfel-Art: {name}", name=value)
    if where == ("options", "joker"):
        return t("Unbekannter Joker: {name}", name=value)
    if where == ("options", "kniffel_bonus"):
        return t("Der Kniffel-Bonus ist eine ganze Zahl von 0 bis {max}.", max=MAX_KNIFFEL_BONUS)
    return t("Die Anfrage ist ungültig: {reason}", reason=validation_message([error]))


def new_game_refusal(error: Exception, t: Translator) -> str:
    """The service's refusal of a new game from the form, in ``t``'s words."""
    if getattr(error, "code", None) == "bots_virtual":
        # The form never switches the dice itself: the family chooses (docs/board.md, "Bots").
        return t(
            "Ein Bot würfelt mit den virtuellen Würfeln der Tafel, und ein Spiel hat für alle "
            "dieselben Würfel. Bitte „Virtuelle Würfel“ wählen oder den Platz des Bots einem "
            "Menschen geben."
        )
    return refusal_text(error, t)


def _plain_rules() -> dict[str, Any]:
    """The rules' default house rules (kniffel.rules.HOUSE_RULES), never restated here."""
    return {rule.name: rule.default for rule in HOUSE_RULES}


@dataclass(frozen=True, slots=True)
class NewGame:
    """The new-game form's fields as shown (again, after a mistake)."""

    variant: str = "rauf-runter"
    players: tuple[str, ...] = ()  #: the name fields as typed, in seat order
    seats: tuple[str, ...] = ()  #: who plays each name field: person, greedy or best
    dice_mode: str = "physical"
    #: each house rule's value as shown (a number field's as typed)
    rules: dict[str, Any] = field(default_factory=_plain_rules)
    custom: bool = False  #: house rules differ from the preset's: show them open
    errors: list[str] = field(default_factory=list)

    @property
    def slots(self) -> list[str]:
        """Eight name fields, the given names first."""
        names = list(self.players[:MAX_PLAYERS])
        return names + [""] * (MAX_PLAYERS - len(names))

    @property
    def seat_choices(self) -> list[str]:
        """Who plays each of the eight seats."""
        seats = list(self.seats[:MAX_PLAYERS])
        return seats + ["person"] * (MAX_PLAYERS - len(seats))

    @property
    def shown_players(self) -> int:
        """How many name fields to show before "add player": every field in use, at least two."""
        used = [
            i
            for i, (name, seat) in enumerate(zip(self.slots, self.seat_choices, strict=True), 1)
            if name or seat != "person"
        ]
        return max(2, *used) if used else 2


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


def number_field(
    form: FormData | Any,
    t: Translator,
    name: str,
    *,
    least: int | None = None,
    most: int | None = None,
) -> int | None:
    """A whole number from the field ``name`` of ``form`` (or from ``form`` itself, a query
    parameter's text), ``None`` when empty: the rolls of the Tipp, how many choices it lists.
    With bounds, a number outside them is refused with them, never moved inside.

    >>> from kniffel.locales import Translator
    >>> number_field(" 2 ", Translator("de"), "rolls"), number_field("", Translator("de"), "rolls")
    (2, None)
    >>> number_field("zwei", Translator("en"), "rolls")
    Traceback (most recent call last):
    kniffel.web.pages.forms.FormError: "zwei" is not a whole number.
    >>> number_field("7", Translator("en"), "rolls", least=1, most=3)
    Traceback (most recent call last):
    kniffel.web.pages.forms.FormError: "7" is not a whole number from 1 to 3.
    >>> number_field("0", Translator("de"), "top", least=1)
    Traceback (most recent call last):
    kniffel.web.pages.forms.FormError: „0“ ist keine ganze Zahl ab 1.
    """
    text = _text(form, name) if isinstance(form, FormData) else str(form or "")
    try:
        number = optional_int(text)
    except ValueError:
        number = None
        within = False
    else:
        within = number is None or (
            (least is None or number >= least) and (most is None or number <= most)
        )
    if within:
        return number
    value = text.strip()
    if least is not None and most is not None:
        message = t(
            "„{value}“ ist keine ganze Zahl von {least} bis {most}.",
            value=value,
            least=least,
            most=most,
        )
    elif least is not None:
        message = t("„{value}“ ist keine ganze Zahl ab {least}.", value=value, least=least)
    else:
        message = t("„{value}“ ist keine ganze Zahl.", value=value)
    raise FormError(message)


def points_field(form: FormData | Any, t: Translator, name: str = "points") -> int | None:
    """The points typed instead of dice (or into a correction), ``None`` when empty."""
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
        raise FormError(
            t("Der Spielstand im Formular ist keine ganze Zahl; bitte die Seite neu laden.")
        ) from None
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
