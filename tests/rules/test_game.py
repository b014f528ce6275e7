"""The game state: due and allowed cells, turn order, pending dice, undo, totals and the end."""

from __future__ import annotations

import pytest

from kniffel.rules import ROWS as KNIFFEL_ROWS
from kniffel.rules import (
    Cell,
    Clear,
    Dice,
    Edit,
    Enter,
    EnterAction,
    Game,
    IllegalMoveError,
    KniffelError,
    NotYourTurnError,
    Roll,
    RollAction,
    Row,
    Undo,
    UnknownCellError,
    UnknownPlayerError,
    get_variant,
)

from .moves import enter, fill, new_game, refused, snapshot

DOWN_ORDER = [r.value for r in KNIFFEL_ROWS]


def names(cells: list[Cell]) -> list[str]:
    return [str(c) for c in cells]


def roll(game: Game, dice: str, keep: str = "", player: str | None = None) -> None:
    name = player or game.current_name
    assert name is not None
    game.push(Roll(name, Dice.parse(dice), tuple(int(f) for f in keep)))


# ------------------------------------------------------------------ cell names


def test_a_one_column_variant_accepts_the_bare_row_id() -> None:
    game = new_game("kniffel")
    assert game.cell("chance") == game.cell("main.chance") == Cell("main", Row.CHANCE)
    assert str(game.cell("chance")) == "main.chance"


@pytest.mark.parametrize(
    ("variant", "name", "words"),
    [
        ("rauf-runter", "ones", ["unknown cell 'ones'", "COLUMN.ROW", "down, up, free"]),
        ("rauf-runter", "side.ones", ["unknown column 'side'", "down, up, free"]),
        ("rauf-runter", "down.eights", ["unknown row 'eights'", "ones, twos"]),
        ("kniffel", "main.", ["unknown row ''"]),
        ("kniffel", "x1.ones", ["unknown column 'x1'", "main"]),
        ("dreifach", "x4.ones", ["unknown column 'x4'", "x1, x2, x3"]),
    ],
)
def test_unknown_cells_are_named(variant: str, name: str, words: list[str]) -> None:
    with pytest.raises(UnknownCellError) as excinfo:
        new_game(variant).cell(name)
    for word in words:
        assert word in str(excinfo.value)


def test_chance_is_no_cell_without_the_chance_option() -> None:
    game = new_game("kniffel", chance=False)
    with pytest.raises(UnknownCellError, match="unknown row 'chance'"):
        game.cell("chance")
    refused(game, Enter("Anna", Cell("main", Row.CHANCE), points=20), UnknownCellError)


# ----------------------------------------------------------- due and allowed


def test_a_new_rauf_runter_sheet_allows_the_two_due_cells_and_the_free_column() -> None:
    game = new_game("rauf-runter")
    assert game.due_row("Anna", "down") is Row.ONES
    assert game.due_row("Anna", "up") is Row.CHANCE
    assert game.due_row("Anna", "free") is None
    assert names(game.allowed_cells()) == [
        "down.ones",
        "up.chance",
        *(f"free.{row}" for row in DOWN_ORDER),
    ]


def test_due_cells_move_on_after_fills() -> None:
    game = new_game("rauf-runter")
    fill(game, "down.ones", "down.twos", "up.chance", "up.kniffel")
    assert game.due_row("Anna", "down") is Row.THREES
    assert game.due_row("Anna", "up") is Row.LARGE_STRAIGHT
    assert names(game.allowed_cells())[:2] == ["down.threes", "up.large_straight"]


def test_only_the_due_cell_of_an_arrow_column_may_be_filled() -> None:
    game = new_game("rauf-runter")
    fill(game, "down.ones")
    message = refused(game, Enter("Anna", game.cell("down.threes"), points=3), IllegalMoveError)
    assert message == "down.threes is not due; the due cell of down is twos"
    message = refused(game, Enter("Anna", game.cell("up.ones"), points=1), IllegalMoveError)
    assert message == "up.ones is not due; the due cell of up is chance"
    message = refused(game, Enter("Anna", game.cell("down.ones"), points=1), IllegalMoveError)
    assert message == "down.ones is already filled"


def test_a_cleared_cell_before_the_due_cell_becomes_due_again() -> None:
    game = new_game("rauf-runter")
    fill(game, "down.ones", "down.twos", "down.threes", "up.chance", "up.kniffel")
    game.push(Clear("Anna", game.cell("down.twos")))
    assert game.due_row("Anna", "down") is Row.TWOS
    refused(game, Enter("Anna", game.cell("down.fours"), points=4), IllegalMoveError)
    fill(game, "down.twos")
    assert game.due_row("Anna", "down") is Row.FOURS
    game.push(Clear("Anna", game.cell("up.chance")))
    assert game.due_row("Anna", "up") is Row.CHANCE
    assert "up.large_straight" not in names(game.allowed_cells())


def test_clearing_the_last_filled_cell_of_an_arrow_column_makes_it_due() -> None:
    game = new_game("rauf-runter")
    fill(game, "down.ones", "down.twos")
    game.push(Clear("Anna", game.cell("down.twos")))
    assert game.due_row("Anna", "down") is Row.TWOS


def test_a_full_arrow_column_has_no_due_cell() -> None:
    game = new_game("rauf-runter")
    fill(game, *(f"up.{row}" for row in reversed(DOWN_ORDER)))
    assert game.due_row("Anna", "up") is None
    assert not any(c.column == "up" for c in game.allowed_cells())


def test_every_empty_cell_of_a_free_column_is_allowed() -> None:
    game = new_game("dreifach")
    assert len(game.allowed_cells()) == 39
    fill(game, "x2.kniffel", "x1.ones")
    allowed = names(game.allowed_cells())
    assert len(allowed) == 37
    assert "x2.kniffel" not in allowed and "x1.ones" not in allowed
    game.push(Clear("Anna", game.cell("x2.kniffel")))
    assert "x2.kniffel" in names(game.allowed_cells())


def test_allowed_cells_of_a_player_who_is_not_to_move() -> None:
    game = new_game("rauf-runter", ("Anna", "Ben"))
    fill(game, "down.ones")
    assert names(game.allowed_cells("Anna"))[0] == "down.twos"
    assert names(game.allowed_cells("Ben"))[0] == "down.ones"
    assert game.allowed_cells() == game.allowed_cells("Ben")


def test_without_chance_the_up_column_starts_at_the_kniffel() -> None:
    game = new_game("rauf-runter", chance=False)
    assert game.due_row("Anna", "up") is Row.KNIFFEL


# ------------------------------------------------------------------ turn order


def test_players_move_in_seat_order() -> None:
    game = new_game("kniffel", ("Anna", "Ben", "Clara"))
    seen = []
    for cell in ["ones", "ones", "ones", "twos"]:
        seen.append(game.current_name)
        fill(game, cell)
    assert seen == ["Anna", "Ben", "Clara", "Anna"]
    assert game.current_player() == 1


def test_only_the_player_to_move_may_roll_or_enter() -> None:
    game = new_game("kniffel", ("Anna", "Ben"))
    message = refused(game, Roll("Ben", Dice.parse("12345")), NotYourTurnError)
    assert message == "it is not Ben's turn; Anna is to move"
    refused(game, Enter("Ben", game.cell("ones"), points=1), NotYourTurnError)
    message = refused(game, Roll("Zoe", Dice.parse("12345")), UnknownPlayerError)
    assert message == "unknown player 'Zoe'; the players are Anna, Ben"


def test_turn_order_is_derived_from_filled_cells_after_corrections() -> None:
    game = new_game("kniffel", ("Anna", "Ben", "Clara"))
    fill(game, "ones", "ones", "ones", "twos")
    assert game.current_name == "Ben"
    game.push(Clear("Anna", game.cell("twos")))
    assert game.current_name == "Anna", "one cell each: the earliest seat moves"
    game.push(Clear("Clara", game.cell("ones")))
    assert game.current_name == "Clara", "fewest filled cells"
    fill(game, "sixes")
    assert game.current_name == "Anna"
    game.push(Edit("Ben", game.cell("ones"), 3))
    assert game.current_name == "Anna", "an edit fills nothing"


# ------------------------------------------------------------------ rolls


def test_an_entry_without_dice_uses_the_last_roll() -> None:
    game = new_game("kniffel")
    roll(game, "12366")
    assert game.pending("Anna") == (Dice.parse("12366"), 1)
    roll(game, "66633", keep="66")
    assert game.pending("Anna") == (Dice.parse("33666"), 2)
    enter(game, "sixes")
    assert game.points("Anna", game.cell("sixes")) == 18
    assert game.pending("Anna") is None


def test_a_turn_has_at_most_three_rolls() -> None:
    game = new_game("kniffel")
    roll(game, "12345")
    roll(game, "12345", keep="12345")
    roll(game, "11111")
    message = refused(game, Roll("Anna", Dice.parse("11111"), (1, 1)), IllegalMoveError)
    assert message == "no rolls left in this turn; enter the dice into a cell"


def test_a_kept_die_may_be_rolled_again_later() -> None:
    game = new_game("kniffel")
    roll(game, "11234")
    roll(game, "11556", keep="11")
    roll(game, "55566", keep="556")
    assert game.pending("Anna") == (Dice.parse("55566"), 3)


@pytest.mark.parametrize(
    ("first", "keep", "dice", "message"),
    [
        (None, "6", "12346", "the first roll of a turn keeps no dice"),
        ("12345", "66", "12666", "the kept dice 6 6 are not all in the last roll 12345"),
        ("12366", "66", "12345", "the new dice 12345 do not show the kept dice 6 6"),
    ],
)
def test_bad_keeps_are_refused(first: str | None, keep: str, dice: str, message: str) -> None:
    game = new_game("kniffel")
    if first is not None:
        roll(game, first)
    event = Roll("Anna", Dice.parse(dice), tuple(int(f) for f in keep))
    assert refused(game, event, IllegalMoveError) == message


def test_an_entry_giving_dice_or_points_is_refused_while_dice_are_pending() -> None:
    game = new_game("kniffel")
    roll(game, "12345")
    message = refused(game, Enter("Anna", game.cell("chance"), points=20), IllegalMoveError)
    assert message == "Anna has rolled 12345; enter those dice, not others"
    refused(game, Enter("Anna", game.cell("chance"), Dice.parse("66666")), IllegalMoveError)


def test_an_entry_without_dice_needs_a_roll() -> None:
    game = new_game("kniffel")
    message = refused(game, Enter("Anna", game.cell("chance")), IllegalMoveError)
    assert message == "Anna has no dice rolled; roll first or give the dice or points"


def test_an_entry_gives_dice_or_points_not_both() -> None:
    game = new_game("kniffel")
    event = Enter("Anna", game.cell("chance"), Dice.parse("66666"), 30)
    assert refused(game, event) == "an entry gives dice or points, not both"


def test_pending_dice_wait_for_their_owner() -> None:
    game = new_game("kniffel", ("Anna", "Ben"))
    fill(game, "ones", "ones")
    roll(game, "66612")
    game.push(Clear("Ben", game.cell("ones")))
    assert game.current_name == "Ben"
    assert game.pending("Anna") == (Dice.parse("12666"), 1)
    assert game.pending("Ben") is None
    refused(game, Enter("Anna", game.cell("sixes")), NotYourTurnError)
    refused(game, Enter("Ben", game.cell("sixes")), IllegalMoveError)
    roll(game, "22222")
    enter(game, "twos")
    assert game.current_name == "Anna"
    assert game.pending("Anna") == (Dice.parse("12666"), 1)
    enter(game, "sixes")
    assert game.points("Anna", game.cell("sixes")) == 18
    assert game.points("Ben", game.cell("twos")) == 10


def test_a_pending_roll_continues_after_the_owner_moves_again() -> None:
    game = new_game("kniffel", ("Anna", "Ben"))
    fill(game, "ones", "ones")
    roll(game, "66612")
    game.push(Clear("Ben", game.cell("ones")))
    fill(game, "ones")
    roll(game, "66661", keep="666")
    assert game.pending("Anna") == (Dice.parse("16666"), 2)


# ------------------------------------------------------------------ edit, clear


def test_edit_and_clear_any_filled_cell_any_time_by_its_owner() -> None:
    game = new_game("rauf-runter", ("Anna", "Ben"))
    fill(game, "down.ones", "up.chance")
    game.push(Edit("Anna", game.cell("down.ones"), 4))  # Anna is not to move
    assert game.points("Anna", game.cell("down.ones")) == 4
    assert game.points("Ben", game.cell("down.ones")) is None
    game.push(Clear("Ben", game.cell("up.chance")))
    assert game.points("Ben", game.cell("up.chance")) is None
    assert game.filled_count("Ben") == 0


def test_edit_does_not_check_the_position_again() -> None:
    game = new_game("rauf-runter", zero_only_upper=True)
    fill(game, "down.ones", "down.twos")
    game.push(Edit("Anna", game.cell("down.ones"), 0))
    assert game.points("Anna", game.cell("down.ones")) == 0


@pytest.mark.parametrize("verb", ["edit", "clear"])
def test_an_empty_cell_cannot_be_edited_or_cleared(verb: str) -> None:
    game = new_game("rauf-runter", ("Anna", "Ben"))
    fill(game, "down.ones")
    cell = game.cell("down.ones")
    event = Edit("Ben", cell, 2) if verb == "edit" else Clear("Ben", cell)
    assert (
        refused(game, event, IllegalMoveError) == f"down.ones is empty; there is nothing to {verb}"
    )


def test_messages_of_one_column_variants_use_the_bare_row_id() -> None:
    game = new_game("kniffel")
    fill(game, "ones")
    assert refused(game, Enter("Anna", game.cell("ones"), points=2)) == "ones is already filled"
    message = refused(game, Clear("Anna", game.cell("twos")))
    assert message == "twos is empty; there is nothing to clear"


# ------------------------------------------------------------------ undo


def test_undo_of_a_roll_gives_back_the_roll_before() -> None:
    game = new_game("kniffel")
    roll(game, "12345")
    roll(game, "12355", keep="5")
    game.push(Undo())
    assert game.pending("Anna") == (Dice.parse("12345"), 1)
    game.push(Undo())
    assert game.pending("Anna") is None


def test_undo_of_an_entry_gives_the_player_back_the_dice_of_that_turn() -> None:
    game = new_game("kniffel", ("Anna", "Ben"))
    roll(game, "12345")
    roll(game, "66345", keep="345")
    enter(game, "chance")
    assert game.current_name == "Ben"
    game.push(Undo())
    assert game.current_name == "Anna"
    assert game.points("Anna", game.cell("chance")) is None
    assert game.pending("Anna") == (Dice.parse("34566"), 2)
    enter(game, "large_straight")
    assert game.points("Anna", game.cell("large_straight")) == 0


def test_undo_of_entries_with_dice_or_points_leaves_no_dice() -> None:
    game = new_game("kniffel")
    enter(game, "sixes", dice="66612")
    enter(game, "fives", points=10)
    game.push(Undo())
    game.push(Undo())
    assert game.pending("Anna") is None
    assert game.filled_count("Anna") == 0


def test_undo_of_an_edit_and_a_clear() -> None:
    game = new_game("kniffel", kniffel_bonus=100)
    enter(game, "kniffel", points=50)
    enter(game, "sixes", dice="66666")
    game.push(Edit("Anna", game.cell("sixes"), 12))
    game.push(Undo())
    assert game.points("Anna", game.cell("sixes")) == 30
    game.push(Clear("Anna", game.cell("sixes")))
    assert game.cell_bonus("Anna", game.cell("sixes")) == 0
    game.push(Undo())
    assert game.points("Anna", game.cell("sixes")) == 30
    assert game.cell_bonus("Anna", game.cell("sixes")) == 100
    assert game.column_totals("Anna", "main").kniffel_bonus == 100


def test_undo_to_any_depth_and_no_redo() -> None:
    game = new_game("rauf-runter", ("Anna", "Ben"))
    empty = snapshot(game)[:2]
    roll(game, "11156")
    enter(game, "down.ones")
    enter(game, "up.chance", dice="66554")
    game.push(Edit("Anna", game.cell("down.ones"), 2))
    game.push(Clear("Ben", game.cell("up.chance")))
    for _ in range(5):
        game.push(Undo())
    assert snapshot(game)[:2] == empty
    assert len(game.log) == 10 and not game.can_undo
    message = refused(game, Undo(), IllegalMoveError)
    assert message == "there is nothing to undo"


def test_an_undo_is_never_undone() -> None:
    game = new_game("kniffel")
    fill(game, "ones", "twos")
    game.push(Undo())
    game.push(Undo())
    assert game.filled_count("Anna") == 0
    with pytest.raises(IllegalMoveError):
        game.pop()


def test_pop_returns_the_event_taken_back() -> None:
    game = new_game("kniffel")
    fill(game, "ones")
    event = game.last_event
    assert isinstance(event, Enter)
    assert game.pop() == event
    assert game.last_event is None


# ------------------------------------------------------------------ totals


def test_the_upper_bonus_is_shown_as_soon_as_it_is_reached() -> None:
    game = new_game("kniffel")
    for cell, points in [("fours", 12), ("fives", 20), ("sixes", 30)]:
        enter(game, cell, points=points)
    assert game.column_totals("Anna", "main").bonus == 0  # 62
    enter(game, "ones", points=1)
    totals = game.column_totals("Anna", "main")
    assert (totals.upper, totals.bonus, totals.lower, totals.total) == (63, 35, 0, 98)
    game.push(Edit("Anna", game.cell("ones"), 0))
    assert game.column_totals("Anna", "main").bonus == 0


def test_column_totals_and_the_player_total() -> None:
    game = new_game("rauf-runter")
    enter(game, "down.ones", points=3)
    enter(game, "up.chance", points=22)
    enter(game, "free.full_house", points=25)
    assert game.column_totals("Anna", "down").upper == 3
    assert game.column_totals("Anna", "up").lower == 22
    assert game.column_totals("Anna", "free").total == 25
    assert game.total("Anna") == 50
    assert game.returns() == [50]


def test_dreifach_factors_multiply_the_column_total() -> None:
    game = new_game("dreifach")
    for column in ("x1", "x2", "x3"):
        for row, points in [("sixes", 30), ("fives", 25), ("fours", 8), ("chance", 20)]:
            enter(game, f"{column}.{row}", points=points)
    totals = [game.column_totals("Anna", c) for c in ("x1", "x2", "x3")]
    assert [(t.upper, t.bonus, t.lower) for t in totals] == [(63, 35, 20)] * 3
    assert [t.total for t in totals] == [118, 236, 354]
    assert game.total("Anna") == 708


# ------------------------------------------------------------------ the end


def test_the_game_ends_when_every_cell_is_filled() -> None:
    game = new_game("kniffel", ("Anna", "Ben"), chance=False)
    rows = [r.value for r in game.rows]
    for row in rows[:-1]:
        fill(game, row, row)
    fill(game, rows[-1])
    assert not game.is_finished and game.current_name == "Ben"
    assert game.winners() == []
    enter(game, rows[-1], points=0)
    assert game.is_finished
    assert game.current_player() is None and game.current_name is None
    assert game.winners() == ["Anna"]
    assert game.allowed_cells() == [] and game.legal_actions() == []


def test_after_the_end_only_corrections_are_possible() -> None:
    game = new_game("kniffel", chance=False)
    fill(game, *(r.value for r in game.rows))
    message = refused(game, Roll("Anna", Dice.parse("12345")), IllegalMoveError)
    assert message == "the game is finished; only corrections are possible"
    refused(game, Enter("Anna", game.cell("ones"), points=1), IllegalMoveError)
    game.push(Edit("Anna", game.cell("ones"), 5))
    assert game.is_finished
    game.push(Clear("Anna", game.cell("ones")))
    assert not game.is_finished and game.current_name == "Anna"


def test_a_tie_shares_the_win_in_seat_order() -> None:
    game = new_game("kniffel", ("Anna", "Ben", "Clara"), chance=False)
    for row in game.rows:
        for _ in game.players:
            fill(game, row.value)
    assert game.returns() == [game.total("Anna")] * 3
    assert game.winners() == ["Anna", "Ben", "Clara"]
    game.push(Edit("Ben", game.cell("ones"), 5))
    assert game.winners() == ["Ben"]


# ------------------------------------------------------------------ players


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "a game has 1 to 8 players, got 0"),
        ([f"P{i}" for i in range(9)], "a game has 1 to 8 players, got 9"),
        (["Anna", "Anna"], "player names must be distinct"),
        (["Anna", " "], "player names must be non-empty text"),
        (["Anna", ""], "player names must be non-empty text"),
    ],
)
def test_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(KniffelError) as excinfo:
        Game(get_variant("kniffel"), players)
    assert str(excinfo.value) == message


def test_names_are_case_sensitive() -> None:
    assert new_game("kniffel", ("Anna", "anna")).players == ("Anna", "anna")


# ------------------------------------------------------------ open_spiel style


def test_legal_actions_follow_the_turn() -> None:
    game = new_game("kniffel")
    assert game.legal_actions() == [RollAction()]
    game.apply(RollAction(), Dice.parse("11223"))
    actions = game.legal_actions()
    assert [a for a in actions if isinstance(a, EnterAction)] == [
        EnterAction(c) for c in game.allowed_cells()
    ]
    assert sum(isinstance(a, RollAction) for a in actions) == 18
    game.apply(RollAction((1, 1)), Dice.parse("11456"))
    game.apply(RollAction((1, 1)), Dice.parse("11111"))
    assert all(isinstance(a, EnterAction) for a in game.legal_actions())
    game.apply(EnterAction(game.cell("kniffel")))
    assert game.points("Anna", game.cell("kniffel")) == 50
    with pytest.raises(KniffelError, match="a roll needs the dice that fell"):
        game.apply(RollAction())


def test_chance_outcomes_of_a_roll_action() -> None:
    outcomes = Game.chance_outcomes(RollAction((6, 6, 6, 6)))
    assert {str(d) for d, _ in outcomes} == {f"{f}6666" for f in range(1, 6)} | {"66666"}


def test_a_copy_is_independent() -> None:
    game = new_game("kniffel")
    fill(game, "ones")
    twin = game.copy()
    fill(twin, "twos")
    assert game.filled_count("Anna") == 1 and twin.filled_count("Anna") == 2
    twin.push(Undo())
    twin.push(Undo())
    assert twin.filled_count("Anna") == 0 and game.filled_count("Anna") == 1


# ------------------------------------------------------------ known problems


@pytest.mark.parametrize("seat", [-1, 2])
def test_a_seat_outside_the_table_is_an_unknown_player(seat: int) -> None:
    game = new_game("kniffel", ("Anna", "Ben"))
    fill(game, "chance")
    with pytest.raises(UnknownPlayerError):
        game.total(seat)


@pytest.mark.parametrize("query", ["column_totals", "due_row"])
def test_asking_for_an_unknown_column_is_an_unknown_cell(query: str) -> None:
    game = new_game("rauf-runter")
    with pytest.raises(UnknownCellError, match="side"):
        getattr(game, query)("Anna", "side")
