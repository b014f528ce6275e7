"""``--variant`` and one flag per option, for every command that takes a variant.

>>> import click
>>> from click.testing import CliRunner
>>> @click.command()
... @variant_options
... def show(variant):
...     click.echo(f"{variant.name} {variant.options.joker} {variant.options.chance}")
>>> CliRunner().invoke(show, ["--variant", "yahtzee", "--joker", "none", "--no-chance"]).output
'yahtzee none False\\n'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from kniffel.rules import PRESETS, Joker, KniffelError, Pasch, get_variant
from kniffel.solver.builds import solvable

__all__ = ["family_variant_options", "variant_options"]

F = TypeVar("F", bound=Callable[..., Any])


def variant_options(command: F) -> F:
    """Add ``--variant`` and the option flags; the command receives ``variant: Variant``.

    A flag left out keeps the preset's value (docs/rules.md §6). Jamb is refused in plain
    words: the command reads solver tables, and the solver has none for it.
    """
    return _variant_options(command, family=False)


def family_variant_options(command: F) -> F:
    """:func:`variant_options` for a command that plays Jamb too (its bots need no tables)."""
    return _variant_options(command, family=True)


def _variant_options(command: F, family: bool) -> F:

    @functools.wraps(command)
    def resolved(
        *args: Any,
        variant_name: str,
        joker: str | None,
        kniffel_bonus: int | None,
        pasch: str | None,
        no_chance: bool,
        zero_only_upper: bool,
        house: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> Any:
        overrides: dict[str, Any] = {"joker": joker, "kniffel_bonus": kniffel_bonus, "pasch": pasch}
        if no_chance:
            overrides["chance"] = False
        if zero_only_upper:
            overrides["zero_only_upper"] = True
        overrides.update(_house_rules(house))
        try:
            variant = get_variant(variant_name, overrides)
        except KniffelError as exc:
            raise click.UsageError(str(exc)) from None
        if not family and not solvable(variant):
            # every command with these flags plays or solves: the solver has no Jamb yet
            raise click.UsageError(
                f"{variant.label} has no solver, bots or advice yet; "
                "kniffel replay reads its records (docs/rules.md, Jamb)"
            )
        return command(*args, variant=variant, **kwargs)

    flags = [
        click.option(
            "--variant",
            "variant_name",
            type=click.Choice(list(PRESETS)),
            default="kniffel",
            show_default=True,
            help="The preset.",
        ),
        click.option(
            "--joker",
            type=click.Choice([j.value for j in Joker]),
            help="Option joker: what a further Kniffel may do (default: the preset's).",
        ),
        click.option(
            "--kniffel-bonus",
            type=click.IntRange(min=0),
            metavar="N",
            help="Option kniffel_bonus: points for each further Kniffel (Yahtzee: 100).",
        ),
        click.option(
            "--pasch",
            type=click.Choice([p.value for p in Pasch]),
            help="Option pasch: what Dreier- and Viererpasch count.",
        ),
        click.option("--no-chance", is_flag=True, help="Option chance: false (no Chance row)."),
        click.option(
            "--zero-only-upper",
            is_flag=True,
            help="Option zero_only_upper: a 0 enters the lower block only with no upper cell open.",
        ),
    ]
    if family:
        flags.append(
            click.option(
                "--option",
                "house",
                multiple=True,
                metavar="NAME=VALUE",
                help="Any house rule of the preset, e.g. hand=true or trips_bonus=20 "
                "(Jamb's and Yams' columns and rules; repeatable).",
            )
        )
    decorated: Callable[..., Any] = resolved
    for flag in reversed(flags):
        decorated = flag(decorated)
    return decorated  # type: ignore[return-value]


def _house_rules(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs as options: true/false, whole numbers, else the text."""
    rules: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals or not name.strip():
            raise click.UsageError(f"--option {pair}: write NAME=VALUE, e.g. hand=true")
        value: Any = text.strip()
        if value in ("true", "false"):
            value = value == "true"
        elif value.isdigit():
            value = int(value)
        rules[name.strip()] = value
    return rules
