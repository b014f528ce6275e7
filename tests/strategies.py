"""Random variants, legal games and game records, for properties and benchmarks.

Whole games are driven by a :class:`random.Random` that Hypothesis draws
(``st.randoms()``): a game is hundreds of choices, and drawing each one
separately would make every property slow for little gain in shrinking.
The plain functions (``random_event``, ``play_turn``, ``play_game``) are also
what ``benchmarks/engine.py`` uses to make long records.

Every event these functions push is legal; they raise if the engine refuses one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from kniffel.board.limits import LimitError, check_record_names
from kniffel.record import record_of
from kniffel.rules import (
    PRESETS,
    STRAIGHT_BY_ROLL,
    Announce,
    Cell,
    Clear,
    Dice,
    Discipline,
    Edit,
    Enter,
    Event,
    Game,
    Joker,
    Pasch,
    Roll,
    Row,
    Sheet,
    Undo,
    Variant,
    get_variant,
    possible_points,
)

__all__ = [
    "NAMES",
    "all_cells",
    "dice",
    "filled_cells",
    "finished_games",
    "games",
    "legal_points",
    "option_overrides",
    "play_game",
    "play_turn",
    "player_lists",
    "random_correction",
    "random_event",
    "records",
    "roll_dice",
    "standing_events",
    "variants",
]

NAMES = ("Anna", "Ben", "Clara", "Dario", "Emil", "Frida", "Greta", "Hugo")

# ------------------------------------------------------------------ strategies


_OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "chance": st.booleans(),
    "pasch": st.sampled_from([p.value for p in Pasch]),
    "kniffel_bonus": st.sampled_from([0, 100]) | st.integers(1, 1000),
    "joker": st.sampled_from([j.value for j in Joker]),
    "zero_only_upper": st.booleans(),
    "trips_bonus": st.sampled_from([10, 20]),
    "straight_fixed": st.booleans(),
    "sum2_bonus": st.booleans(),
    "sum2_bonus_points": st.sampled_from([30, 40]),
    "sum2_negative": st.booleans(),
    "full_five": st.booleans(),
    "hand": st.booleans(),
    "middle": st.booleans(),
    "announce": st.booleans(),
}

#: The presets of the Kniffel sheet whose columns take any roll (the properties of §1 to §9).
KNIFFEL_PRESETS = ("kniffel", "yahtzee", "rauf-runter", "dreifach")
#: The column family of docs/rules.md, "Jamb" and "Yams".
FAMILY_PRESETS = ("jamb", "yams")
#: The columns that take typed dice or points only as a first roll, unannounced.
_FIRST_ROLL = (Discipline.HAND, Discipline.ANNOUNCE)


def option_overrides(preset: str = "kniffel") -> st.SearchStrategy[dict[str, Any]]:
    """Any subset of the options ``preset`` offers, each with any valid value."""
    offered = PRESETS[preset].options.offered
    return st.fixed_dictionaries({}, optional={name: _OPTION_VALUES[name] for name in offered})


def variants(presets: Sequence[str] = tuple(PRESETS)) -> st.SearchStrategy[Variant]:
    """A preset with random option overrides."""
    return st.sampled_from(list(presets)).flatmap(
        lambda name: st.builds(get_variant, st.just(name), option_overrides(name))
    )


def player_lists(min_size: int = 1, max_size: int = 4) -> st.SearchStrategy[list[str]]:
    """Distinct, non-blank names in seat order (mostly readable ones)."""
    name = st.sampled_from(NAMES) | st.text(min_size=1, max_size=6).filter(str.strip)
    return st.lists(name, min_size=min_size, max_size=max_size, unique=True)


def _board_keeps(names: list[str]) -> bool:
    try:
        check_record_names(names)
    except LimitError:
        return False
    return True


def board_player_lists(min_size: int = 1, max_size: int = 4) -> st.SearchStrategy[list[str]]:
    """Names the board stores as they are (docs/architecture.md, limits): for tests through it."""
    return player_lists(min_size, max_size).filter(_board_keeps)


def dice() -> st.SearchStrategy[Dice]:
    return st.builds(Dice.of, st.lists(st.integers(1, 6), min_size=5, max_size=5))


@st.composite
def games(
    draw: st.DrawFn,
    variant: st.SearchStrategy[Variant] | None = None,
    players: st.SearchStrategy[list[str]] | None = None,
    max_events: int = 150,
) -> Game:
    """A game after a random number of random legal events, corrections and undos included."""
    game = Game(
        draw(variant if variant is not None else variants()),
        draw(players if players is not None else player_lists()),
    )
    rng = draw(st.randoms(use_true_random=True))
    for _ in range(draw(st.integers(0, max_events))):
        random_event(game, rng)
    return game


@st.composite
def finished_games(
    draw: st.DrawFn,
    variant: st.SearchStrategy[Variant] | None = None,
    players: st.SearchStrategy[list[str]] | None = None,
    corrections: float = 0.1,
) -> Game:
    """A game played to its end (with corrections on the way when ``corrections`` > 0)."""
    game = Game(
        draw(variant if variant is not None else variants()),
        draw(players if players is not None else player_lists(max_size=3)),
    )
    play_game(game, draw(st.randoms(use_true_random=True)), corrections=corrections)
    return game


def records(max_events: int = 150) -> st.SearchStrategy[dict[str, Any]]:
    """JSON-ready records of random legal games."""
    return games(max_events=max_events).map(record_of)


# ---------------------------------------------------------------- random play


def all_cells(game: Game) -> list[Cell]:
    """Every cell of one sheet, in column then row order."""
    return [Cell(spec.id, row) for spec in game.columns for row in game.rows]


def filled_cells(game: Game) -> list[tuple[str, Cell]]:
    """(player, cell) for every filled cell of every player."""
    return [
        (name, cell)
        for name in game.players
        for cell in all_cells(game)
        if game.points(name, cell) is not None
    ]


def standing_events(log: Sequence[Event]) -> list[Event]:
    """The events of ``log`` that no later undo took back, in order."""
    stack: list[Event] = []
    for event in log:
        if isinstance(event, Undo):
            stack.pop()
        else:
            stack.append(event)
    return stack


def roll_dice(rng: random.Random, keep: Sequence[int] = ()) -> Dice:
    """Keep ``keep`` and roll the other dice."""
    return Dice.of([*keep, *(rng.randint(1, 6) for _ in range(5 - len(keep)))])


def _random_keep(rng: random.Random, dice: Dice) -> tuple[int, ...]:
    return tuple(face for face in dice.faces if rng.random() < 0.5)


def _typed_roll(game: Game, rng: random.Random) -> int | None:
    """The roll number an entry of typed dice or points says: only in the column family,
    so that the records of the Kniffel presets stay as they were."""
    return rng.randint(1, 3) if game.variant.name in FAMILY_PRESETS else None


def legal_points(game: Game, player: str, cell: Cell, roll: int | None = None) -> list[int]:
    """The points an entry into the allowed ``cell`` may give now (zero_only_upper applied;
    Jamb's Kenta as the ``roll`` scores it)."""
    values = sorted(possible_points(cell.row, game.options))
    jamb = game.options.sheet is Sheet.JAMB
    if jamb and cell.row is Row.STRAIGHT and not game.options.straight_fixed and roll:
        values = [0, STRAIGHT_BY_ROLL[roll]]
    if (
        game.options.zero_only_upper
        and not cell.row.is_upper
        and any(c.row.is_upper for c in game.allowed_cells(player))
    ):
        return [v for v in values if v != 0]
    return values


def play_turn(game: Game, rng: random.Random) -> None:
    """The rest of the turn of the player to move: up to three rolls, then a legal entry."""
    name = game.current_name
    assert name is not None, "the game is finished"
    pending = game.pending(name)
    rolls = 0 if pending is None else pending[1]
    last_roll = rng.randint(max(rolls, 1), 3)
    while rolls < last_roll:
        keep = () if pending is None else _random_keep(rng, pending[0])
        roll = Roll(name, roll_dice(rng, keep), keep)
        if game.check(roll) is not None:
            break  # only first-roll cells are open (docs/rules.md, "Jamb")
        game.push(roll)
        pending = game.pending(name)
        rolls += 1
        if rolls == 1 and rng.random() < 0.3:
            _random_announce(game, rng)
    game.push(Enter(name, rng.choice(game.entry_options()).cell))


def _random_announce(game: Game, rng: random.Random) -> None:
    """An announcement, where one is open (right after the first roll in an announce column)."""
    options = game.announce_options()
    name = game.current_name
    if options and name is not None:
        game.push(Announce(name, rng.choice(options).cell))


def play_game(
    game: Game, rng: random.Random, corrections: float = 0.0, max_events: int = 100_000
) -> None:
    """Play until the game is finished; before each turn a correction with that probability."""
    while not game.is_finished:
        if len(game.log) > max_events:
            raise RuntimeError("the game did not finish")
        if rng.random() < corrections:
            random_correction(game, rng)
        else:
            play_turn(game, rng)


def random_correction(game: Game, rng: random.Random) -> None:
    """An edit, clear or undo, whichever is possible (nothing on an empty, new game)."""
    filled = filled_cells(game)
    kinds = [k for k, ok in (("edit", filled), ("clear", filled), ("undo", game.can_undo)) if ok]
    if not kinds:
        return
    kind = rng.choice(kinds)
    if kind == "undo":
        game.push(Undo())
        return
    name, cell = rng.choice(filled)
    if kind == "clear":
        game.push(Clear(name, cell))
    else:
        game.push(Edit(name, cell, rng.choice(sorted(possible_points(cell.row, game.options)))))


def random_event(game: Game, rng: random.Random) -> None:
    """One random legal event: mostly rolls and entries of every kind, some corrections."""
    name = game.current_name
    if name is None or rng.random() < 0.12:
        random_correction(game, rng)
        return
    pending = game.pending(name)
    if pending is None:
        choice = rng.random()
        if choice < 0.6:
            game.push(Roll(name, roll_dice(rng)))
        elif choice < 0.8:
            # Typed dice are often a Kniffel, so that the joker and the bonus get exercised.
            roll = Dice.of([rng.randint(1, 6)] * 5) if rng.random() < 0.3 else roll_dice(rng)
            number = _typed_roll(game, rng)
            options = game.entry_options(name, roll, number)
            if not options:  # only first-roll cells open: the dice came with the first roll
                number = 1
                options = game.entry_options(name, roll, number)
            game.push(Enter(name, rng.choice(options).cell, dice=roll, roll=number))
        else:
            number = _typed_roll(game, rng)
            cell = rng.choice(game.allowed_cells(name))
            if game.variant.column(cell.column).discipline in _FIRST_ROLL:
                number = None if number is None else 1  # hand and announce take a first roll
            points = rng.choice(legal_points(game, name, cell, number))
            game.push(Enter(name, cell, points=points, roll=number))
    elif pending[1] == 1 and game.announce_options() and rng.random() < 0.3:
        _random_announce(game, rng)
    elif pending[1] < 3 and rng.random() < 0.5 and game.check(Roll(name, pending[0])) is None:
        keep = _random_keep(rng, pending[0])
        game.push(Roll(name, roll_dice(rng, keep), keep))
    else:
        game.push(Enter(name, rng.choice(game.entry_options()).cell))
