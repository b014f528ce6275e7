"""Jamb and Yams (docs/rules.md, "Jamb" and "Yams"): rows, sums, the column kinds, announcing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from kniffel.record import loads, record_of, replay, state_dict
from kniffel.rules import (
    JAMB_ROWS,
    PRESETS,
    Announce,
    Cell,
    Dice,
    Discipline,
    Enter,
    Game,
    KniffelError,
    Roll,
    RollAction,
    Row,
    Undo,
    get_variant,
)
from strategies import FAMILY_PRESETS, finished_games, games, variants

FAMILY_GAMES = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def jamb(options: dict[str, Any] | None = None, players: tuple[str, ...] = ("Anna",)) -> Game:
    return Game(get_variant("jamb", options), list(players))


def refusal(game: Game, event: Any) -> str:
    with pytest.raises(KniffelError) as refused:
        game.push(event)
    return refused.value.code


def rolled(game: Game, *rolls: tuple[list[int], list[int]]) -> None:
    """Roll for Anna: each (dice, keep)."""
    for faces, keep in rolls:
        game.push(Roll("Anna", Dice.of(faces), tuple(sorted(keep))))


# ------------------------------------------------------------------ the presets


def test_the_presets_name_the_contract_columns_and_rows() -> None:
    assert [c.id for c in PRESETS["jamb"].columns] == ["down", "free", "up", "announce"]
    assert [c.id for c in get_variant("jamb", {"hand": True, "middle": True}).columns] == [
        *("down", "free", "up", "announce", "hand", "middle")
    ]
    assert [c.id for c in PRESETS["yams"].columns] == ["down", "up", "free"]
    assert [c.id for c in get_variant("yams", {"hand": True, "announce": True}).columns] == [
        *("down", "up", "free", "hand", "announce")
    ]
    assert [r.value for r in jamb().rows] == [
        *("ones", "twos", "threes", "fours", "fives", "sixes", "max", "min"),
        *("trips", "straight", "full_house", "poker", "jamb"),
    ]
    yams = Game(get_variant("yams"), ["Anna"])
    assert yams.rows[-1] is Row.CHANCE and yams.rows[6] is Row.THREE_KIND
    assert jamb().cells_per_player == 52


def test_the_kniffel_presets_write_the_same_five_options_as_before() -> None:
    for name in ("kniffel", "yahtzee", "rauf-runter", "dreifach"):
        assert list(PRESETS[name].options.as_dict()) == [
            *("chance", "pasch", "kniffel_bonus", "joker", "zero_only_upper")
        ]


def test_jamb_offers_its_own_house_rules_and_refuses_the_others() -> None:
    assert PRESETS["jamb"].options.as_dict() == {
        "trips_bonus": 10,
        "straight_fixed": False,
        "sum2_bonus": False,
        "sum2_bonus_points": 30,
        "sum2_negative": False,
        "full_five": False,
        "hand": False,
        "middle": False,
    }
    with pytest.raises(KniffelError) as refused:
        get_variant("jamb", {"chance": False})
    assert refused.value.code == "unknown_option"
    with pytest.raises(KniffelError) as refused:
        get_variant("kniffel", {"hand": True})
    assert refused.value.code == "unknown_option"
    with pytest.raises(KniffelError) as refused:
        get_variant("jamb", {"trips_bonus": 15})
    assert refused.value.code == "invalid_option"
    variant = get_variant("jamb", {"hand": True, "trips_bonus": 20})
    assert get_variant("jamb", variant.options.as_dict()) == variant


def test_yams_has_the_french_defaults() -> None:
    game = Game(get_variant("yams"), ["Anna"])
    # Brelan counts the matching dice only; Full 25, Petite 30, Grande 40, Yams 50
    game.push(Enter("Anna", game.cell("free.three_kind"), dice=Dice.of([5, 5, 5, 6, 6])))
    assert game.points("Anna", game.cell("free.three_kind")) == 15
    scores = {o.cell.row: o.points for o in game.entry_options("Anna", Dice.of([2, 2, 2, 3, 3]))}
    assert scores[Row.FULL_HOUSE] == 25
    assert game.options.kniffel_bonus == 0


# --------------------------------------------------------------------- the rows


@pytest.mark.parametrize(
    ("row", "faces", "points"),
    [
        ("max", [6, 6, 5, 5, 4], 26),
        ("min", [1, 1, 2, 2, 3], 9),
        ("trips", [4, 4, 4, 1, 2], 22),
        ("trips", [4, 4, 4, 4, 2], 22),
        ("trips", [4, 4, 1, 2, 3], 0),
        ("full_house", [6, 6, 6, 5, 5], 58),
        ("full_house", [6, 6, 6, 6, 6], 0),
        ("poker", [3, 3, 3, 3, 1], 52),
        ("poker", [3, 3, 3, 1, 1], 0),
        ("jamb", [2, 2, 2, 2, 2], 60),
        ("jamb", [6, 6, 6, 6, 6], 80),
        ("sixes", [6, 6, 1, 2, 6], 18),
    ],
)
def test_jamb_rows_score_as_docs_rules_says(row: str, faces: list[int], points: int) -> None:
    game = jamb()
    game.push(Enter("Anna", game.cell(f"free.{row}"), dice=Dice.of(faces), roll=3))
    assert game.points("Anna", game.cell(f"free.{row}")) == points


@pytest.mark.parametrize(("rolls", "points"), [(1, 66), (2, 56), (3, 46)])
def test_kenta_scores_by_the_roll_that_made_it(rolls: int, points: int) -> None:
    game = jamb()
    rolled(game, ([1, 2, 3, 4, 5], []), *[([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])] * (rolls - 1))
    game.push(Enter("Anna", game.cell("free.straight")))
    assert game.points("Anna", game.cell("free.straight")) == points
    typed = jamb()
    typed.push(
        Enter("Anna", typed.cell("free.straight"), dice=Dice.of([6, 5, 4, 3, 2]), roll=rolls)
    )
    assert typed.points("Anna", typed.cell("free.straight")) == points


def test_kenta_with_typed_dice_needs_the_roll_and_points_must_fit_it() -> None:
    game = jamb()
    assert refusal(
        game, Enter("Anna", game.cell("free.straight"), dice=Dice.of([2, 3, 4, 5, 6]))
    ) == ("roll_needed")
    assert refusal(game, Enter("Anna", game.cell("free.straight"), points=66, roll=2)) == (
        "impossible_points"
    )
    # no straight: the roll does not matter
    game.push(Enter("Anna", game.cell("free.straight"), dice=Dice.of([2, 2, 4, 5, 6])))
    assert game.points("Anna", game.cell("free.straight")) == 0


def test_the_house_rules_triling_20_and_fixed_kenta() -> None:
    game = jamb({"trips_bonus": 20, "straight_fixed": True})
    game.push(Enter("Anna", game.cell("free.trips"), dice=Dice.of([5, 5, 5, 1, 2])))
    game.push(Enter("Anna", game.cell("free.straight"), dice=Dice.of([1, 2, 3, 4, 5])))
    game.push(Enter("Anna", game.cell("up.jamb"), points=0))
    game.push(Enter("Anna", game.cell("up.poker"), points=0))
    rolled(game, ([2, 3, 4, 5, 6], []), ([2, 3, 4, 5, 6], [2, 3, 4, 5, 6]))
    game.push(Enter("Anna", game.cell("down.ones")))
    assert game.points("Anna", game.cell("free.trips")) == 35
    assert game.points("Anna", game.cell("free.straight")) == 35
    other = jamb({"straight_fixed": True})
    rolled(other, ([2, 3, 4, 5, 6], []), ([2, 3, 4, 5, 6], [2, 3, 4, 5, 6]))
    other.push(Enter("Anna", other.cell("free.straight")))
    assert other.points("Anna", other.cell("free.straight")) == 45


# --------------------------------------------------------------------- the sums


def fill(game: Game, column: str, points: dict[str, int]) -> None:
    for row, value in points.items():
        game.push(Enter("Anna", game.cell(f"{column}.{row}"), points=value))


def test_sum1_has_30_from_60() -> None:
    game = jamb()
    fill(game, "free", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 12})
    assert game.column_totals("Anna", "free").sum1 == 57
    game.push(Enter("Anna", game.cell("down.ones"), points=0))
    game.push(Undo())
    game.push(Undo())
    fill(game, "free", {"sixes": 18})
    assert game.column_totals("Anna", "free").sum1 == 63 + 30


def test_sum2_is_max_minus_min_times_the_ones_once_all_three_are_filled() -> None:
    game = jamb()
    fill(game, "free", {"max": 28, "min": 8})
    assert game.column_totals("Anna", "free").sum2 == 0  # the ones are still empty
    fill(game, "free", {"ones": 3})
    totals = game.column_totals("Anna", "free")
    assert totals.sum2 == 60 and totals.total == 3 + 60
    clamped = jamb()
    fill(clamped, "free", {"max": 8, "min": 28, "ones": 4})
    assert clamped.column_totals("Anna", "free").sum2 == 0


def test_sum2_bonus_is_a_house_rule_off_by_default() -> None:
    game = jamb({"sum2_bonus": True})
    fill(game, "free", {"max": 28, "min": 8, "ones": 3})
    assert game.column_totals("Anna", "free").sum2 == 90
    fill(game, "free", {"twos": 0})
    low = jamb({"sum2_bonus": True})
    fill(low, "free", {"max": 27, "min": 8, "ones": 3})
    assert low.column_totals("Anna", "free").sum2 == 57


def test_the_sum2_bonus_may_be_40_and_counts_only_with_the_bonus() -> None:
    game = jamb({"sum2_bonus": True, "sum2_bonus_points": 40})
    fill(game, "free", {"max": 28, "min": 8, "ones": 3})
    assert game.column_totals("Anna", "free").sum2 == 100
    without = jamb({"sum2_bonus_points": 40})
    fill(without, "free", {"max": 28, "min": 8, "ones": 3})
    assert without.column_totals("Anna", "free").sum2 == 60
    with pytest.raises(KniffelError) as refused:
        jamb({"sum2_bonus_points": 50})
    assert refused.value.code == "invalid_option"


def test_sum2_below_0_is_a_house_rule() -> None:
    game = jamb({"sum2_negative": True, "sum2_bonus": True})
    fill(game, "free", {"max": 8, "min": 28, "ones": 4})
    totals = game.column_totals("Anna", "free")
    assert totals.sum2 == -80 and totals.total == 4 - 80 == game.total("Anna")


def test_five_of_a_kind_in_ful_is_a_house_rule() -> None:
    five = Dice.of([5, 5, 5, 5, 5])
    game = jamb({"full_five": True})
    game.push(Enter("Anna", game.cell("free.full_house"), dice=five, roll=2))
    assert game.points("Anna", game.cell("free.full_house")) == 25 + 30
    plain = jamb()
    plain.push(Enter("Anna", plain.cell("free.full_house"), dice=five, roll=2))
    assert plain.points("Anna", plain.cell("free.full_house")) == 0
    # five sixes' 60 is a Ful's points only under the rule
    sixes = jamb({"full_five": True})
    sixes.push(Enter("Anna", sixes.cell("free.full_house"), points=60, roll=1))
    assert sixes.points("Anna", sixes.cell("free.full_house")) == 60
    refused = refusal(jamb(), Enter("Anna", plain.cell("free.full_house"), points=60, roll=1))
    assert refused == "impossible_points"


def test_replay_json_names_the_three_sums_of_each_jamb_column() -> None:
    game = jamb()
    fill(game, "free", {"max": 28, "min": 8, "ones": 3, "trips": 28})
    column = state_dict(game)["players"][0]["columns"]["free"]
    assert (column["sum1"], column["sum2"], column["sum3"], column["total"]) == (3, 60, 28, 91)
    assert "upper" not in column
    assert (
        "sum1" not in state_dict(Game(get_variant("yams"), ["A"]))["players"][0]["columns"]["free"]
    )


# ------------------------------------------------------------- the column kinds


def test_announce_after_the_first_roll_then_the_entry_goes_there() -> None:
    game = jamb(players=("Anna", "Ben"))
    rolled(game, ([6, 6, 6, 2, 1], []))
    game.push(Announce("Anna", game.cell("announce.jamb")))
    assert game.allowed_cells("Anna") == [game.cell("announce.jamb")]
    assert state_dict(game)["turn"]["announced"] == "announce.jamb"
    rolled(game, ([6, 6, 6, 6, 1], [6, 6, 6]), ([6, 6, 6, 6, 3], [6, 6, 6, 6]))
    assert refusal(game, Enter("Anna", game.cell("free.poker"))) == "announced_elsewhere"
    game.push(Enter("Anna", game.cell("announce.jamb")))
    assert game.points("Anna", game.cell("announce.jamb")) == 0  # missed
    assert game.current_name == "Ben" and game.announced("Anna") is None
    game.push(Undo())
    assert game.announced("Anna") == game.cell("announce.jamb")
    game.push(Undo())
    game.push(Undo())
    game.push(Undo())
    assert game.announced("Anna") is None


def test_announce_refusals() -> None:
    game = jamb()
    rolled(game, ([1, 2, 3, 4, 6], []))
    assert refusal(game, Announce("Anna", game.cell("free.ones"))) == "announce_column"
    game.push(Announce("Anna", game.cell("announce.straight")))
    assert refusal(game, Announce("Anna", game.cell("announce.ones"))) == "announce_twice"
    game.push(Undo())
    rolled(game, ([1, 2, 3, 4, 5], [1, 2, 3, 4]))
    assert refusal(game, Announce("Anna", game.cell("announce.straight"))) == "announce_late"
    assert game.announce_options() == []


def test_the_announce_column_unannounced_takes_only_a_first_roll() -> None:
    game = jamb(players=("Anna", "Ben"))
    rolled(game, ([1, 2, 3, 4, 5], []))
    assert {o.cell.column for o in game.entry_options()} >= {"announce", "free"}
    rolled(game, ([1, 2, 3, 4, 6], [1, 2, 3, 4]))
    assert "announce" not in {o.cell.column for o in game.entry_options()}
    assert refusal(game, Enter("Anna", game.cell("announce.ones"))) == "announce_first"
    typed = jamb()
    assert refusal(typed, Enter("Anna", typed.cell("announce.ones"), points=2)) == "roll_needed"
    typed.push(Enter("Anna", typed.cell("announce.ones"), points=2, roll=1))


def test_hand_takes_only_a_first_roll() -> None:
    game = jamb({"hand": True})
    rolled(game, ([1, 1, 2, 3, 4], []), ([1, 1, 1, 3, 4], [1, 1]))
    assert refusal(game, Enter("Anna", game.cell("hand.ones"))) == "first_roll_only"
    typed = jamb({"hand": True})
    assert refusal(
        typed, Enter("Anna", typed.cell("hand.ones"), dice=Dice.of([1] * 5), roll=3)
    ) == ("first_roll_only")
    typed.push(Enter("Anna", typed.cell("hand.jamb"), dice=Dice.of([1] * 5), roll=1))
    assert typed.points("Anna", typed.cell("hand.jamb")) == 55


def test_a_later_roll_is_refused_when_only_first_roll_cells_are_open() -> None:
    game = jamb()
    for column, rows in (("down", JAMB_ROWS), ("free", JAMB_ROWS), ("up", JAMB_ROWS[::-1])):
        fill(game, column, {r.value: 5 if r in (Row.MAX, Row.MIN) else 0 for r in rows})
    rolled(game, ([1, 1, 2, 3, 4], []))
    assert refusal(game, Roll("Anna", Dice.of([1, 1, 1, 1, 1]), (1, 1))) == "first_roll_cells_only"
    # The state machine offers no roll the engine would refuse (the bots choose from it).
    assert not [a for a in game.legal_actions() if isinstance(a, RollAction)]
    game.push(Announce("Anna", game.cell("announce.ones")))
    assert [a for a in game.legal_actions() if isinstance(a, RollAction)]
    rolled(game, ([1, 1, 1, 1, 5], [1, 1]))  # announced: the turn goes on


def test_middle_goes_from_max_up_and_from_min_down() -> None:
    game = jamb({"middle": True})
    assert [c for c in game.allowed_cells("Anna") if c.column == "middle"] == [
        game.cell("middle.max"),
        game.cell("middle.min"),
    ]
    assert refusal(game, Enter("Anna", game.cell("middle.ones"), points=3)) == "middle_order"
    fill(game, "middle", {"max": 25, "min": 9, "sixes": 12})
    assert [c.row.value for c in game.allowed_cells("Anna") if c.column == "middle"] == [
        "fives",
        "trips",
    ]
    assert game.variant.column("middle").discipline is Discipline.MIDDLE


def test_an_entry_roll_must_agree_with_the_rolled_dice() -> None:
    game = jamb()
    rolled(game, ([1, 1, 2, 3, 4], []))
    assert refusal(game, Enter("Anna", game.cell("free.ones"), roll=2)) == "roll_mismatch"
    assert refusal(game, Enter("Anna", game.cell("free.ones"), dice=None, roll=0)) == "roll_number"
    game.push(Enter("Anna", game.cell("free.ones"), roll=1))


# ------------------------------------------------------------------ properties


def reckoned_total(game: Game, seat: int) -> int:
    """The player's total reckoned from the cells alone, as a player adds up the paper sheet."""
    total = 0
    for spec in game.columns:
        cells = dict(zip(game.rows, game.column_points(seat, spec.id), strict=True))
        if game.variant.name == "jamb":
            upper = sum(cells[r] or 0 for r in JAMB_ROWS[:6])
            s1 = upper + (30 if upper >= 60 else 0)
            s2 = 0
            if None not in (cells[Row.MAX], cells[Row.MIN], cells[Row.ONES]):
                s2 = (cells[Row.MAX] - cells[Row.MIN]) * cells[Row.ONES]  # type: ignore[operator]
                s2 = s2 if game.options.sum2_negative else max(0, s2)
                bonus = game.options.sum2_bonus_points
                s2 += bonus if game.options.sum2_bonus and s2 >= 60 else 0
            s3 = sum(cells[r] or 0 for r in JAMB_ROWS[8:])
            total += s1 + s2 + s3
        else:
            upper = sum(v or 0 for r, v in cells.items() if r.is_upper)
            lower = sum(v or 0 for r, v in cells.items() if not r.is_upper)
            # a further Yams' bonus (kniffel_bonus) as the engine counts it: its rules are §5's,
            # checked in tests/rules/test_extra_kniffel.py
            extra = game.column_totals(seat, spec.id).kniffel_bonus
            total += upper + (35 if upper >= 63 else 0) + lower + extra
    return total


@FAMILY_GAMES
@given(finished_games(variants(FAMILY_PRESETS), corrections=0.1))
def test_a_family_game_ends_full_and_its_totals_are_the_reckoning(game: Game) -> None:
    assert game.is_finished
    for seat in range(len(game.players)):
        assert all(
            v is not None for spec in game.columns for v in game.column_points(seat, spec.id)
        )
        assert game.total(seat) == reckoned_total(game, seat)


@FAMILY_GAMES
@given(games(variants(FAMILY_PRESETS)))
def test_a_family_record_replays_to_the_same_state(game: Game) -> None:
    import json

    twin = replay(loads(json.dumps(record_of(game))))
    assert state_dict(twin) == state_dict(game)
    assert [twin.announced(p) for p in game.players] == [game.announced(p) for p in game.players]
    for seat in range(len(game.players)):
        assert game.total(seat) == reckoned_total(game, seat)


@FAMILY_GAMES
@given(games(variants(FAMILY_PRESETS)))
def test_only_the_announced_cell_is_allowed_after_an_announcement(game: Game) -> None:
    name = game.current_name
    if name is None:
        return
    announced = game.announced(name)
    if announced is not None:
        assert game.allowed_cells(name) == [announced]
        assert all(o.cell == announced for o in game.entry_options(name))
    for option in game.announce_options(name):
        spec = game.variant.column(option.cell.column)
        assert spec.discipline is Discipline.ANNOUNCE
        assert game.points(name, option.cell) is None
        assert game.pending(name) is not None and game.pending(name)[1] == 1  # type: ignore[index]


def test_a_cell_of_a_jamb_sheet_reads_its_row() -> None:
    assert jamb().cell("announce.straight") == Cell("announce", Row.STRAIGHT)
