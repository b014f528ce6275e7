"""``kniffel analyse``: the table, --json, --top, stdin, and one plain line for a broken record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from kniffel.cli import cli
from kniffel.record import loads, new_record
from kniffel.solver.advice.analysis import analyse

#: Anna throws away a Kniffel in Chance (a costly entry); Ben keeps badly, then enters well.
EVENTS: list[dict[str, Any]] = [
    {"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 6]},
    {"type": "enter", "player": "Anna", "cell": "main.chance"},
    {"type": "roll", "player": "Ben", "dice": [6, 6, 6, 2, 1]},
    {"type": "roll", "player": "Ben", "dice": [1, 2, 3, 3, 4], "keep": [1, 2]},
    {"type": "enter", "player": "Ben", "cell": "main.small_straight"},
    {"type": "enter", "player": "Anna", "cell": "main.sixes", "dice": [6, 6, 6, 1, 2]},
]


def _record(events: list[dict[str, Any]] = EVENTS) -> dict[str, Any]:
    record = new_record("kniffel", ["Anna", "Ben"])
    record["events"] = events
    return record


def run(tmp_path: Path, content: dict[str, Any] | str, *options: str) -> Result:
    path = tmp_path / "game.json"
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["analyse", *options, str(path)])


def test_the_table_lists_each_decision_and_the_loss_per_player(tmp_path: Path) -> None:
    result = run(tmp_path, _record())
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "kniffel (running): expected final totals, exact values"
    assert lines[2].split() == [
        "event", "turn", "player", "dice", "choice", "expected", "best", "expected", "loss",
    ]  # fmt: skip
    analysis = analyse(loads(json.dumps(_record())))
    rows = lines[3 : 3 + len(analysis.decisions)]
    assert [int(row.split()[0]) for row in rows] == [2, 4, 5, 6]
    wasted = rows[0]
    assert "enter Chance (30)" in wasted and "enter Kniffel (50)" in wasted
    assert "three_kind" not in result.stdout and "chance (" not in result.stdout
    assert wasted.split()[-1] == f"{analysis.decisions[0].loss:.2f}"
    assert "keep 1 2" in rows[1]
    assert "12666 (1)" in rows[1]
    assert "12666 " in rows[3] and "(" not in rows[3].split()[3]  # dice given: no roll count
    anna = analysis.players["Anna"]
    assert "expected points lost" in lines
    assert f"Anna  {anna.loss:8.2f} in 2 decisions" in result.stdout
    assert f"Ben   {analysis.players['Ben'].loss:8.2f} in 2 decisions" in result.stdout


def test_json_is_one_object(tmp_path: Path) -> None:
    result = run(tmp_path, _record(), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"variant", "exact", "finished", "decisions", "players"} <= set(data)
    assert (data["variant"], data["exact"], data["finished"]) == ("kniffel", True, False)
    assert [d["event"] for d in data["decisions"]] == [2, 4, 5, 6]
    wasted = data["decisions"][0]
    assert wasted["choice"] == {
        "action": "enter",
        "cell": "main.chance",
        "points": 30,
        "label": "enter chance (30)",
        "expected": wasted["choice"]["expected"],
    }
    assert wasted["best"]["cell"] == "main.kniffel"
    assert wasted["loss"] == pytest.approx(
        wasted["best"]["expected"] - wasted["choice"]["expected"]
    )
    keep = data["decisions"][1]
    assert keep["choice"]["action"] == "roll" and keep["choice"]["keep"] == [1, 2]
    assert (keep["rolls"], data["decisions"][3]["rolls"]) == (1, None)
    assert data["players"]["Anna"]["decisions"] == 2
    assert data["players"]["Anna"]["loss"] == pytest.approx(
        sum(d["loss"] for d in data["decisions"] if d["player"] == "Anna")
    )


def test_top_keeps_the_costliest_decisions(tmp_path: Path) -> None:
    every = json.loads(run(tmp_path, _record(), "--json").stdout)
    top = json.loads(run(tmp_path, _record(), "--json", "--top", "2").stdout)
    worst = sorted(every["decisions"], key=lambda d: -d["loss"])[:2]
    assert top["decisions"] == sorted(worst, key=lambda d: d["event"])
    assert top["players"] == every["players"]
    plain = run(tmp_path, _record(), "--top", "1")
    assert plain.stdout.splitlines()[4] == ""
    assert run(tmp_path, _record(), "--top", "0").exit_code == 2


def test_reads_stdin() -> None:
    result = CliRunner().invoke(cli, ["analyse", "--json", "-"], input=json.dumps(_record()))
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["decisions"]) == 4


def test_variant_and_options_come_from_the_record(tmp_path: Path) -> None:
    record = new_record("rauf-runter", ["Anna"])
    record["options"] = {**record["options"], "chance": False}
    record["events"] = [{"type": "enter", "player": "Anna", "cell": "up.kniffel", "dice": [1] * 5}]
    data = json.loads(run(tmp_path, record, "--json").stdout)
    assert (data["variant"], data["exact"]) == ("rauf-runter", False)
    assert data["decisions"][0]["choice"]["label"] == "enter up.kniffel (50)"
    text = run(tmp_path, record).stdout
    assert "values estimated by the best bot's plan" in text


def test_an_empty_game_has_no_decisions(tmp_path: Path) -> None:
    result = run(tmp_path, _record([]))
    assert result.exit_code == 0
    assert "no decisions yet" in result.stdout
    assert "Anna      0.00 in 0 decisions" in result.stdout


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            _record([*EVENTS[:2], {"type": "enter", "player": "Anna", "cell": "main.ones"}]),
            "event 3: it is not Anna's turn; Ben is to move",
        ),
        ("{not json", None),
        (json.dumps({"format": "kniffel-record/1", "variant": "skat", "players": ["A"]}), None),
    ],
)
def test_a_broken_record_exits_2_with_one_plain_line(
    tmp_path: Path, content: dict[str, Any] | str, line: str | None
) -> None:
    result = run(tmp_path, content)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    if line is not None:
        assert result.stderr == line + "\n"


def test_help_names_every_option() -> None:
    text = CliRunner().invoke(cli, ["analyse", "--help"]).output
    for option in ("--json", "--top N", "RECORD"):
        assert option in text


def test_the_table_names_rows_and_columns_by_their_labels(tmp_path: Path) -> None:
    record = {
        "format": "kniffel-record/1",
        "variant": "rauf-runter",
        "players": ["Anna"],
        "events": [
            {"type": "roll", "player": "Anna", "dice": [3, 3, 3, 2, 1]},
            {"type": "enter", "player": "Anna", "cell": "up.chance"},
        ],
    }
    result = run(tmp_path, record)
    assert result.exit_code == 0, result.output
    assert "enter Up, Chance (12)" in result.stdout
    assert "up.chance" not in result.stdout


def test_the_yahtzee_preset_says_yahtzee(tmp_path: Path) -> None:
    record = {
        "format": "kniffel-record/1",
        "variant": "yahtzee",
        "players": ["Anna"],
        "events": [
            {"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 6]},
            {"type": "enter", "player": "Anna", "cell": "chance"},
        ],
    }
    result = run(tmp_path, record)
    assert result.exit_code == 0, result.output
    assert "enter Yahtzee (50)" in result.stdout and "Kniffel" not in result.stdout
