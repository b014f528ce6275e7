"""Every example record of tests/data replays exactly to its .expected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.record import RecordError, loads, replay

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("*.json"))

#: The refusal code of each golden record that is refused (its .expected holds the
#: ``event N: ...`` line); the .expected files stay as the replay prints them.
REFUSAL_CODES = {
    "jamb-announce-late": "announce_late",
    "jamb-announced-elsewhere": "announced_elsewhere",
    "jamb-hand-late": "first_roll_only",
    "kniffel-points-entry": "impossible_points",
    "kniffel-wrong-turn": "not_your_turn",
    "kniffel-zero-only-upper": "zero_only_upper",
    "rrk-fourth-roll": "no_rolls_left",
    "rrk-not-due": "not_due",
    "yahtzee-forced-upper": "joker_forced",
}


def _normalised(state: dict[str, Any]) -> dict[str, Any]:
    turn = state.get("turn")
    if turn and turn.get("dice") is not None:
        turn = {**turn, "dice": sorted(turn["dice"])}
    return {**state, "turn": turn}


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 17


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replay_matches_expected(path: Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", "--json", str(path)])
    if expected.lstrip().startswith("{"):
        assert result.exit_code == 0, result.output
        assert _normalised(json.loads(result.stdout)) == _normalised(json.loads(expected))
    else:
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        want = expected.split(":", 1)[0]
        assert result.stderr.split(":", 1)[0] == want
        assert "Traceback" not in result.stderr
        with pytest.raises(RecordError) as refused:
            replay(loads(path.read_bytes()))
        assert f"event {refused.value.event}" == want
        assert refused.value.code == REFUSAL_CODES[path.stem]
        assert refused.value.params["event"] == refused.value.event


def test_every_refused_golden_record_names_its_code() -> None:
    refused = {
        path.stem
        for path in RECORDS
        if not path.with_suffix(".expected").read_text(encoding="utf-8").lstrip().startswith("{")
    }
    assert refused == set(REFUSAL_CODES)
