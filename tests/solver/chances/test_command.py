"""``kniffel chances``: the chances after every entry of a record, as text, JSON and SVG."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import ROWS

DATA = Path(__file__).parent.parent.parent / "data"


def finished_record(tmp_path: Path) -> Path:
    """Two players, points only: Anna 50 + zeros + 5, Ben zeros + 6; Anna wins."""
    events = []
    rows = [row.value for row in ROWS]
    for row in rows:
        for name in ("Anna", "Ben"):
            points = {"kniffel": 50 if name == "Anna" else 0, "chance": 5 if name == "Anna" else 6}
            events.append(
                {"type": "enter", "player": name, "cell": row, "points": points.get(row, 0)}
            )
    record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna", "Ben"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**record, "events": events}), encoding="utf-8")
    return path


def test_json_after_every_entry(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["chances", "--json", "--samples", "40", str(finished_record(tmp_path))]
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert set(body) == {"method", "start", "turns", "winners"}
    assert body["method"] == "simulation"  # exact only near the end
    assert body["winners"] == ["Anna"]
    assert len(body["turns"]) == 26
    assert [t["event"] for t in body["turns"]] == list(range(1, 27))
    assert body["turns"][0]["player"] == "Anna"
    for turn in body["turns"]:
        assert set(turn) == {"event", "player", "method", "samples", "chances", "intervals"}
        assert sum(turn["chances"].values()) == pytest.approx(1.0, abs=1e-5)  # rounded to 1e-6
        for name, (low, high) in turn["intervals"].items():
            assert low <= turn["chances"][name] <= high
            assert (low == high) == (turn["method"] == "exact")
    # Anna's Kniffel (her 12th entry) puts her ahead; at the end she has won
    before, after = body["turns"][20]["chances"], body["turns"][22]["chances"]
    assert after["Anna"] > before["Anna"]
    assert body["turns"][-1]["chances"] == {"Anna": 1.0, "Ben": 0.0}


def test_text_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "chances.svg"
    record = str(DATA / "rrk-due-and-clear.json")
    result = CliRunner().invoke(cli, ["chances", record, "--samples", "20", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "Anna" in result.output and "the game is not finished" in result.output
    # the method in words, and each simulated chance with its interval
    assert "method: simulated where marked ≈" in result.output
    assert "exact expected totals" not in result.output
    assert "≈50.0% ±" in result.output
    assert plot.read_text(encoding="utf-8").startswith("<?xml")
    # the chart: English words, a share axis in percent, each player's line with the
    # simulated entries' 95 % interval as a band
    root = ET.fromstring(plot.read_bytes())
    svg = "{http://www.w3.org/2000/svg}"
    assert root.findtext(f"{svg}title") == "Win chances after every entry"
    words = [node.text for node in root.iter(f"{svg}text")]
    assert {"Entry", "Win chance", "0%", "100%", "Anna", "Ben"} <= set(words)
    lines = {g.get("aria-label"): g for g in root.iter(f"{svg}g") if g.get("class") == "line"}
    assert list(lines) == ["Anna", "Ben"]
    assert all(len(list(g.iter(f"{svg}polygon"))) == 1 for g in lines.values())
    assert (root.findtext(f"{svg}desc") or "").startswith("Anna: from 50% to ")


def test_a_broken_record_is_one_line_and_status_2() -> None:
    result = CliRunner().invoke(cli, ["chances", str(DATA / "kniffel-wrong-turn.json")])
    assert result.exit_code == 2
    assert result.output.strip().startswith("event 2:")
    assert len(result.output.strip().splitlines()) == 1


def test_an_unwritable_plot_is_status_1(tmp_path: Path) -> None:
    # A preset's record: one of house rules (kniffel-bonus-100) first built the best bot's
    # table for its rules, half a minute spent on what this test is not about.
    record = str(finished_record(tmp_path))
    result = CliRunner().invoke(
        cli, ["chances", record, "--samples", "10", "--plot", str(tmp_path / "no" / "x.svg")]
    )
    assert result.exit_code == 1
    assert "cannot write" in result.output
