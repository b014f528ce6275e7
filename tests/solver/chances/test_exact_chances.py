"""Exact win chances at the end of one-column games, against an independent brute force.

The brute force knows nothing of the solver: it enumerates the dice (every multiset of
five, every keep and every reroll with its multinomial chance), plays each turn for the
most expected points (the best bot's policy in one column) with the scores of the rules
kernel, carries the chances of the final rolls through the keeps it chose, and joins the
players' distributions by a double sum (a tie counts half). Issue 20's own positions are
golden: only Chance left for each, Anna 3 ahead wins with probability 0.7500, 5 behind 0.132.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.rules import (
    UPPER_BONUS_THRESHOLD,
    Dice,
    Enter,
    Game,
    get_variant,
    rows_for,
)
from kniffel.solver.chances.forecast import forecast

pytestmark = pytest.mark.usefixtures("preset_tables")

Counts = tuple[int, ...]  # how many dice show 1..6


def _multisets(size: int) -> Iterator[Counts]:
    for faces in itertools.combinations_with_replacement(range(6), size):
        yield tuple(faces.count(f) for f in range(6))


def _chance(counts: Counts) -> float:
    n = sum(counts)
    return math.factorial(n) / math.prod(math.factorial(c) for c in counts) / 6**n


ROLLS = list(_multisets(5))
KEEPS = [keep for size in range(6) for keep in _multisets(size)]


@cache
def _keeps(roll: Counts) -> list[Counts]:
    return sorted(set(itertools.product(*(range(c + 1) for c in roll))))


@cache
def _outcomes(keep: Counts) -> list[tuple[Counts, float]]:
    """The five dice after rerolling all but ``keep``, with their chances."""
    rolled = 5 - sum(keep)
    return [
        (tuple(k + o for k, o in zip(keep, more, strict=True)), _chance(more))
        for more in _multisets(rolled)
    ]


def _dice(counts: Counts) -> Dice:
    return Dice.of([f + 1 for f in range(6) for _ in range(counts[f])])


# The brute force plays a one-player copy of a sheet: the rules kernel scores every entry
# (jokers and bonuses included) and the total's growth is what the entry gains.
# A sheet is kept under what decides its future: the open rows, the upper sum (capped) and
# whether the Kniffel row holds 50 (and the variant, whose rules score it); one game with that
# sheet stands for all.
Sheet = tuple[str, tuple[bool, ...], int, bool]
_GAMES: dict[Sheet, Game] = {}


def _signature(game: Game) -> Sheet:
    points = [game.points(0, game.cell(row.value)) for row in game.rows]
    upper = sum(p or 0 for p, row in zip(points, game.rows, strict=True) if row.is_upper)
    return (
        game.variant.name,
        tuple(p is None for p in points),
        min(upper, UPPER_BONUS_THRESHOLD),
        game.points(0, game.cell("kniffel")) == 50,
    )


def _solo(game: Game, player: int) -> Sheet:
    """A one-player game holding ``player``'s sheet, kept under its signature."""
    solo = Game(game.variant, ["Solo"])
    for row in game.rows:
        points = game.points(player, game.cell(row.value))
        if points is not None:
            solo.push(Enter("Solo", solo.cell(row.value), points=points))
    _GAMES[_signature(solo)] = solo
    return _signature(solo)


def _entries(sheet: Sheet, roll: Counts) -> list[tuple[int, Sheet]]:
    """Each entry the rules allow for ``roll``: what it gains and the sheet after it."""
    game = _GAMES[sheet]
    found = []
    for option in game.entry_options(0, _dice(roll)):
        after = game.copy()
        after.push(Enter("Solo", option.cell, dice=_dice(roll)))  # the dice: jokers, bonuses
        _GAMES.setdefault(_signature(after), after)
        found.append((after.total(0) - game.total(0), _signature(after)))
    return found


@cache
def _turn(sheet: Sheet) -> tuple[float, tuple[tuple[int, float], ...]]:
    """The expected points still to come under the best play, and their distribution."""
    if not any(sheet[1]):
        return 0.0, ((0, 1.0),)
    options = {roll: _entries(sheet, roll) for roll in ROLLS}

    def worth(roll: Counts) -> tuple[float, int, Sheet]:
        return max(
            ((gain + _turn(after)[0], gain, after) for gain, after in options[roll]),
            key=lambda t: round(t[0], 9),
        )

    last = {roll: worth(roll)[0] for roll in ROLLS}

    def stage(after: dict[Counts, float]) -> tuple[dict[Counts, float], dict[Counts, Counts]]:
        expected = {k: sum(p * after[o] for o, p in _outcomes(k)) for k in KEEPS}
        values, chosen = {}, {}
        for roll in ROLLS:
            best = max(_keeps(roll), key=lambda k: round(expected[k], 9))
            values[roll] = expected[best]
            chosen[roll] = best
        return values, chosen

    two, keep_two = stage(last)  # the keep after the second roll
    one, keep_one = stage(two)  # the keep after the first roll
    mass = {roll: _chance(roll) for roll in ROLLS}
    for keep in (keep_one, keep_two):
        moved: dict[Counts, float] = dict.fromkeys(ROLLS, 0.0)
        for roll, m in mass.items():
            for o, p in _outcomes(keep[roll]):
                moved[o] += m * p
        mass = moved
    dist: dict[int, float] = {}
    for roll, m in mass.items():
        _, gain, after = worth(roll)
        for more, p in _turn(after)[1]:
            dist[gain + more] = dist.get(gain + more, 0.0) + m * p
    value = sum(_chance(r) * one[r] for r in ROLLS)
    return value, tuple(sorted(dist.items()))


def _brute_win(a: Sheet, lead: int, b: Sheet) -> float:
    """Anna's chance to finish first (a tie counting half), ``lead`` points ahead of Ben."""
    chance = 0.0
    for x, p in _turn(a)[1]:
        for y, q in _turn(b)[1]:
            chance += p * q * (1.0 if x + lead > y else 0.5 if x + lead == y else 0.0)
    return chance


# --------------------------------------------------------------------- the game


def _game(
    anna_open: set[str],
    ben_open: set[str],
    lead: int,
    three_of_each: bool,
    variant: str = "kniffel",
    fifty: bool = False,
) -> Game:
    """Anna and Ben with these rows open; every other row 0 except Chance (20), the
    Dreierpasch (Anna's ``lead`` above Ben's), with ``three_of_each`` Einser to Fünfer
    (three of each: 45, so the bonus needs three sixes) and with ``fifty`` a Kniffel (50)."""
    game = Game(get_variant(variant), ["Anna", "Ben"])
    upper = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}
    rows = [r.value for r in game.rows]
    filled = [[r for r in rows if r not in still] for still in (anna_open, ben_open)]
    for anna_row, ben_row in zip(*filled, strict=True):  # the players take turns
        for name, row in (("Anna", anna_row), ("Ben", ben_row)):
            points = upper.get(row, 0) if three_of_each else 0
            if row == "three_kind":
                points = 10 + max(lead, 0) if name == "Anna" else 10 + max(-lead, 0)
            if row == "chance":
                points = 20
            if row == "kniffel" and fifty:
                points = 50
            game.push(Enter(name, game.cell(row), points=points))
    return game


def _sheet(game: Game, player: int) -> Sheet:
    return _solo(game, player)


class Case(NamedTuple):
    anna_open: set[str]
    ben_open: set[str]
    lead: int
    three_of_each: bool
    variant: str = "kniffel"
    fifty: bool = False


CASES = {
    "chance only, 3 ahead": Case({"chance"}, {"chance"}, 3, False),
    "chance only, 5 behind": Case({"chance"}, {"chance"}, -5, False),
    "kniffel only against chance only": Case({"kniffel"}, {"chance"}, 20, False),
    "the bonus in reach": Case({"sixes"}, {"chance"}, 20, True),
    "two cells each": Case({"sixes", "chance"}, {"kniffel", "chance"}, 10, True),
    "two lower cells each": Case({"full_house", "chance"}, {"small_straight", "kniffel"}, 0, False),
    # Yahtzee: a second Yahtzee scores its 100 bonus and, by the forced joker, fills the
    # open upper row of its face or else a lower row at full points.
    "yahtzee, a joker and its bonus": Case(
        {"full_house", "fours"}, {"chance", "large_straight"}, 0, False, "yahtzee", True
    ),
    "yahtzee, the bonus in reach": Case(
        {"sixes", "chance"}, {"kniffel", "chance"}, 5, True, "yahtzee", True
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_exact_chances_match_the_brute_force(case: str) -> None:
    game = _game(*CASES[case])
    found = forecast(game)
    assert found.method == "exact"
    assert found.samples == 0
    anna, ben = found.players
    lead_now = game.total(0) - game.total(1)
    expected = _brute_win(_sheet(game, 0), lead_now, _sheet(game, 1))
    assert anna.win == pytest.approx(expected, abs=1e-6)
    assert anna.win + ben.win == pytest.approx(1.0, abs=1e-9)
    assert (anna.low, anna.high) == (anna.win, anna.win)  # exact: no interval
    mean = sum(x * p for x, p in _turn(_sheet(game, 0))[1])
    assert anna.expected_total == pytest.approx(game.total(0) + mean, abs=0.051)


def test_the_brute_force_knows_the_chance_row() -> None:
    """Chance alone, best play: 23.33 expected (keep 5s and 6s, then 4s to 6s)."""
    game = _game({"chance"}, {"chance"}, 0, False)
    value, dist = _turn(_sheet(game, 0))
    assert value == pytest.approx(23.3335, abs=1e-3)
    assert sum(p for _, p in dist) == pytest.approx(1.0)


def _record(tmp_path: Path, lead: int) -> Path:
    """Kniffel, Anna and Ben, every row 0 but the Dreierpasch (Anna ``lead`` ahead), Chance last."""
    events = []
    rows = [r.value for r in rows_for(get_variant("kniffel").options)]
    for row in rows:
        for name in ("Anna", "Ben"):
            points = 0
            if row == "three_kind":
                points = 12 + max(lead, 0) if name == "Anna" else 12 + max(-lead, 0)
            if row == "chance":
                points = 20
            events.append({"type": "enter", "player": name, "cell": row, "points": points})
    record = {"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna", "Ben"]}
    path = tmp_path / f"lead{lead}.json"
    path.write_text(json.dumps({**record, "events": events}), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lead", "anna"), [(3, 0.7500), (-5, 0.132)])
def test_issue_20_only_chance_left(tmp_path: Path, lead: int, anna: float) -> None:
    """Only Chance left for each (after Ben's 12th entry, event 24): Anna 3 ahead wins with
    0.7500 (the old series said 0.5625), 5 behind with 0.132 (it said 0.397)."""
    result = CliRunner().invoke(cli, ["chances", "--json", str(_record(tmp_path, lead))])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    turn = body["turns"][23]
    assert turn["event"] == 24 and turn["player"] == "Ben"
    assert turn["method"] == "exact" and turn["samples"] == 0
    digits = 4 if lead == 3 else 3
    assert round(turn["chances"]["Anna"], digits) == anna
    assert turn["intervals"]["Anna"] == [turn["chances"]["Anna"]] * 2
