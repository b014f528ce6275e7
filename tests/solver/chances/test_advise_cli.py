"""``kniffel advise``: a position from a one-line sheet or a record, advised and looked ahead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import Dice, get_variant
from kniffel.solver.advice.notation import parse_sheet
from kniffel.solver.advice.position import evaluate

DATA = Path(__file__).parent.parent.parent / "data"


def advise(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["advise", *args, "--samples", "60", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_sheet_and_dice() -> None:
    sheet = "ones=3,twos=6,threes=9,kniffel=50"
    body = advise("--variant", "kniffel", "--sheet", sheet, "--dice", "66612", "--roll", "1")
    game = parse_sheet(get_variant("kniffel"), sheet)
    position = evaluate(game, Dice.parse("66612"), 1)
    assert body["total"] == 68
    assert body["exact"] is True
    assert body["dice"] == "12666" and body["roll"] == 1
    assert [c["expected"] for c in body["choices"]] == [c.expected for c in position.choices[:5]]
    assert body["choices"][0] == {
        "action": "roll",
        "keep": [6, 6, 6],
        "label": "keep 6 6 6",
        "expected": position.expected,
    }
    assert body["kniffel_chance"] == {"main": 1.0}  # the 50 is on the sheet already
    assert 0 < body["bonus_chance"]["main"] < 1
    # One column: the chances are exact (docs/solver.md, "Exact chances"), no games simulated.
    assert body["chances_method"] == "exact" and body["samples"] == 0


def test_the_bonus_chance_is_certain_or_impossible() -> None:
    reached = advise(
        "--variant", "kniffel", "--sheet", "fours=16,fives=25,sixes=24", "--dice", "11111"
    )
    assert reached["bonus_chance"] == {"main": 1.0}
    hopeless = advise("--variant", "kniffel", "--sheet", "fours=0,fives=0,sixes=0")
    assert hopeless["bonus_chance"] == {"main": 0.0}
    assert hopeless["dice"] is None
    assert [c["label"] for c in hopeless["choices"]] == ["roll all dice"]


def test_several_columns_and_house_rules() -> None:
    sheet = "down.ones=3,up.chance=20,free.sixes=24"
    body = advise(
        "--variant",
        "rauf-runter",
        "--joker",
        "none",
        "--sheet",
        sheet,
        "--dice",
        "55555",
        "--roll",
        "3",
    )
    assert body["options"]["joker"] == "none"
    assert body["exact"] is False
    assert set(body["bonus_chance"]) == {"down", "up", "free"}
    assert all(c["action"] == "enter" for c in body["choices"])


def test_a_record() -> None:
    body = advise("--record", str(DATA / "rrk-due-and-clear.json"))
    assert body["variant"] == "rauf-runter"
    assert body["choices"]


@pytest.mark.parametrize(
    "args",
    [
        ["--sheet", "ones=7"],
        ["--sheet", "ones"],
        ["--sheet", "eins=3"],
        ["--sheet", "ones=3", "--dice", "66x12"],
        ["--variant", "rauf-runter", "--sheet", "down.twos=4"],
        [],
        ["--sheet", "ones=3", "--record", str(DATA / "kniffel-bonus-100.json")],
        ["--record", str(DATA / "kniffel-wrong-turn.json")],
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["advise", *args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
