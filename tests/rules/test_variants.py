"""Variants as data: the four presets, their columns and the five options."""

from __future__ import annotations

from typing import Any

import pytest

from kniffel.rules import (
    PRESETS,
    Discipline,
    Game,
    Joker,
    KniffelError,
    Options,
    Pasch,
    get_variant,
)

DOWN, UP, FREE = Discipline.DOWN, Discipline.UP, Discipline.FREE


@pytest.mark.parametrize(
    ("name", "columns"),
    [
        ("kniffel", [("main", FREE, 1)]),
        ("yahtzee", [("main", FREE, 1)]),
        ("rauf-runter", [("down", DOWN, 1), ("up", UP, 1), ("free", FREE, 1)]),
        ("dreifach", [("x1", FREE, 1), ("x2", FREE, 2), ("x3", FREE, 3)]),
    ],
)
def test_preset_columns(name: str, columns: list[tuple[str, Discipline, int]]) -> None:
    variant = get_variant(name)
    assert variant.name == name
    assert [(c.id, c.discipline, c.factor) for c in variant.columns] == columns
    assert variant.column_ids == tuple(c[0] for c in columns)


@pytest.mark.parametrize(
    ("name", "bonus", "joker"),
    [
        ("kniffel", 0, Joker.FREE),
        ("yahtzee", 100, Joker.FORCED),
        ("rauf-runter", 0, Joker.FREE),
        ("dreifach", 0, Joker.FREE),
    ],
)
def test_preset_options(name: str, bonus: int, joker: Joker) -> None:
    assert get_variant(name).options == Options(
        chance=True,
        pasch=Pasch.ALL_DICE,
        kniffel_bonus=bonus,
        joker=joker,
        zero_only_upper=False,
    )


def test_presets_are_exactly_the_six() -> None:
    assert list(PRESETS) == ["kniffel", "yahtzee", "rauf-runter", "dreifach", "jamb", "yams"]


@pytest.mark.parametrize(
    ("name", "chance", "turns"),
    [
        ("kniffel", True, 13),
        ("kniffel", False, 12),
        ("yahtzee", True, 13),
        ("yahtzee", False, 12),
        ("rauf-runter", True, 39),
        ("rauf-runter", False, 36),
        ("dreifach", True, 39),
        ("dreifach", False, 36),
    ],
)
def test_turns_per_player(name: str, chance: bool, turns: int) -> None:
    game = Game(get_variant(name, {"chance": chance}), ["Anna"])
    assert game.cells_per_player == turns


ALL_OPTIONS: dict[str, Any] = {
    "chance": False,
    "pasch": "matching_dice",
    "kniffel_bonus": 100,
    "joker": "none",
    "zero_only_upper": True,
}


#: The presets that offer the five Kniffel house rules (Jamb has its own, tests/rules/test_jamb.py).
KNIFFEL_SHEETS = ["kniffel", "yahtzee", "rauf-runter", "dreifach", "yams"]


@pytest.mark.parametrize("name", KNIFFEL_SHEETS)
def test_every_preset_accepts_every_option(name: str) -> None:
    options = get_variant(name, ALL_OPTIONS).options
    assert {k: v for k, v in options.as_dict().items() if k in ALL_OPTIONS} == ALL_OPTIONS
    assert get_variant(name, ALL_OPTIONS).columns == get_variant(name).columns


def test_rauf_runter_with_the_yahtzee_bonus() -> None:
    variant = get_variant("rauf-runter", {"kniffel_bonus": 100})
    assert variant.options.kniffel_bonus == 100
    assert variant.options.joker is Joker.FREE
    assert get_variant("rauf-runter").options.kniffel_bonus == 0, "presets stay unchanged"


def test_an_option_given_as_none_keeps_the_preset_value() -> None:
    assert get_variant("yahtzee", {"kniffel_bonus": None, "joker": None}) == get_variant("yahtzee")
    assert get_variant("yahtzee", {}) == get_variant("yahtzee")
    assert get_variant("yahtzee", None) == get_variant("yahtzee")


def test_as_dict_round_trips() -> None:
    for name in KNIFFEL_SHEETS:
        variant = get_variant(name, ALL_OPTIONS)
        assert get_variant(name, variant.options.as_dict()) == variant


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("skat", None, ["unknown variant 'skat'", "kniffel, yahtzee, rauf-runter, dreifach"]),
        ("kniffel", {"bonus": 100}, ["unknown option 'bonus'", "kniffel_bonus"]),
        ("kniffel", {"chance": "yes"}, ["option chance must be true or false", "'yes'"]),
        ("kniffel", {"chance": 1}, ["option chance must be true or false", "1"]),
        ("kniffel", {"zero_only_upper": 0}, ["option zero_only_upper must be true or false"]),
        ("kniffel", {"pasch": "some"}, ["option pasch must be one of all_dice, matching_dice"]),
        ("kniffel", {"joker": "wild"}, ["option joker must be one of free, forced, none"]),
        ("kniffel", {"joker": 1}, ["option joker must be one of free, forced, none"]),
        ("kniffel", {"kniffel_bonus": -1}, ["kniffel_bonus must be 0 or a positive whole number"]),
        ("kniffel", {"kniffel_bonus": 100.0}, ["kniffel_bonus must be 0 or a positive whole"]),
        ("kniffel", {"kniffel_bonus": True}, ["kniffel_bonus must be 0 or a positive whole"]),
        ("kniffel", {"kniffel_bonus": "100"}, ["kniffel_bonus must be 0 or a positive whole"]),
    ],
)
def test_bad_variants_and_options_are_refused_plainly(
    name: str, options: dict[str, Any] | None, words: list[str]
) -> None:
    with pytest.raises(KniffelError) as excinfo:
        get_variant(name, options)
    message = str(excinfo.value)
    for word in words:
        assert word in message
    assert "\n" not in message


def test_options_refuse_a_bad_bonus_when_built_directly() -> None:
    with pytest.raises(KniffelError, match="kniffel_bonus must be 0 or a positive whole number"):
        Options(kniffel_bonus=-5)


def test_arrow_symbols() -> None:
    assert [c.symbol for c in get_variant("rauf-runter").columns] == ["↓", "↑", ""]
