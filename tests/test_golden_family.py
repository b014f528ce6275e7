"""The golden records of Jamb and Yams, reckoned again here without the engine.

tests/test_golden.py replays every record of tests/data to its ``.expected``; this test
checks that those ``.expected`` files are right: it scores each entry with its own small
formulas (docs/rules.md, "Jamb" and "Yams") and adds the sheet up as a player would.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
FAMILY = sorted(
    p
    for p in [*DATA.glob("jamb-*.json"), *DATA.glob("yams-*.json")]
    if p.with_suffix(".expected").read_text(encoding="utf-8").lstrip().startswith("{")
)

#: The players' totals, added up by hand from the records' comments (docs/rules.md, "Jamb").
BY_HAND = {
    "jamb-rows-and-sums": {"Anna": 103 + 76 + 250 + 3},
    "jamb-kenta-by-roll": {"Anna": 66, "Ben": 56, "Clara": 46},
    "jamb-announce": {"Anna": 64 + 66 + 48, "Ben": 15},
    "jamb-hand-and-middle": {"Anna": (70 + 66) + (68 + 30 + 22 * 2 + 16)},
    "jamb-house-rules": {"Anna": (3 + 72 + 30 + 38 + 35) + 44},
    # Σ2 bonus 40, Σ2 below 0 and five of a kind as Ful (yamb-of-the-balkan, dlackovic2/yamb)
    "jamb-balkan": {"Anna": 3 + (20 * 3 + 40) + (20 + 30), "Ben": 2 + (8 - 28) * 2 + (30 + 30)},
    "yams-french": {"Anna": 15 + 50, "Ben": 25 + 24, "Clara": 3 + 40},
}

JAMB_UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
JAMB_LOWER = ["trips", "straight", "full_house", "poker", "jamb"]


def straight(counts: Counter[int]) -> int | None:
    """1 for 1-5, 2 for 2-6, None for no straight."""
    faces = sorted(counts)
    if faces == [1, 2, 3, 4, 5]:
        return 1
    if faces == [2, 3, 4, 5, 6]:
        return 2
    return None


def jamb_score(row: str, dice: list[int], roll: int, options: dict[str, Any]) -> int:
    counts = Counter(dice)
    face, most = max(counts.items(), key=lambda item: (item[1], item[0]))
    if row in JAMB_UPPER:
        f = JAMB_UPPER.index(row) + 1
        return f * counts[f]
    if row in ("max", "min"):
        return sum(dice)
    if row == "trips":
        return 3 * face + options.get("trips_bonus", 10) if most >= 3 else 0
    if row == "poker":
        return 4 * face + 40 if most >= 4 else 0
    if row == "jamb":
        return 5 * face + 50 if most == 5 else 0
    if row == "full_house":
        five = options.get("full_five") and most == 5
        return sum(dice) + 30 if sorted(counts.values()) == [2, 3] or five else 0
    low = straight(counts)
    if low is None:
        return 0
    if options.get("straight_fixed"):
        return 35 if low == 1 else 45
    return {1: 66, 2: 56, 3: 46}[roll]


def yams_score(row: str, dice: list[int]) -> int:
    counts = Counter(dice)
    face, most = max(counts.items(), key=lambda item: (item[1], item[0]))
    upper = {name: f for f, name in enumerate(JAMB_UPPER, start=1)}
    if row in upper:
        return upper[row] * counts[upper[row]]
    fixed = {"full_house": 25, "small_straight": 30, "large_straight": 40, "kniffel": 50}
    if row == "three_kind":
        return 3 * face if most >= 3 else 0
    if row == "four_kind":
        return 4 * face if most >= 4 else 0
    if row == "full_house":
        return fixed[row] if sorted(counts.values()) == [2, 3] else 0
    if row == "small_straight":
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return fixed[row] if any(run <= set(dice) for run in runs) else 0
    if row == "large_straight":
        return fixed[row] if straight(counts) is not None else 0
    if row == "kniffel":
        return fixed[row] if most == 5 else 0
    return sum(dice)


def reckon(record: dict[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    """player -> column -> row -> points, from the events alone (undo as a step back)."""
    options = record.get("options") or {}
    state: dict[str, Any] = {"cells": {p: {} for p in record["players"]}, "pending": {}}
    history: list[dict[str, Any]] = []
    for event in record["events"]:
        if event["type"] == "undo":
            state = history.pop()
            continue
        history.append(copy.deepcopy(state))
        player = event.get("player")
        if event["type"] == "roll":
            before = state["pending"].get(player, (None, 0))[1]
            state["pending"][player] = (event["dice"], before + 1)
        elif event["type"] == "enter":
            column, row = event["cell"].split(".")
            dice, rolls = state["pending"].pop(player, (event.get("dice"), event.get("roll")))
            if "points" in event:
                points = event["points"]
            elif record["variant"] == "jamb":
                points = jamb_score(row, dice, event.get("roll", rolls), options)
            else:
                points = yams_score(row, dice)
            state["cells"][player].setdefault(column, {})[row] = points
    return state["cells"]


def column_sums(variant: str, cells: dict[str, int], options: dict[str, Any]) -> dict[str, int]:
    if variant == "yams":
        upper = sum(v for r, v in cells.items() if r in JAMB_UPPER)
        lower = sum(v for r, v in cells.items() if r not in JAMB_UPPER)
        return {"total": upper + (35 if upper >= 63 else 0) + lower}
    upper = sum(cells.get(r, 0) for r in JAMB_UPPER)
    sum1 = upper + (30 if upper >= 60 else 0)
    sum2 = 0
    if all(r in cells for r in ("max", "min", "ones")):
        sum2 = (cells["max"] - cells["min"]) * cells["ones"]
        if not options.get("sum2_negative"):
            sum2 = max(0, sum2)
        if options.get("sum2_bonus") and sum2 >= 60:
            sum2 += options.get("sum2_bonus_points", 30)
    sum3 = sum(cells.get(r, 0) for r in JAMB_LOWER)
    return {"sum1": sum1, "sum2": sum2, "sum3": sum3, "total": sum1 + sum2 + sum3}


def test_every_rule_has_a_golden_record() -> None:
    assert {p.stem for p in FAMILY} == set(BY_HAND)


@pytest.mark.parametrize("path", FAMILY, ids=lambda p: p.stem)
def test_the_expected_sums_are_the_reckoning(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix(".expected").read_text(encoding="utf-8"))
    options = record.get("options") or {}
    reckoned = reckon(record)
    for player in expected["players"]:
        name = player["name"]
        total = 0
        for column, shown in player["columns"].items():
            cells = reckoned[name].get(column, {})
            assert {r: v for r, v in shown["cells"].items() if v is not None} == cells
            sums = column_sums(record["variant"], cells, options)
            assert {k: shown[k] for k in sums} == sums, (name, column)
            total += sums["total"]
        assert player["total"] == total == BY_HAND[path.stem][name]
