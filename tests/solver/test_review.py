"""The game review: accuracy, losses, severities, the costliest decisions; Python and CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.cli.analyse import labeller
from kniffel.record import loads, new_record
from kniffel.rules import get_variant
from kniffel.solver.advice.analysis import analyse
from kniffel.solver.advice.review import SEVERITIES, accuracy, describe, review, severity

#: Anna throws away a Kniffel in Chance (costly); Ben keeps badly; Anna enters points only once.
EVENTS: list[dict[str, Any]] = [
    {"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 6]},
    {"type": "enter", "player": "Anna", "cell": "main.chance"},
    {"type": "roll", "player": "Ben", "dice": [6, 6, 6, 2, 1]},
    {"type": "roll", "player": "Ben", "dice": [1, 2, 3, 3, 4], "keep": [1, 2]},
    {"type": "enter", "player": "Ben", "cell": "main.small_straight"},
    {"type": "enter", "player": "Anna", "cell": "main.sixes", "dice": [6, 6, 6, 1, 2]},
    {"type": "enter", "player": "Ben", "cell": "main.sixes", "dice": [6, 6, 6, 6, 2]},
    {"type": "enter", "player": "Anna", "cell": "main.fours", "points": 12},
]


def _record(events: list[dict[str, Any]] = EVENTS) -> Any:
    record = new_record("kniffel", ["Anna", "Ben"])
    record["events"] = events
    return loads(json.dumps(record))


def test_accuracy_is_100_for_a_best_choice_and_halves_every_5_points() -> None:
    assert accuracy(0.0) == 100.0
    assert accuracy(5.0) == pytest.approx(50.0)
    assert accuracy(15.0) == pytest.approx(12.5)
    assert accuracy(-1e-12) == 100.0
    assert [severity(x) for x in (0.99, 1.0, 3.99, 4.0, 9.99, 10.0)] == [
        None, "ungenauigkeit", "ungenauigkeit", "fehler", "fehler", "patzer",
    ]  # fmt: skip
    assert [name for name, _ in SEVERITIES] == ["patzer", "fehler", "ungenauigkeit"]


def test_the_review_sums_up_the_analysis_per_player() -> None:
    record = _record()
    result = review(record)
    decisions = analyse(record).decisions
    assert result.analysis.decisions == decisions
    for player in result.players:
        mine = [d for d in decisions if d.player == player.name]
        assert player.decisions == len(mine)
        assert player.loss == pytest.approx(sum(d.loss for d in mine))
        assert player.accuracy == pytest.approx(sum(accuracy(d.loss) for d in mine) / len(mine))
        assert player.loss_per_decision == pytest.approx(player.loss / len(mine))
        for name, _ in SEVERITIES:
            assert player.counts[name] == sum(1 for d in mine if severity(d.loss) == name)
        assert [e for e, _ in player.expected] == [d.event for d in mine]
        assert [v for _, v in player.expected] == [d.made.expected for d in mine]
    anna = result.player("Anna")
    assert anna.accuracy is not None and anna.accuracy < 100
    assert anna.counts["patzer"] == 1  # a Kniffel in Chance costs far more than 10 points
    assert anna.not_rated == 1 and result.player("Ben").not_rated == 0
    (unrated,) = result.unrated
    assert (unrated.event, unrated.turn, unrated.player, unrated.cell, unrated.points) == (
        8, 3, "Anna", "main.fours", 12,
    )  # fmt: skip


def test_the_costliest_come_first_and_best_choices_are_left_out() -> None:
    result = review(_record())
    costliest = result.costliest()
    assert costliest[0].event == 2
    assert [d.loss for d in costliest] == sorted((d.loss for d in costliest), reverse=True)
    assert all(d.loss >= 0.05 for d in costliest) and len(costliest) <= 5
    words = describe(costliest[0])
    assert words.startswith("Anna, turn 1, roll 1, dice 66666: chose enter chance (30)")
    assert "best was enter kniffel (50)" in words and "(patzer)" in words


def test_an_empty_game_has_no_accuracy() -> None:
    result = review(_record([]))
    assert all(p.accuracy is None and p.decisions == 0 for p in result.players)
    assert result.costliest() == ()


def test_the_cli_prints_the_review_and_json_keeps_the_analysis_keys(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = new_record("kniffel", ["Anna", "Ben"])
    record["events"] = EVENTS
    path.write_text(json.dumps(record), encoding="utf-8")
    text = CliRunner().invoke(cli, ["analyse", str(path)])
    assert text.exit_code == 0, text.output
    result = review(_record())
    anna = result.player("Anna")
    assert "game review" in text.stdout
    lines = text.stdout.splitlines()
    assert any(line.split()[:3] == ["Anna", f"{anna.accuracy:.1f}", "%"] for line in lines)
    label = labeller(get_variant("kniffel"))
    assert "1. " + describe(result.costliest()[0], label=label) in text.stdout
    assert "enter Kniffel (50)" in text.stdout  # the players' row labels, not ids
    assert "event 8: Anna, turn 3, Fours (12)" in text.stdout
    data = json.loads(CliRunner().invoke(cli, ["analyse", "--json", str(path)]).stdout)
    assert {"variant", "exact", "finished", "decisions", "players"} <= set(data)
    assert data["players"]["Anna"]["accuracy"] == pytest.approx(anna.accuracy)
    assert data["players"]["Anna"]["loss"] == pytest.approx(anna.loss)
    assert data["players"]["Anna"]["decisions"] == anna.decisions
    assert data["players"]["Anna"]["counts"] == anna.counts
    assert data["players"]["Ben"]["not_rated"] == 0
    assert [d["event"] for d in data["decisions"]] == [d.event for d in result.analysis.decisions]
    assert data["decisions"][0]["severity"] == "patzer"
    assert data["costliest"][0] == 2
    assert data["not_rated"] == [
        {"event": 8, "turn": 3, "player": "Anna", "cell": "main.fours", "points": 12}
    ]
