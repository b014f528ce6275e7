"""The bots' array sheets state the same legal entries and points as the rules engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kniffel.rules import Dice, Enter, Game, IllegalMoveError, Row, get_variant, possible_points
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.play.sheets import SheetBatch

CASES: list[tuple[str, dict[str, Any]]] = [
    ("kniffel", {}),
    ("yahtzee", {}),
    ("rauf-runter", {}),
    ("rauf-runter", {"joker": "forced", "kniffel_bonus": 100}),
    ("rauf-runter", {"zero_only_upper": True, "chance": False}),
    ("dreifach", {"joker": "none", "kniffel_bonus": 50, "pasch": "matching_dice"}),
    ("kniffel", {"joker": "forced", "zero_only_upper": True}),
]


def random_sheet(variant: str, options: dict[str, Any], rng: random.Random) -> Game:
    """A game of one player with some cells filled by points entries, Kniffel cells first."""
    game = Game(get_variant(variant, options), ["P"])
    wanted = rng.randrange(game.cells_per_player)
    while game.filled_count("P") < wanted:
        allowed = game.allowed_cells("P")
        kniffels = [c for c in allowed if c.row is Row.KNIFFEL]
        cell = rng.choice(kniffels if kniffels and rng.random() < 0.7 else allowed)
        points = rng.choice(sorted(possible_points(cell.row, game.options)))
        try:
            game.push(Enter("P", cell, points=points))
        except IllegalMoveError:  # a zero refused by zero_only_upper
            continue
    return game


def engine_entries(game: Game, dice: Dice) -> set[tuple[str, int, int]]:
    return {(str(o.cell), o.points, o.kniffel_bonus) for o in game.entry_options("P", dice)}


def batch_entries(game: Game, r: int) -> set[tuple[str, int, int]]:
    sheets = SheetBatch.of_game(game, 0)
    entries = sheets.entries()
    found = set()
    for k in range(sheets.layout.size):
        if entries.legal[0, k, r]:
            column = game.columns[int(sheets.layout.column[k])].id
            row = sheets.rows[int(entries.row[0, k])]
            found.add(
                (
                    f"{column}.{row.value}",
                    int(entries.points[0, k, r]),
                    int(entries.kniffel_bonus[0, k, r]),
                )
            )
    return found


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_roll_has_the_engines_entries(variant: str, options: dict[str, Any]) -> None:
    rng = random.Random(f"{variant}{options}")
    kniffel_rolls = [r for r, dice in enumerate(ROLLS) if dice.is_kniffel]
    for _ in range(12):
        game = random_sheet(variant, options, rng)
        rolls = kniffel_rolls + rng.sample(range(len(ROLLS)), 20)
        for r in rolls:
            assert batch_entries(game, r) == engine_entries(game, ROLLS[r]), (game.log, ROLLS[r])


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_gain_is_what_the_total_gains(variant: str, options: dict[str, Any]) -> None:
    rng = random.Random(f"gain {variant}{options}")
    for _ in range(6):
        game = random_sheet(variant, options, rng)
        if game.is_finished:
            continue
        sheets = SheetBatch.of_game(game, 0)
        entries = sheets.entries()
        assert sheets.totals()[0] == game.total("P")
        for r in [*rng.sample(range(len(ROLLS)), 5), ROLLS.index(Dice.parse("66666"))]:
            for k in range(sheets.layout.size):
                if not entries.legal[0, k, r]:
                    continue
                column = game.columns[int(sheets.layout.column[k])].id
                row = sheets.rows[int(entries.row[0, k])]
                after = game.copy()
                after.push(Enter("P", after.cell(f"{column}.{row.value}"), dice=ROLLS[r]))
                assert entries.gain[0, k, r] == after.total("P") - game.total("P")


def test_due_rows_follow_the_arrows() -> None:
    game = Game(get_variant("rauf-runter"), ["P"])
    for name in ("down.ones", "up.chance", "down.twos", "up.kniffel"):
        game.push(
            Enter(
                "P",
                game.cell(name),
                points=0 if "kniffel" in name else 5 if "chance" in name else 2,
            )
        )
    due = SheetBatch.of_game(game, 0).due_rows()[0].tolist()
    assert due == [2, 10, -1]
