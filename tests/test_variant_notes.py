"""The new-game form's line about each preset is made from the variant: under every house rule it
says as many turns as the game has, and the house rules that differ from the plain ones."""

from __future__ import annotations

import itertools
import re

import pytest

from kniffel.locales import LANGUAGES, Translator
from kniffel.locales.variant_notes import variant_note
from kniffel.rules import PRESETS, Dice, Enter, Game, Joker, Pasch, Variant

#: Every house-rule combination the new-game form can ask for (the bonus at 0, 1 and a few).
HOUSE_RULES = [
    {
        "chance": chance,
        "pasch": pasch.value,
        "zero_only_upper": zero_only_upper,
        "joker": joker.value,
        "kniffel_bonus": bonus,
    }
    for chance, pasch, zero_only_upper, joker, bonus in itertools.product(
        (True, False), Pasch, (False, True), Joker, (0, 1, 100)
    )
]
TURN_WORDS = {
    "de": r"(\d+) Zü?ge?\b",
    "en": r"(\d+) turns?\b",
    "hr": r"(\d+) poteza?\b",
    "sr_Latn": r"(\d+) poteza?\b",
    "fr": r"(\d+) tours?\b",
}
#: The Chance row as the notes name it (Croatian and Serbian decline it: "bez Šanse").
CHANCE_WORDS = {"de": "Chance", "en": "Chance", "hr": "Šans", "sr_Latn": "Šans", "fr": "Chance"}
#: The presets that offer the Kniffel house rules above (Jamb has its own: docs/rules.md, "Jamb").
KNIFFEL_SHEETS = [
    name for name, v in PRESETS.items() if set(HOUSE_RULES[0]) <= set(v.options.offered)
]


def _turns_played(variant: Variant) -> int:
    """The turns of one player, counted by playing them: one roll entered until the end."""
    game = Game(variant, ["Anna"])
    turns = 0
    while not game.is_finished:
        cell = game.allowed_cells()[0]
        game.push(Enter("Anna", cell, dice=Dice.of([1, 2, 3, 4, 6]), roll=1))
        turns += 1
    return turns


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", KNIFFEL_SHEETS)
def test_every_preset_note_counts_the_turns_of_its_variant_under_every_house_rule(
    name: str, lang: str
) -> None:
    t = Translator(lang)
    for rules in HOUSE_RULES:
        variant = PRESETS[name].with_options(rules)
        note = variant_note(variant, t)
        counts = [int(n) for n in re.findall(TURN_WORDS[lang], note)]
        assert counts == [len(variant.columns) * (13 if rules["chance"] else 12)], (rules, note)
        assert (f"{rules['kniffel_bonus']} " in note) == (rules["kniffel_bonus"] > 0), note
        assert (CHANCE_WORDS[lang] in note) == (not rules["chance"]), note


@pytest.mark.parametrize("name", PRESETS)
def test_the_counted_turns_are_the_turns_a_game_has(name: str) -> None:
    rules = (
        [{"chance": c} for c in (True, False)] if name in KNIFFEL_SHEETS else [{"hand": True}, {}]
    )
    for options in rules:
        variant = PRESETS[name].with_options(options)
        note = variant_note(variant, Translator("en"))
        assert f" {_turns_played(variant)} turns" in note, note


def test_without_chance_the_notes_say_12_and_36_turns() -> None:
    de = Translator("de")
    notes = {
        name: variant_note(PRESETS[name].with_options({"chance": False}), de)
        for name in KNIFFEL_SHEETS
    }
    assert "12 Züge" in notes["kniffel"] and "12 Züge" in notes["yahtzee"]
    assert "36 Züge" in notes["rauf-runter"] and "36 Züge" in notes["dreifach"]


def test_yahtzee_says_yahtzee_in_english_and_one_point_is_singular() -> None:
    yahtzee = variant_note(PRESETS["yahtzee"], Translator("en"))
    assert "100 points per further Yahtzee" in yahtzee and "Kniffel" not in yahtzee
    one = variant_note(PRESETS["kniffel"].with_options({"kniffel_bonus": 1}), Translator("en"))
    assert "1 point per further Kniffel" in one
    german = variant_note(PRESETS["yahtzee"], Translator("de"))
    assert "100 Punkte je weiterem Kniffel" in german


def test_jamb_says_its_52_turns_and_the_house_rules_that_are_on() -> None:
    de, en = Translator("de"), Translator("en")
    assert "52 Züge" in variant_note(PRESETS["jamb"], de)
    assert "Joker" not in variant_note(PRESETS["jamb"], de)
    rules = {"trips_bonus": 20, "straight_fixed": True, "sum2_bonus": True, "middle": True}
    note = variant_note(PRESETS["jamb"].with_options(rules), en)
    assert "65 turns" in note
    assert "Three of a kind + 20" in note and "35 and 45" in note and "Σ2 bonus" in note
    assert "Σ2 bonus 30 from 60" in note and "below 0" not in note
    balkan = {"sum2_bonus": True, "sum2_bonus_points": 40, "sum2_negative": True, "full_five": True}
    note = variant_note(PRESETS["jamb"].with_options(balkan), en)
    assert "Σ2 bonus 40 from 60" in note and "Σ2 below 0 too" in note
    assert "Five of a kind as Full house" in note
