"""Record files that are wrong outside their events (or not JSON at all)."""

from __future__ import annotations

import json
import random
from typing import Any


def broken_file(rng: random.Random, record: dict[str, Any]) -> str:
    """A record that is wrong outside its events (or not JSON at all)."""
    broken = dict(record)
    kind = rng.randrange(16)
    if kind == 0:
        return json.dumps(record)[: rng.randint(0, 40)]
    if kind == 1:
        return json.dumps(rng.choice(([record], None, "kniffel", 3, [])))
    if kind == 2 and rng.random() < 0.3:
        # Beyond what Python's json reads: too deep, or an integer of 5000 digits.
        return rng.choice(
            ("[" * 5000 + "]" * 5000, json.dumps(record)[:-1] + f', "n": {"7" * 5000}}}')
        )
    if kind == 10 and rng.random() < 0.3:
        # A lone surrogate (half a UTF-16 pair) and a whole pair, both escaped.
        name = rng.choice(("\\ud800", "\\udfff", "\\ud83c\\udfb2"))
        return json.dumps({**record, "players": ["Anna"], "events": []}).replace("Anna", name, 1)
    if kind == 2:
        broken["format"] = rng.choice(("kniffel-record/2", None, "", 1, "Kniffel-Record/1"))
    elif kind == 3:
        del broken["format"]
    elif kind == 4:
        broken["variant"] = rng.choice(("Kniffel", "triple", None, "", 3, ["kniffel"]))
    elif kind == 5:
        del broken["variant"]
    elif kind == 6:
        broken["options"] = rng.choice(({"jokers": "free"}, {"bonus": 100}, {"Chance": True}))
    elif kind == 7:
        broken["options"] = rng.choice(
            (
                {"chance": "yes"},
                {"chance": 1},
                {"kniffel_bonus": -100},
                {"kniffel_bonus": 100.0},
                {"kniffel_bonus": True},
                {"kniffel_bonus": "100"},
                {"joker": "maybe"},
                {"joker": True},
                {"pasch": "some_dice"},
                {"zero_only_upper": "false"},
                {"zero_only_upper": 0},
            )
        )
    elif kind == 8:
        broken["options"] = rng.choice(([], "yahtzee", 100, True))
    elif kind == 9:
        broken["players"] = rng.choice(([], [f"P{i}" for i in range(9)], ["Anna", "Anna"]))
    elif kind == 10:
        broken["players"] = rng.choice(([""], ["  "], ["Anna", "\t"], [1], ["Anna", None]))
    elif kind == 11:
        broken["players"] = rng.choice(("Anna", None, {"Anna": 1}, [["Anna"]]))
    elif kind == 12:
        del broken["players"]
    elif kind == 13:
        broken["events"] = rng.choice(({}, "roll", 5, {"type": "undo"}))
    elif kind == 14:
        # Harmless: null options, null events, and an unknown top-level field.
        broken["options"] = None
        broken["events"] = broken.get("events") or None
        broken["comment"] = "ignored"
    else:
        broken["options"] = {**broken.get("options", {}), "chance": None, "joker": None}
    return json.dumps(broken)
