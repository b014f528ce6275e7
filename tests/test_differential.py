"""Our engine against an independent reference replayer, on thousands of random records.

The reference (tests/reference/replayer.py) was written from the rules (docs/rules.md)
and the record format (docs/record-format.md) alone. For every record both must agree on
every field of the ``replay --json`` object (``turn.dice`` as a multiset), or refuse the
same event number, or both refuse the file itself.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kniffel.cli import cli
from kniffel.record import RecordError, loads, replay, state_dict
from reference.generate import record_text
from reference.replayer import Refused, replay_text

SEEDS_PER_CHUNK = 300
CHUNKS = 10
CLI_EVERY = 20
DATA = Path(__file__).parent / "data"

Outcome = tuple[str, Any]


def _normalised(state: dict[str, Any]) -> dict[str, Any]:
    turn = state.get("turn")
    if turn and turn.get("dice") is not None:
        turn = {**turn, "dice": sorted(turn["dice"])}
    return {**state, "turn": turn}


def engine_outcome(text: str) -> Outcome:
    try:
        game = replay(loads(text))
    except RecordError as exc:
        return ("refused", exc.event)
    return ("state", _normalised(state_dict(game)))


def reference_outcome(text: str | bytes) -> Outcome:
    try:
        return ("state", _normalised(replay_text(text)))
    except Refused as exc:
        return ("refused", exc.event)


def cli_outcome(text: str) -> Outcome:
    sheets = CliRunner().invoke(cli, ["replay", "-"], input=text)
    result = CliRunner().invoke(cli, ["replay", "--json", "-"], input=text)
    # The plain sheets take the same path to the same verdict.
    assert (sheets.exit_code, sheets.stderr) == (result.exit_code, result.stderr), sheets.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        return ("state", _normalised(json.loads(result.stdout)))
    assert result.exit_code == 2, result.output
    line = result.stderr
    assert line.count("\n") == 1, line
    if line.startswith("event "):
        return ("refused", int(line.split(":", 1)[0].removeprefix("event ")))
    return ("refused", None)


def first_difference(ours: Any, theirs: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ, as a readable path (None when equal)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in [*ours, *(k for k in theirs if k not in ours)]:
            if key not in ours or key not in theirs:
                return f"{path}.{key}: only one side has it"
            found = first_difference(ours[key], theirs[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(ours) is not type(theirs) or ours != theirs:
        return f"{path}: engine {ours!r}, reference {theirs!r}"
    return None


def disagreement(text: str, ours: Outcome) -> str | None:
    theirs = reference_outcome(text)
    if ours[0] == "state" and theirs[0] == "state":
        return first_difference(ours[1], theirs[1])
    if ours != theirs:
        return f"engine {_describe(ours)}, reference {_describe(theirs)}"
    return None


def _describe(outcome: Outcome) -> str:
    if outcome[0] == "state":
        return "accepts the record"
    return "refuses the file" if outcome[1] is None else f"refuses event {outcome[1]}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_agrees_with_reference(chunk: int) -> None:
    problems = []
    for seed in range(chunk * SEEDS_PER_CHUNK, (chunk + 1) * SEEDS_PER_CHUNK):
        text = record_text(seed)
        ours = cli_outcome(text) if seed % CLI_EVERY == 0 else engine_outcome(text)
        found = disagreement(text, ours)
        if found:
            problems.append(f"seed {seed}: {found}")
    assert not problems, "\n".join(problems[:20])


def test_generator_reaches_the_corners() -> None:
    """The random records are varied enough for the comparison to mean something."""
    outcomes = [reference_outcome(record_text(seed)) for seed in range(400)]
    states = [o[1] for o in outcomes if o[0] == "state"]
    assert len(states) > 150
    assert sum(o == ("refused", None) for o in outcomes) > 5
    assert sum(o[0] == "refused" and o[1] is not None for o in outcomes) > 50
    assert any(s["finished"] for s in states)
    assert {s["variant"] for s in states} == {"kniffel", "yahtzee", "rauf-runter", "dreifach"}
    bonuses = [
        c["kniffel_bonus"] for s in states for p in s["players"] for c in p["columns"].values()
    ]
    assert sum(b > 0 for b in bonuses) > 20
    assert any(s["turn"] and s["turn"]["rolls"] == 3 for s in states)


#: The reference knows the Kniffel presets; the golden records of Jamb and Yams are reckoned
#: again in tests/test_golden_family.py.
FAMILY_RECORDS = ("jamb-", "yams-")


def test_reference_passes_the_golden_records() -> None:
    for path in sorted(DATA.glob("*.json")):
        if path.name.startswith(FAMILY_RECORDS):
            continue
        expected = path.with_suffix(".expected").read_text(encoding="utf-8")
        got = reference_outcome(path.read_bytes())
        if expected.lstrip().startswith("{"):
            assert got == ("state", _normalised(json.loads(expected))), path.name
        else:
            number = int(expected.split(":", 1)[0].removeprefix("event "))
            assert got == ("refused", number), path.name


def test_a_disagreement_is_reported() -> None:
    """The comparison itself can fail: a changed total is caught with its path."""
    text = (DATA / "kniffel-seed-examples.json").read_text(encoding="utf-8")
    ours = engine_outcome(text)
    assert disagreement(text, ours) is None
    changed = json.loads(json.dumps(ours[1]))
    changed["players"][0]["total"] += 1
    assert disagreement(text, ("state", changed)) == (
        "$.players[0].total: engine 312, reference 311"
    )
    assert disagreement(text, ("refused", 3)) == (
        "engine refuses event 3, reference accepts the record"
    )


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
    derandomize=True,
)
@given(st.randoms(use_true_random=False))
def test_engine_agrees_with_reference_on_hypothesis_records(rng: random.Random) -> None:
    text = record_text(rng)
    assert disagreement(text, engine_outcome(text)) is None


def _record(events: list[Any], options: dict[str, Any] | None = None, **head: Any) -> str:
    record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna"]}
    record |= head
    if options is not None:
        record["options"] = options
    return json.dumps({**record, "events": events})


def _enter(cell: str, **given: Any) -> dict[str, Any]:
    return {"type": "enter", "player": "Anna", "cell": cell, **given}


# Each reading of docs/decisions.md "Rules decisions": the record and the verdict
# (None: accepted; N: event N refused; 0: the file refused).
DECIDED: dict[str, tuple[str, int | None]] = {
    "zero_only_upper judges the cell, not the bonus": (
        _record(
            [_enter("kniffel", dice=[2] * 5), _enter("full_house", dice=[5] * 5)],
            {"zero_only_upper": True, "joker": "none", "kniffel_bonus": 100},
        ),
        2,
    ),
    "points on a roll are ignored": (
        _record([{"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 5], "points": 12}]),
        None,
    ),
    "dice on an edit are ignored": (
        _record(
            [
                _enter("ones", points=3),
                {"type": "edit", "player": "Anna", "cell": "ones", "points": 2, "dice": [9]},
            ]
        ),
        None,
    ),
    "an unknown player on an undo is ignored": (
        _record([_enter("ones", points=3), {"type": "undo", "player": "Zoe"}]),
        None,
    ),
    "dice and points on an entry": (_record([_enter("ones", dice=[1] * 5, points=5)]), 1),
    "a null option keeps the preset's value": (
        _record(
            [_enter("kniffel", dice=[2] * 5), _enter("chance", dice=[5] * 5)],
            {"joker": None},
            variant="yahtzee",
        ),
        2,
    ),
    "a missing format": (json.dumps({"variant": "kniffel", "players": ["Anna"]}), 0),
    "1e1 is not an integer": (_record([_enter("twos", points=1e1)]), 1),
    "-0 is 0": (_record([_enter("twos", points=-0)]), None),
    "six kept dice": (
        _record(
            [
                {"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 5]},
                {"type": "roll", "player": "Anna", "dice": [1, 2, 3, 4, 5], "keep": [1] * 6},
            ]
        ),
        2,
    ),
    "a file problem wins over an event problem": (
        _record([None], players=["Anna", "Anna"]),
        0,
    ),
    "a no-break space is blank": (_record([], players=["\u00a0"]), 0),
    "a zero-width space is not blank": (_record([], players=["\u200b"]), None),
    "names differ by case and spaces": (_record([], players=["Ben", "Ben ", "ben"]), None),
    "a points entry ignores the forced joker": (
        _record(
            [_enter("kniffel", dice=[2] * 5), _enter("full_house", points=25)],
            variant="yahtzee",
        ),
        None,
    ),
}


@pytest.mark.parametrize("corner", sorted(DECIDED))
def test_decided_corners(corner: str) -> None:
    text, verdict = DECIDED[corner]
    expected: Outcome = ("state", None) if verdict is None else ("refused", verdict or None)
    for outcome in (engine_outcome(text), reference_outcome(text)):
        assert (outcome[0], None if outcome[0] == "state" else outcome[1]) == expected
