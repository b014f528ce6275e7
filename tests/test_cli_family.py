"""The solver's commands refuse Jamb in plain words (no traceback); ``simulate`` plays it
with its own bots; its records replay."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.record import loads, replay
from kniffel.rules import get_variant, turns_of
from kniffel.solver.play.family import make_family_bot, play_game
from kniffel.store.results import summarise

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--variant", "jamb"],
        ["duel", "--variant", "jamb", "--games", "2"],
    ],
)
def test_a_solver_command_refuses_jamb_plainly(command: list[str]) -> None:
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert "Jamb has no solver, bots or advice yet" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("bot", ["random", "greedy", "best"])
def test_simulate_plays_jamb(bot: str) -> None:
    flags = ["--variant", "jamb", "--bot", bot, "--games", "2", "--seed", "5", "--json"]
    result = CliRunner().invoke(cli, ["simulate", *flags])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["variant"], summary["bot"], summary["games"]) == ("jamb", bot, 2)
    assert list(summary["column_mean"]) == ["down", "free", "up", "announce"]
    assert summary["min"] <= summary["mean"] <= summary["max"]


def test_a_jamb_record_replays_as_text() -> None:
    result = CliRunner().invoke(cli, ["replay", str(DATA / "jamb-announce.json")])
    assert result.exit_code == 0, result.output
    assert "Anna" in result.stdout


@pytest.mark.parametrize(
    "record", ["jamb-announce", "jamb-rows-and-sums", "jamb-hand-and-middle", "yams-french"]
)
def test_analyse_rates_a_family_record_against_the_best_bot(record: str) -> None:
    result = CliRunner().invoke(cli, ["analyse", str(DATA / f"{record}.json")])
    assert result.exit_code == 0, result.output
    assert "values by the best bot's heuristic, not an optimum" in result.stdout
    assert "game review" in result.stdout and "Traceback" not in result.output
    data = CliRunner().invoke(cli, ["analyse", "--json", str(DATA / f"{record}.json")])
    assert data.exit_code == 0, data.output
    analysed = json.loads(data.stdout)
    assert analysed["source"] == "heuristic" and analysed["decisions"]
    for decision in analysed["decisions"]:  # each entry beside the bot's choice
        assert decision["best"]["expected"] >= decision["choice"]["expected"] - 1e-9
        assert decision["loss"] >= 0


def test_analyse_names_an_announcement_as_the_players_read_it() -> None:
    result = CliRunner().invoke(cli, ["analyse", str(DATA / "jamb-announce.json")])
    assert result.exit_code == 0, result.output
    assert "announce Announce, Poker" in result.stdout  # Anna's announcement, event 2


def test_analyse_still_names_a_broken_family_record() -> None:
    result = CliRunner().invoke(cli, ["analyse", str(DATA / "jamb-announce-late.json")])
    assert result.exit_code == 2
    assert "event 3: an announcement comes right after the first roll" in result.output


def test_the_players_results_sum_up_finished_family_games() -> None:
    """The players' statistics and CSV rows come from ``summarise``: a Jamb game's totals."""
    variant = get_variant("jamb", {"hand": True})
    faces = np.random.default_rng([9, 0]).integers(1, 7, size=(turns_of(variant), 3, 5))
    game = play_game(make_family_bot("best", variant), faces)
    (row,) = summarise(game)
    assert row["total"] == game.total(0) and row["place"] == 1
    assert len(row["bonus"]) == len(variant.columns)
    golden = replay(loads((DATA / "jamb-announce.json").read_text()))
    assert [r["total"] for r in summarise(golden)] == golden.returns()


def test_simulate_takes_the_house_rules_of_jamb_and_yams() -> None:
    flags = ["--variant", "yams", "--option", "hand=true", "--option", "announce=true"]
    result = CliRunner().invoke(cli, ["simulate", *flags, "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert list(summary["column_mean"]) == ["down", "up", "free", "hand", "announce"]
    assert summary["options"]["hand"] is True and summary["options"]["announce"] is True


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ("trips_bonus=30", "option trips_bonus must be 10 or 20, got 30"),
        ("hand", "--option hand: write NAME=VALUE"),
        ("colour=red", "unknown option 'colour'"),
    ],
)
def test_simulate_refuses_a_bad_house_rule_plainly(option: str, says: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", "--variant", "jamb", "--option", option])
    assert result.exit_code == 2
    assert says in result.output
    assert "Traceback" not in result.output


def test_chances_simulates_a_jamb_record_with_the_best_bot() -> None:
    record = str(DATA / "jamb-announce.json")
    result = CliRunner().invoke(cli, ["chances", "--json", "--samples", "3", record])
    assert result.exit_code == 0, result.output
    series = json.loads(result.stdout)
    assert series["method"] == "simulation"
    last = series["turns"][-1]
    assert (last["method"], last["samples"]) == ("simulation", 3)
    assert abs(sum(last["chances"].values()) - 1) < 1e-9
    for name, win in last["chances"].items():
        low, high = last["intervals"][name]
        assert low <= win <= high
    again = CliRunner().invoke(cli, ["chances", "--json", "--samples", "3", record])
    assert json.loads(again.stdout) == series  # seeded by the position


def test_advise_a_jamb_record_with_the_best_bots_heuristic() -> None:
    # It stopped with a traceback (the Kniffel sheet's arrays know no Jamb rows).
    record = str(DATA / "jamb-announce.json")
    args = ["advise", "--record", record, "--dice", "12345", "--roll", "1", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    advice = json.loads(result.stdout)
    assert advice["source"] == "heuristic" and advice["chances_method"] == "none"
    assert advice["choices"][0]["points"] == 66  # a first-roll Kenta
    assert any(c["action"] == "announce" for c in advice["choices"])
    text = CliRunner().invoke(cli, ["advise", "--record", record])
    assert text.exit_code == 0, text.output
    assert "the best bot's heuristic worth, not an optimum" in text.stdout


def test_replay_of_a_jamb_game_writes_jambs_sums() -> None:
    """A Jamb sheet in plain text sums as its players do: Σ1, Σ2 (with its bonus) and Σ3, which
    add up to the column's total; it showed Kniffel's upper and lower sums and Kniffel bonus,
    which did not (docs/cli.md)."""
    path = DATA / "jamb-balkan.json"
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Summe oben" not in result.output and "Kniffel" not in result.output
    game = replay(loads(path.read_text()))
    lines: dict[str, list[str]] = {}
    for line in result.output.splitlines():  # the first sheet's (Anna's) lines
        if line.strip():
            lines.setdefault(line.split()[0], line.split()[1:])
    sums = [lines[name] for name in ("Σ1", "Σ2", "Σ3", "Gesamt")]
    first = [game.column_totals(0, spec.id) for spec in game.columns]
    assert sums == [
        [str(getattr(t, key)) for t in first] for key in ("sum1", "sum2", "sum3", "total")
    ]
    assert [sum(map(int, column)) for column in zip(*sums[:3], strict=True)] == [
        int(total) for total in sums[3]
    ]
