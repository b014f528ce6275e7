"""The exact chances of the upper bonus and of a Kniffel (docs/solver.md, "Exact chances"):
analytic cases, the table against its own turn, and against seeded games of the best bot."""

from __future__ import annotations

from math import comb
from pathlib import Path

import numpy as np
import pytest

from kniffel.rules import Dice, Discipline, Row, get_variant
from kniffel.solver.advice.notation import parse_sheet
from kniffel.solver.advice.position import evaluate
from kniffel.solver.advice.reasons import HALF_WIDTH, _exact_turn, reasons
from kniffel.solver.exact import cache
from kniffel.solver.exact.chance_table import chance_path, column_chances, load_chances
from kniffel.solver.exact.dice_tables import ROLL_INDEX
from kniffel.solver.exact.sheet_space import SheetState

OPTIONS = get_variant("kniffel").options
YAHTZEE = get_variant("yahtzee").options

#: The chance that a die shows a given face within three rolls when it is kept once it does.
P_FACE = 1 - (5 / 6) ** 3
#: The chance of a Kniffel in one turn, keeping the most frequent face (docs/solver.md).
P_KNIFFEL_TURN = 0.0460286


def at_least(k: int, n: int = 5, p: float = P_FACE) -> float:
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_one_row_left_ones_for_the_bonus() -> None:
    """↑ column, only the Einser left, 60 in the upper rows: the bonus needs three ones."""
    chances = column_chances(OPTIONS, Discipline.UP)
    space = chances.space
    bonus, kniffel = chances.at(SheetState(space.full_mask & ~1, 60, 0))
    assert bonus == pytest.approx(at_least(3), abs=1e-12)
    assert kniffel == 0.0  # the Kniffel row is filled already
    # With 63 in the upper rows already, the bonus is certain; with 57, no Einser can reach it.
    assert chances.at(SheetState(space.full_mask & ~1, 63, 0))[0] == pytest.approx(1.0, abs=1e-12)
    assert chances.at(SheetState(space.full_mask & ~1, 57, 0))[0] == pytest.approx(0.0, abs=1e-12)


def test_the_kniffel_turn_of_a_down_column() -> None:
    """↓ column with every row above the Kniffel filled: one turn to throw it."""
    chances = column_chances(YAHTZEE, Discipline.DOWN)
    space = chances.space
    before = (1 << space.kniffel_bit) - 1
    for upper in (0, 63):
        bonus, kniffel = chances.at(SheetState(before, upper, 0))
        assert kniffel == pytest.approx(P_KNIFFEL_TURN, abs=1e-7)
        assert bonus == pytest.approx(float(upper == 63), abs=1e-12)
    # An empty ↓ column reaches its Kniffel row exactly once, whatever happens before.
    assert chances.at(SheetState(0, 0, 0))[1] == pytest.approx(P_KNIFFEL_TURN, abs=1e-7)
    # Once the Kniffel row is filled there is no Kniffel still to come.
    assert chances.at(SheetState(before | 1 << space.kniffel_bit, 0, 1))[1] == 0.0


@pytest.mark.parametrize("discipline", [Discipline.DOWN, Discipline.UP])
def test_the_turn_agrees_with_the_table(discipline: Discipline) -> None:
    """Each state's turn, worked out as the Tipp does it, starts where the table says."""
    chances = column_chances(YAHTZEE, discipline)
    space = chances.space
    for filled in range(space.n_rows):
        states = space.states(filled)
        for i in range(0, len(states), max(1, len(states) // 7)):
            state = SheetState(*(int(a[i]) for a in states))
            turn = _exact_turn(chances, state)
            assert turn.start == pytest.approx(chances.at(state), abs=1e-9)


def test_the_table_is_kept_on_disk() -> None:
    built = column_chances(OPTIONS, Discipline.DOWN)
    loaded = load_chances(built.table)
    assert loaded is not None and loaded.cached
    np.testing.assert_array_equal(loaded.bonus, built.bonus)
    np.testing.assert_array_equal(loaded.kniffel, built.kniffel)


@pytest.fixture(scope="module")
def kniffel_chances() -> None:
    """The ``kniffel`` preset's chance table on disk (the board's builder makes it so)."""
    column_chances(OPTIONS, Discipline.FREE)


@pytest.mark.usefixtures("kniffel_chances")
@pytest.mark.parametrize(
    ("sheet", "dice", "rolls"),
    [
        (
            "ones=3,twos=6,threes=9,three_kind=20,four_kind=0,full_house=25,small_straight=30,"
            "large_straight=40",
            "66612",
            1,
        ),
        (
            "twos=6,threes=9,fours=12,fives=15,three_kind=20,four_kind=0,full_house=25,"
            "small_straight=30,chance=22",
            "11144",
            2,
        ),
    ],
)
def test_exact_chances_agree_with_games_of_the_best_bot(sheet: str, dice: str, rolls: int) -> None:
    """Now and after each of the best choices: the exact chances, and the shares of seeded
    games that the best bot plays on from there (within four standard errors)."""
    game = parse_sheet(get_variant("kniffel"), sheet)
    position = evaluate(game, Dice.parse(dice), rolls)
    actions = [c.action for c in position.choices[:3]]
    roll = ROLL_INDEX[position.dice]
    exact = reasons(game, roll, rolls, actions, exact=True)
    simulated = reasons(game, roll, rolls, actions, exact=False)
    assert exact.method == "exact" and simulated.method == "simulation"
    assert 0 < simulated.half_width <= HALF_WIDTH
    pairs = [(exact.now, simulated.now), *zip(exact.after, simulated.after, strict=True)]
    for want, got in pairs:
        for p, q in ((want.bonus["main"], got.bonus["main"]), (want.kniffel, got.kniffel)):
            assert p is not None and q is not None
            # Within twice the 95 % half-width (the simulation's own, at most ±2 points).
            assert q == pytest.approx(p, abs=2 * HALF_WIDTH)
    # The choices differ where it shows: the Kniffel chance is not the same for all of them.
    assert len({round(a.kniffel or 0, 6) for a in exact.after}) > 1


@pytest.mark.usefixtures("kniffel_chances")
def test_an_entry_into_the_kniffel_row_is_certain() -> None:
    game = parse_sheet(get_variant("kniffel"), "ones=3,twos=6")
    position = evaluate(game, Dice.parse("44444"), 3)
    enter = next(c.action for c in position.choices if "kniffel" in str(c.action))
    found = reasons(game, ROLL_INDEX[Dice.parse("44444")], 3, [enter], exact=True)
    assert found.after[0].kniffel == 1.0
    # After a crossed-out Kniffel there is none still to come.
    done = parse_sheet(get_variant("kniffel"), f"ones=3,{Row.KNIFFEL.value}=0")
    position = evaluate(done, Dice.parse("12345"), 3)
    found = reasons(
        done, ROLL_INDEX[Dice.parse("12345")], 3, [position.choices[0].action], exact=True
    )
    assert found.now.kniffel is None and found.after[0].kniffel is None


def test_the_chance_files_count_in_the_cache_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chance table is a file of the cache like the value tables: bounded together."""
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    built = column_chances(OPTIONS, Discipline.DOWN)
    path = chance_path(built.space)
    assert path.exists() and path.name.startswith("chances-column-")
    removed = cache.evict(0)
    assert path in removed and not path.exists()
    assert load_chances(built.table) is None
