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
    "Variant",
    "get_variant",
]


class Discipline(enum.StrEnum):
    """How a column may be filled."""

    DOWN = "down"  #: ↓ only the first empty row from the top
    UP = "up"  #: ↑ only the first empty row from the bottom
    FREE = "free"  #: any empty row


class Joker(enum.StrEnum):
    FREE = "free"
    FORCED = "forced"
    NONE = "none"


class Pasch(enum.StrEnum):
    ALL_DICE = "all_dice"
    MATCHING_DICE = "matching_dice"


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules (docs/rules.md §6)."""

    chance: bool = True
    pasch: Pasch = Pasch.ALL_DICE
    kniffel_bonus: int = 0
    joker: Joker = Joker.FREE
    zero_only_upper: bool = False

    def __post_init__(self) -> None:
        # Checked and converted here too, so Options(joker="forced") means the forced joker.
        for f in fields(self):
            object.__setattr__(self, f.name, _coerce_option(f.name, getattr(self, f.name)))

    def updated(self, overrides: Mapping[str, Any]) -> Options:
        """A copy with ``overrides`` applied; unknown names or bad values raise."""
        known = {f.name for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in known:
                raise KniffelError(
                    f"unknown option {shown(name)}; the options are {', '.join(sorted(known))}",
                    code="unknown_option",
                    option=shown(name),
                    options=sorted(known),
                )
            if value is None:
                continue
            changes[name] = _coerce_option(name, value)
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "chance": self.chance,
            "pasch": self.pasch.value,
            "kniffel_bonus": self.kniffel_bonus,
            "joker": self.joker.value,
            "zero_only_upper": self.zero_only_upper,
        }


def _coerce_option(name: str, value: Any) -> Any:
    if name in ("chance", "zero_only_upper"):
        if not isinstance(value, bool):
            raise KniffelError(
                f"option {name} must be true or false, got {shown(value)}",
                code="invalid_option",
                option=name,
                value=shown(value),
                allowed=["true", "false"],
            )
        return value
    if name == "kniffel_bonus":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise KniffelError(
                f"option kniffel_bonus must be 0 or a positive whole number, got {shown(value)}",
                code="invalid_option",
                option=name,
                value=shown(value),
                allowed=["0", "1", "2", "…"],
            )
        return value
    enum_type: type[enum.StrEnum] = Pasch if name == "pasch" else Joker
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(member.value for member in enum_type)
        raise KniffelError(
            f"option {name} must be one of {allowed}, got {shown(value)}",
            code="invalid_option",
            option=name,
            value=shown(value),
            allowed=[member.value for member in enum_type],
        ) from None


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    id: str
    label: str
    discipline: Discipline
    factor: int = 1

    @property
    def symbol(self) -> str:
        return {"down": "↓", "up": "↑", "free": ""}[self.discipline.value]


@dataclass(frozen=True, slots=True)
class Variant:
    """A preset: its name, columns and options."""

    name: str
    label: str
    columns: tuple[ColumnSpec, ...]
    options: Options = field(default_factory=Options)

    def with_options(self, overrides: Mapping[str, Any] | None) -> Variant:
        if not overrides:
            return self
        return replace(self, options=self.options.updated(overrides))

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
