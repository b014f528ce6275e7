"""A variant in one line for the new-game form, made from the variant itself.

The columns, the turns per player and every house rule that differs from the plain rules are read
from the :class:`~kniffel.rules.Variant` (docs/rules.md §3, §6), so the line stays true under any
house rule: Kniffel without Chance says 12 turns, Rauf-Runter-Kniffel without Chance 36.

>>> from kniffel.rules import PRESETS
>>> variant_note(PRESETS["rauf-runter"].with_options({"chance": False}), Translator("de"))
'↓ Runter, ↑ Rauf und Frei, die Pfeil-Spalten der Reihe nach: 36 Züge; ohne Chance.'
>>> variant_note(PRESETS["yahtzee"], Translator("en"))
'One free column: 13 turns; 100 points per further Yahtzee and forced joker.'
"""

from __future__ import annotations

from babel.lists import format_list

from kniffel.locales import Translator
from kniffel.rules import (
    FIGURES,
    Discipline,
    Joker,
    Options,
    Pasch,
    Sheet,
    Variant,
    sum2_bonus_of,
    turns_of,
)

__all__ = ["variant_note"]


def variant_note(variant: Variant, t: Translator) -> str:
    """``variant``'s columns, turns and house rules in ``t``'s language and the variant's words."""
    words = t.for_variant(variant)
    turns = words.ngettext("{n} Zug", "{n} Züge", turns_of(variant))
    rules = _house_rules(variant.options, words)
    if rules:
        return words(
            "{columns}: {turns}; {rules}.",
            columns=_columns(variant, words),
            turns=turns,
            rules=format_list(rules, locale=words.lang),
        )
    return words("{columns}: {turns}.", columns=_columns(variant, words), turns=turns)


def _columns(variant: Variant, words: Translator) -> str:
    columns = variant.columns
    if len(columns) == 1:
        return words("Eine freie Spalte")
    if all(spec.discipline is Discipline.FREE for spec in columns):
        return words.ngettext(
            "{n} freie Spalte, die {factors} zählt",
            "{n} freie Spalten, die {factors} zählen",
            len(columns),
            factors=format_list([spec.label for spec in columns], locale=words.lang),
        )
    return words(
        "{columns}, die Pfeil-Spalten der Reihe nach",
        columns=format_list([words.column_header(spec) for spec in columns], locale=words.lang),
    )


def _house_rules(options: Options, words: Translator) -> list[str]:
    """The rules that differ from the plain ones (docs/rules.md §6), in the form's order."""
    if options.sheet is Sheet.JAMB:
        return _jamb_rules(options, words)
    rules: list[str] = []
    if not options.chance:
        rules.append(words("ohne Chance"))
    if options.pasch is Pasch.MATCHING_DICE:
        rules.append(words("Pasch nur aus gleichen Würfeln"))
    if options.zero_only_upper:
        rules.append(words("Null nur oben"))
    if options.kniffel_bonus:
        rules.append(
            words.ngettext(
                "{n} Punkt je weiterem Kniffel",
                "{n} Punkte je weiterem Kniffel",
                options.kniffel_bonus,
            )
        )
    if options.joker is Joker.FORCED:
        rules.append(words("Pflicht-Joker"))
    elif options.joker is Joker.NONE:
        rules.append(words("kein Joker"))
    return rules


def _jamb_rules(options: Options, words: Translator) -> list[str]:
    """Jamb's house rules that are on (docs/rules.md, "Jamb"); its columns say the rest."""
    rules: list[str] = []
    if options.trips_bonus != 10:
        rules.append(words("Triling + {n}", n=options.trips_bonus))
    if options.straight_fixed:
        rules.append(words("Kenta fest {straight_small} und {straight_large}", **FIGURES))
    if options.sum2_bonus:
        figures = {**FIGURES, "sum2_bonus": sum2_bonus_of(options)}
        rules.append(words("Σ2-Bonus {sum2_bonus} ab {sum2_threshold}", **figures))
    if options.sum2_negative:
        rules.append(words("Σ2 auch unter 0"))
    if options.full_five:
        rules.append(words("Fünf Gleiche als Ful"))
    return rules
