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

from kniffel.rules import HOUSE_RULES, PRESETS, HouseRule, KniffelError, get_variant
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


#: The house rules with a flag of their own: those of the solver's presets, the Kniffel ones
#: (kniffel.rules.HOUSE_RULES); the family's others go through ``--option NAME=VALUE``.
FLAG_RULES = tuple(rule for rule in HOUSE_RULES if "kniffel" in rule.presets)


def _flag(rule: HouseRule) -> Callable[[F], F]:
    """``rule``'s flag: ``--no-NAME`` or ``--NAME`` for a yes/no rule (the other value than the
    rules' default), ``--NAME`` with its choices or a whole number otherwise."""
    name = rule.name.replace("_", "-")
    # the words may name a preset's value: "(Yahtzee: {yahtzee})"
    words = rule.help.format(**rule.figures)
    if rule.kind is bool:
        flag = f"--no-{name}" if rule.default else f"--{name}"
        return click.option(flag, rule.name, is_flag=True, help=words)
    if rule.choices:
        return click.option(f"--{name}", type=click.Choice(list(rule.choices)), help=words)
    return click.option(f"--{name}", type=click.IntRange(min=rule.least), metavar="N", help=words)


def _variant_options(command: F, family: bool) -> F:

    @functools.wraps(command)
    def resolved(
        *args: Any,
        variant_name: str,
        house: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> Any:
        overrides: dict[str, Any] = {}
        for rule in FLAG_RULES:
            value = kwargs.pop(rule.name)
            if rule.kind is bool:
                value = (not rule.default) if value else None
            overrides[rule.name] = value
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
        *(_flag(rule) for rule in FLAG_RULES),
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
