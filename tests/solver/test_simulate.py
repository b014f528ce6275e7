"""Seeded batch simulation: reproducible, and every game replays through the rules engine."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import Game, get_variant
from kniffel.solver.play.simulate import Simulation, game_events, simulate


def replayed(simulation: Simulation, game: int) -> Game:
    """The game rebuilt from its events by the engine, which checks every one."""
    played = Game(simulation.variant, ["Bot"])
    played.extend(game_events(simulation, game))
    return played


def assert_engine_agrees(simulation: Simulation) -> None:
    for g in range(simulation.games):
        game = replayed(simulation, g)
        assert game.is_finished
        assert game.total("Bot") == simulation.totals[g]
        columns = [game.column_totals("Bot", spec.id) for spec in simulation.variant.columns]
        assert [c.total for c in columns] == simulation.column_totals[g].tolist()
        assert [c.bonus > 0 for c in columns] == simulation.bonus[g].tolist()


@pytest.mark.parametrize("variant", ["kniffel", "yahtzee", "rauf-runter", "dreifach"])
@pytest.mark.parametrize("bot", ["random", "greedy", "best"])
def test_games_replay_through_the_engine(variant: str, bot: str) -> None:
    simulation = simulate(get_variant(variant), bot, 4, seed=11, keep_logs=4)
    assert_engine_agrees(simulation)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("rauf-runter", {"joker": "forced", "kniffel_bonus": 100, "zero_only_upper": True}),
        ("rauf-runter", {"chance": False, "pasch": "matching_dice"}),
        ("yahtzee", {"zero_only_upper": True}),
        ("dreifach", {"joker": "none", "kniffel_bonus": 100}),
    ],
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_options_games_replay_through_the_engine(
    variant: str, options: dict[str, Any], bot: str
) -> None:
    simulation = simulate(get_variant(variant, options), bot, 6, seed=5, keep_logs=6)
    assert_engine_agrees(simulation)


def test_extra_kniffels_replay_through_the_engine() -> None:
    # Greedy Yahtzee throws many Kniffels; the bonus and the forced joker must agree.
    simulation = simulate(get_variant("yahtzee"), "greedy", 60, seed=2, keep_logs=60)
    assert simulation.extra_kniffels.sum() > 0
    assert_engine_agrees(simulation)


def test_seeded_runs_are_reproducible() -> None:
    variant = get_variant("rauf-runter")
    first = simulate(variant, "greedy", 12, seed=4)
    again = simulate(variant, "greedy", 12, seed=4)
    other = simulate(variant, "greedy", 12, seed=5)
    assert first.totals.tolist() == again.totals.tolist()
    assert first.totals.tolist() != other.totals.tolist()


def test_a_game_does_not_depend_on_how_many_are_played() -> None:
    variant = get_variant("kniffel")
    few = simulate(variant, "random", 3, seed=9)
    many = simulate(variant, "random", 700, seed=9)  # more than one batch
    assert few.totals.tolist() == many.totals[:3].tolist()


def test_every_bot_meets_the_same_first_roll() -> None:
    variant = get_variant("kniffel")
    greedy = simulate(variant, "greedy", 5, seed=3, keep_logs=5)
    best = simulate(variant, "best", 5, seed=3, keep_logs=5)
    for g in range(5):
        assert game_events(greedy, g)[0] == game_events(best, g)[0]


def test_summary_figures() -> None:
    simulation = simulate(get_variant("dreifach"), "greedy", 30, seed=1)
    summary = simulation.summary()
    totals = simulation.totals
    assert summary["games"] == 30
    assert summary["mean"] == pytest.approx(totals.mean())
    assert summary["std"] == pytest.approx(totals.std(ddof=1))
    assert summary["stderr"] == pytest.approx(totals.std(ddof=1) / np.sqrt(30))
    assert summary["percentiles"]["50"] == pytest.approx(np.median(totals))
    assert set(summary["bonus_rate"]) == {"x1", "x2", "x3"}
    assert summary["column_mean"]["x2"] == pytest.approx(simulation.column_totals[:, 1].mean())
    assert 0 <= summary["kniffel_rate"]["x3"] <= 1
    assert summary["seconds_per_game"] > 0


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["simulate", *args])


def test_simulate_command_json() -> None:
    result = run(
        "--variant", "kniffel", "--bot", "greedy", "--games", "20", "--seed", "7", "--json"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    expected = simulate(get_variant("kniffel"), "greedy", 20, seed=7)
    assert report["mean"] == pytest.approx(expected.totals.mean())
    assert report["games"] == 20
    assert report["bot"] == "greedy"
    assert {"std", "percentiles", "bonus_rate", "kniffel_rate", "seconds_per_game"} <= set(report)


def test_simulate_command_takes_the_option_flags() -> None:
    result = run(
        "--variant", "rauf-runter", "--bot", "random", "--games", "3", "--no-chance",
        "--joker", "forced", "--kniffel-bonus", "100", "--pasch", "matching_dice",
        "--zero-only-upper", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    assert options == {
        "chance": False,
        "pasch": "matching_dice",
        "kniffel_bonus": 100,
        "joker": "forced",
        "zero_only_upper": True,
    }


def test_simulate_command_text_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    result = run(
        "--variant", "rauf-runter", "--bot", "greedy", "--games", "10", "--plot", str(plot)
    )
    assert result.exit_code == 0, result.output
    assert "mean" in result.stdout
    assert "down" in result.stdout and "free" in result.stdout
    root = ET.fromstring(plot.read_bytes())
    svg = "{http://www.w3.org/2000/svg}"
    assert root.findtext(f"{svg}title") == "Rauf-Runter-Kniffel: bot greedy, 10 games"
    words = [node.text for node in root.iter(f"{svg}text")]
    assert "final score" in words and "games" in words
    mean = next(w for w in words if w and w.startswith("mean "))
    # one bar per filled bin, their counts adding up to the games played
    counts = [r.findtext(f"{svg}title") for r in root.iter(f"{svg}rect")]
    assert sum(int(str(c).rsplit(": ", 1)[1]) for c in counts) == 10
    desc = root.findtext(f"{svg}desc") or ""
    assert desc.startswith("10 values from") and f"{mean} at" in desc


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "clever"], "clever"),
        (["--games", "0"], "--games"),
        (["--seed", "-1"], "--seed"),
        (["--variant", "skat"], "skat"),
    ],
)
def test_simulate_command_refuses_bad_input(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_simulate_command_reports_an_unwritable_plot(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "scores.svg"
    result = run("--bot", "random", "--games", "2", "--plot", str(target))
    assert result.exit_code == 1
    assert "cannot write" in result.output
