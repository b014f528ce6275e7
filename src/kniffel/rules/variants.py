"""Variants as data: columns with a discipline and a factor, plus the house-rule options."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from kniffel.rules.errors import KniffelError, shown

__all__ = [
    "PRESETS",
    "ColumnSpec",
    "Discipline",
    "Joker",
    "Options",
    "Pasch",
    "Sheet",
    "Variant",
    "get_variant",
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
#: bonus, and the optional columns Ručna (``hand``) and Od sredine (``middle``).
JAMB_OPTIONS = ("trips_bonus", "straight_fixed", "sum2_bonus", "hand", "middle")
#: Yams: the Kniffel house rules and the optional columns sèche and annoncée.
YAMS_OPTIONS = (*KNIFFEL_OPTIONS, "hand", "announce")
_BOOLEAN_OPTIONS = (
    *("chance", "zero_only_upper", "straight_fixed", "sum2_bonus"),
    *("hand", "middle", "announce"),
)
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
    if name in _BOOLEAN_OPTIONS:
        if not isinstance(value, bool):
            raise _option_refused(name, value, "true or false", ["true", "false"])
        return value
    if name == "kniffel_bonus":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _option_refused(name, value, "0 or a positive whole number", ["0", "1", "2", "…"])
        return value
    if name == "trips_bonus":
        if isinstance(value, bool) or value not in (10, 20):
            raise _option_refused(name, value, "10 or 20", ["10", "20"])
        return value
    enum_type: type[enum.StrEnum] = Pasch if name == "pasch" else Joker
    try:
        return enum_type(value)
    except ValueError:
        allowed = [member.value for member in enum_type]
        raise _option_refused(name, value, f"one of {', '.join(allowed)}", allowed) from None


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
