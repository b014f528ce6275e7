"""Variants as data: columns with a discipline and a factor, plus the house-rule options."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from kniffel.rules.errors import KniffelError, shown

__all__ = [
    "HOUSE_RULES",
    "PRESETS",
    "ColumnSpec",
    "Discipline",
    "HouseRule",
    "Joker",
    "Options",
    "Pasch",
    "Sheet",
    "Variant",
    "check_new_options",
    "get_variant",
    "house_rule",
]


class Discipline(enum.StrEnum):
    """How a column may be filled."""

    DOWN = "down"  #: ↓ only the first empty row from the top
    UP = "up"  #: ↑ only the first empty row from the bottom
    FREE = "free"  #: any empty row
    ANNOUNCE = "announce"  #: any empty row, announced after the first roll or filled at once
    HAND = "hand"  #: any empty row, but only with the first roll of a turn
    MIDDLE = "middle"  #: from the middle out: Max up to the ones, Min down to the last row

    @property
    def is_arrow(self) -> bool:
        """Whether the column has exactly one due row (↓ and ↑)."""
        return self in (Discipline.DOWN, Discipline.UP)


class Sheet(enum.StrEnum):
    """Which rows a sheet has and how its sums are made (docs/rules.md, "Jamb")."""

    KNIFFEL = "kniffel"  #: the thirteen Kniffel rows, the upper bonus 35 at 63
    JAMB = "jamb"  #: 1-6, Max, Min, Triling to Jamb; the sums Σ1, Σ2, Σ3


class Joker(enum.StrEnum):
    FREE = "free"
    FORCED = "forced"
    NONE = "none"


class Pasch(enum.StrEnum):
    ALL_DICE = "all_dice"
    MATCHING_DICE = "matching_dice"


#: The house rules every Kniffel-sheet preset offers (its records name exactly these).
KNIFFEL_OPTIONS = ("chance", "pasch", "kniffel_bonus", "joker", "zero_only_upper")
#: The house rules of Jamb (docs/rules.md, "Jamb"): Triling's bonus, Kenta fixed, the Σ2
#: bonus and its points, Σ2 below 0, five of a kind as Ful, and the optional columns Ručna
#: (``hand``) and Od sredine (``middle``).
JAMB_OPTIONS = (
    "trips_bonus",
    "straight_fixed",
    "sum2_bonus",
    "sum2_bonus_points",
    "sum2_negative",
    "full_five",
    "hand",
    "middle",
)
#: Yams: the Kniffel house rules and the optional columns sèche and annoncée.
YAMS_OPTIONS = (*KNIFFEL_OPTIONS, "hand", "announce")


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues (German message ids, as ``kniffel.locales.N_`` does;
    the rules import nothing above them)."""
    return message


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule, declared once; the rest reads it (docs/contributing.md, "Adding a house
    rule"): the rules' check of a value, the API's models, the new-game form and its script, the
    start page's choices and the CLI's flags.

    ``kind`` is ``bool``, ``int`` or the enum of its values; ``choices`` the values allowed
    (none: any whole number from ``least``). Its default is the field of :class:`Options` of the
    same name, each preset's value that preset's :class:`Options`, and the presets that offer it
    name it in ``Options.offered`` (:attr:`presets`). ``title`` and ``note`` are the form's words
    (message ids), ``title_values`` the figures the title names, ``choice_words`` a name and a
    note for each choice of a rule with more than two; ``column`` says that the rule adds the
    column of the same name, whose name it takes; ``help`` is the CLI's (English) words, which
    may name each offering preset's value (``{yahtzee}``, :attr:`figures`). The words name the
    rules' figures by their placeholders (:data:`~kniffel.rules.FIGURES`).
    """

    name: str
    kind: type[bool] | type[int] | type[enum.StrEnum]
    title: str
    note: str = ""
    help: str = ""
    choices: tuple[Any, ...] = ()
    least: int = 0
    choice_words: tuple[tuple[str, str], ...] = ()
    title_values: tuple[tuple[str, int], ...] = ()
    column: bool = False

    @property
    def default(self) -> Any:
        """The plain rules' value (:class:`Options`), as a record writes it."""
        return _plain(getattr(Options(), self.name))

    @property
    def presets(self) -> tuple[str, ...]:
        """The presets that let players set it, in :data:`PRESETS`' order."""
        return tuple(name for name, v in PRESETS.items() if self.name in v.options.offered)

    @property
    def figures(self) -> dict[str, Any]:
        """What its words may name: ``plain`` (the plain rules' value), each offering preset's
        value by the preset's name (``yahtzee``, ``rauf_runter``) and :attr:`title_values`."""
        values = {name.replace("-", "_"): self.default_in(name) for name in self.presets}
        return {"plain": self.default, **values, **dict(self.title_values)}

    def default_in(self, preset: str) -> Any:
        """``preset``'s value, as a record writes it.

        >>> house_rule("kniffel_bonus").default_in("yahtzee"), house_rule("joker").presets
        (100, ('kniffel', 'yahtzee', 'rauf-runter', 'dreifach', 'yams'))
        """
        return _plain(getattr(PRESETS[preset].options, self.name))

    def check(self, value: Any) -> Any:
        """``value`` as the rules hold it; a value outside the rule raises in plain words."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise _option_refused(self.name, value, "true or false", ["true", "false"])
            return value
        allowed = [str(choice) for choice in self.choices]
        if issubclass(self.kind, enum.Enum):
            try:
                return self.kind(value)
            except ValueError:
                must = f"one of {', '.join(allowed)}"
                raise _option_refused(self.name, value, must, allowed) from None
        whole = isinstance(value, int) and not isinstance(value, bool)
        if whole and (value in self.choices if self.choices else value >= self.least):
            return value
        if self.choices:
            raise _option_refused(self.name, value, " or ".join(allowed), allowed)
        allowed = [str(n) for n in range(self.least, self.least + 3)] + ["…"]
        must = f"{self.least} or a positive whole number"
        raise _option_refused(self.name, value, must, allowed)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


#: The house rules (docs/rules.md §6, "Jamb", "Yams"), in the order the new-game form shows them
#: (a record names a preset's in the order of ``Options.offered``). Adding one:
#: docs/contributing.md, "Adding a house rule".
HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "chance",
        bool,
        N_("Chance-Feld"),
        N_("Mit Chance; ohne sie hat jede Spalte nur {rows_without_chance} Felder."),
        help="Option chance: false (no Chance row).",
    ),
    HouseRule(
        "pasch",
        Pasch,
        N_("Pasch zählt nur gleiche Würfel"),
        N_("Dreierpasch aus Fünfen zählt 15 statt der Summe aller Würfel."),
        help="Option pasch: what Dreier- and Viererpasch count.",
        choices=tuple(p.value for p in Pasch),
    ),
    HouseRule(
        "zero_only_upper",
        bool,
        N_("Null nur im oberen Block"),
        N_("Streichen unten nur, wenn oben kein Feld mehr offen ist."),
        help="Option zero_only_upper: a 0 enters the lower block only with no upper cell open.",
    ),
    HouseRule(
        "joker",
        Joker,
        N_("Joker"),
        N_("Was ein weiterer Kniffel darf, wenn alle Kniffel-Felder voll sind."),
        help="Option joker: what a further Kniffel may do (default: the preset's).",
        choices=tuple(j.value for j in Joker),
        choice_words=(
            (N_("frei"), N_("Jedes erlaubte Feld; Full House und Straßen zählen voll.")),
            (
                N_("Pflicht"),
                N_("Erst das passende Feld oben, sonst unten mit vollen Punkten (Yahtzee)."),
            ),
            (N_("kein"), N_("Der Wurf zählt überall ganz normal.")),
        ),
    ),
    HouseRule(
        "kniffel_bonus",
        int,
        N_("Kniffel-Bonus"),
        N_("Punkte für jeden weiteren Kniffel (Yahtzee: {yahtzee}, 0 = aus)."),
        help="Option kniffel_bonus: points for each further Kniffel (Yahtzee: {yahtzee}).",
        least=0,
    ),
    HouseRule(
        "trips_bonus",
        int,
        N_("Triling + {n}"),
        N_("Wie auf serbischen Blöcken; sonst + {plain}."),
        help="Option trips_bonus: Triling's bonus, 10 or 20.",
        choices=(10, 20),
        title_values=(("n", 20),),
    ),
    HouseRule(
        "straight_fixed",
        bool,
        N_("Kenta fest {straight_small} und {straight_large}"),
        N_("In jedem Wurf gleich viel, wie auf kroatischen Blöcken."),
        help="Option straight_fixed: Kenta counts 35 and 45 in every roll.",
    ),
    HouseRule(
        "sum2_bonus",
        bool,
        N_("Σ2-Bonus {sum2_bonus} ab {sum2_threshold}"),
        help="Option sum2_bonus: a bonus for a Σ2 of 60 or more (30, or sum2_bonus_points).",
    ),
    HouseRule(
        "sum2_bonus_points",
        int,
        N_("Σ2-Bonus {n} statt {sum2_bonus}"),
        N_("Gilt mit dem Σ2-Bonus."),
        help="Option sum2_bonus_points: the Σ2 bonus's points, 30 or 40.",
        choices=(30, 40),
        title_values=(("n", 40),),
    ),
    HouseRule(
        "sum2_negative",
        bool,
        N_("Σ2 auch unter 0"),
        N_("Ist Max kleiner als Min, zählt Σ2 minus; sonst 0."),
        help="Option sum2_negative: Σ2 = (Max − Min) × ones counts below 0 too.",
    ),
    HouseRule(
        "full_five",
        bool,
        N_("Fünf Gleiche als Ful"),
        N_("Fünf gleiche Würfel zählen im Ful Augensumme + 30."),
        help="Option full_five: five of a kind scores in Ful (sum + 30).",
    ),
    HouseRule(
        "hand",
        bool,
        N_("Hand"),
        N_("Eine Spalte nur für erste Würfe, in beliebiger Reihenfolge."),
        help="Option hand: the column of first rolls (Ručna, sèche).",
        column=True,
    ),
    HouseRule(
        "middle",
        bool,
        N_("Von der Mitte"),
        N_("Eine Spalte von Max hinauf und von Min hinunter."),
        help="Option middle: the column from the middle out (Od sredine).",
        column=True,
    ),
    HouseRule(
        "announce",
        bool,
        N_("Ansage"),
        N_("Nach dem ersten Wurf eine Zeile ansagen, die der Zug dann füllt."),
        help="Option announce: the column of announced rows (Najava, annoncée).",
        column=True,
    ),
)
_BY_NAME = {rule.name: rule for rule in HOUSE_RULES}


def house_rule(name: str) -> HouseRule:
    """The house rule ``name`` (KeyError for none)."""
    return _BY_NAME[name]


#: The fields of Options that are no house rule: a preset sets them, players cannot.
_PRESET_FIELDS = ("sheet", "offered")


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules (docs/rules.md §6), and the sheet they apply to.

    ``offered`` names the house rules that the preset lets players set; only those are
    read and written (:meth:`updated`, :meth:`as_dict`), so a Kniffel record names the
    same five options as ever. ``sheet`` is the preset's, never an option.
    """

    chance: bool = True
    pasch: Pasch = Pasch.ALL_DICE
    kniffel_bonus: int = 0
    joker: Joker = Joker.FREE
    zero_only_upper: bool = False
    trips_bonus: int = 10
    straight_fixed: bool = False
    sum2_bonus: bool = False
    sum2_bonus_points: int = 30
    sum2_negative: bool = False
    full_five: bool = False
    hand: bool = False
    middle: bool = False
    announce: bool = False
    sheet: Sheet = Sheet.KNIFFEL
    offered: tuple[str, ...] = KNIFFEL_OPTIONS

    def __post_init__(self) -> None:
        # Checked and converted here too, so Options(joker="forced") means the forced joker.
        for f in fields(self):
            if f.name not in _PRESET_FIELDS:
                object.__setattr__(self, f.name, _coerce_option(f.name, getattr(self, f.name)))
        object.__setattr__(self, "sheet", Sheet(self.sheet))

    def updated(self, overrides: Mapping[str, Any]) -> Options:
        """A copy with ``overrides`` applied; unknown names or bad values raise."""
        known = set(self.offered)
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if value is None:
                continue  # null keeps the preset's value, even for an option it lacks
            if name not in known:
                raise KniffelError(
                    f"unknown option {shown(name)}; the options are {', '.join(sorted(known))}",
                    code="unknown_option",
                    option=shown(name),
                    options=sorted(known),
                )
            changes[name] = _coerce_option(name, value)
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The house rules the preset offers, as a record writes them."""
        out: dict[str, Any] = {}
        for name in self.offered:
            value = getattr(self, name)
            out[name] = value.value if isinstance(value, enum.Enum) else value
        return out


def _option_refused(name: str, value: Any, must: str, allowed: list[str]) -> KniffelError:
    """The one refusal of an option's value: what it must be and the values allowed."""
    return KniffelError(
        f"option {name} must be {must}, got {shown(value)}",
        code="invalid_option",
        option=name,
        value=shown(value),
        allowed=allowed,
    )


def _coerce_option(name: str, value: Any) -> Any:
    return _BY_NAME[name].check(value)


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    id: str
    label: str
    discipline: Discipline
    factor: int = 1

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self.discipline]


_SYMBOLS = {
    Discipline.DOWN: "↓",
    Discipline.UP: "↑",
    Discipline.FREE: "",
    Discipline.ANNOUNCE: "",
    Discipline.HAND: "",
    Discipline.MIDDLE: "↕",
}


@dataclass(frozen=True, slots=True)
class Variant:
    """A preset: its name, columns and options.

    ``optional`` are columns that a house rule of the same name adds (Jamb's ``hand`` and
    ``middle``, Yams' ``hand`` and ``announce``); ``columns`` are those in play.
    """

    name: str
    label: str
    columns: tuple[ColumnSpec, ...]
    options: Options = field(default_factory=Options)
    optional: tuple[ColumnSpec, ...] = ()

    def with_options(self, overrides: Mapping[str, Any] | None) -> Variant:
        if not overrides:
            return self
        options = self.options.updated(overrides)
        base = tuple(spec for spec in self.columns if spec not in self.optional)
        chosen = tuple(spec for spec in self.optional if getattr(options, spec.id))
        return replace(self, options=options, columns=base + chosen)

    @property
    def column_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.columns)

    def column(self, column_id: str) -> ColumnSpec:
        for spec in self.columns:
            if spec.id == column_id:
                return spec
        raise KeyError(column_id)


_FREE_MAIN = (ColumnSpec("main", "Kniffel", Discipline.FREE),)

PRESETS: dict[str, Variant] = {
    "kniffel": Variant("kniffel", "Kniffel", _FREE_MAIN),
    "yahtzee": Variant(
        "yahtzee",
        "Yahtzee",
        _FREE_MAIN,
        Options(kniffel_bonus=100, joker=Joker.FORCED),
    ),
    "rauf-runter": Variant(
        "rauf-runter",
        "Rauf-Runter-Kniffel",
        (
            ColumnSpec("down", "Runter", Discipline.DOWN),
            ColumnSpec("up", "Rauf", Discipline.UP),
            ColumnSpec("free", "Frei", Discipline.FREE),
        ),
    ),
    "dreifach": Variant(
        "dreifach",
        "Dreifach-Kniffel",
        (
            ColumnSpec("x1", "×1", Discipline.FREE, 1),
            ColumnSpec("x2", "×2", Discipline.FREE, 2),
            ColumnSpec("x3", "×3", Discipline.FREE, 3),
        ),
    ),
    "jamb": Variant(
        "jamb",
        "Jamb",
        (
            ColumnSpec("down", "Runter", Discipline.DOWN),
            ColumnSpec("free", "Frei", Discipline.FREE),
            ColumnSpec("up", "Rauf", Discipline.UP),
            ColumnSpec("announce", "Ansage", Discipline.ANNOUNCE),
        ),
        Options(
            chance=False,
            joker=Joker.NONE,
            announce=True,
            sheet=Sheet.JAMB,
            offered=JAMB_OPTIONS,
        ),
        optional=(
            ColumnSpec("hand", "Hand", Discipline.HAND),
            ColumnSpec("middle", "Von der Mitte", Discipline.MIDDLE),
        ),
    ),
    "yams": Variant(
        "yams",
        "Yams",
        (
            ColumnSpec("down", "Runter", Discipline.DOWN),
            ColumnSpec("up", "Rauf", Discipline.UP),
            ColumnSpec("free", "Frei", Discipline.FREE),
        ),
        Options(pasch=Pasch.MATCHING_DICE, joker=Joker.NONE, offered=YAMS_OPTIONS),
        optional=(
            ColumnSpec("hand", "Hand", Discipline.HAND),
            ColumnSpec("announce", "Ansage", Discipline.ANNOUNCE),
        ),
    ),
}


def check_new_options(options: Options) -> None:
    """A new game's house rules each do what they say: a rule that counts only together with
    another is refused alone (a Σ2 bonus of 40 without the Σ2 bonus would change nothing,
    silently). Records and stored games are read as written (docs/rules.md, "Jamb").

    >>> check_new_options(get_variant("jamb", {"sum2_bonus_points": 40}).options)
    Traceback (most recent call last):
    ...
    kniffel.rules.errors.KniffelError: option sum2_bonus_points counts only with sum2_bonus
    """
    if (
        options.sum2_bonus_points != _BY_NAME["sum2_bonus_points"].default
        and not options.sum2_bonus
    ):
        raise KniffelError(
            "option sum2_bonus_points counts only with sum2_bonus",
            code="option_alone",
            option="sum2_bonus_points",
            needs="sum2_bonus",
            points=options.sum2_bonus_points,
        )


def get_variant(name: str, options: Mapping[str, Any] | None = None) -> Variant:
    """The preset ``name`` with ``options`` overriding its house rules.

    >>> get_variant("rauf-runter", {"kniffel_bonus": 100}).options.kniffel_bonus
    100
    """
    try:
        preset = PRESETS[name]
    except KeyError:
        raise KniffelError(
            f"unknown variant {shown(name)}; the variants are {', '.join(PRESETS)}",
            code="unknown_variant",
            variant=shown(name),
            variants=list(PRESETS),
        ) from None
    return preset.with_options(options)
