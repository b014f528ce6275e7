"""Light games of one sheet played in step: every game is ``play_light``'s, game by game."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.board.players.sample import play_randomly
from kniffel.rules import (
    Dice,
    Discipline,
    Enter,
    Game,
    KniffelError,
    Roll,
    Variant,
    get_variant,
    possible_points,
    rows_for,
    turns_of,
)
from kniffel.solver.chances.family import SEED, family_finals, sheet_key
from kniffel.solver.play import family_batch
from kniffel.solver.play.family import BestEstimate, SheetCells, make_family_bot
from kniffel.solver.play.family_batch import play_light_batch
from kniffel.solver.play.family_fast import column_sums, play_light

from .test_family_bots import VARIANTS, faces

#: Jamb, Jamb with Ručna and Od sredine, Jamb's house rules (Σ2 below 0 among them) and
#: Yams with sèche and annoncée.
BATCHED = {
    **VARIANTS,
    "jamb-negative": get_variant("jamb", {"sum2_negative": True, "trips_bonus": 20}),
}


def sheet_of(name: str, made: int) -> SheetCells | None:
    """A sheet of ``made`` random entries (random dice into random allowed cells)."""
    if made == 0:
        return None
    variant = BATCHED[name]
    game = Game(variant, ["Ana"])
    rng = random.Random(made)
    while game.filled_count(0) < made:
        game.push(Roll("Ana", Dice.of([rng.randint(1, 6) for _ in range(5)])))
        game.push(Enter("Ana", rng.choice(game.entry_options(0)).cell))
    return tuple(game.column_points(0, spec.id) for spec in variant.columns)


def many_faces(name: str, games: int, seed: int) -> np.typing.NDArray[np.int64]:
    return np.stack([faces(BATCHED[name], seed * 1000 + g) for g in range(games)])


def assert_light_games(
    bot: str,
    variant: Variant,
    thrown: np.typing.NDArray[np.int64],
    start: SheetCells | None,
    name: str = "Bot",
) -> None:
    """``play_light_batch``'s games are ``play_light``'s, game for game."""
    got = play_light_batch(make_family_bot(bot, variant), thrown, name, start=start)
    assert got.shape == (len(thrown), len(variant.columns), len(rows_for(variant.options)))
    alone = make_family_bot(bot, variant)
    for g in range(len(thrown)):
        expected = play_light(alone, thrown[g], name, start=start).cells
        assert tuple(map(tuple, got[g].tolist())) == expected, f"game {g}"


@pytest.mark.parametrize(
    ("name", "made", "games"),
    [
        ("jamb", 0, 6),
        ("jamb", 13, 10),
        ("jamb", 30, 16),
        ("jamb", 45, 24),
        ("jamb-hand-middle", 20, 10),
        ("jamb-house", 25, 10),
        ("jamb-negative", 30, 12),
        ("yams-seche-annoncee", 0, 5),
        ("yams-seche-annoncee", 30, 12),
        ("yams-seche-annoncee", 55, 24),
    ],
)
def test_batched_games_are_the_light_games(name: str, made: int, games: int) -> None:
    assert_light_games("best", BATCHED[name], many_faces(name, games, made), sheet_of(name, made))


def test_batched_games_announce_and_go_block_by_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above meet announcements; and more games than a block play as the same games."""
    announced = []
    choose = family_batch._Block._announce

    def spy(self: family_batch._Block, *args: object) -> list[tuple[int, tuple[int, int]]]:
        chosen = choose(self, *args)  # type: ignore[arg-type]
        announced.extend(chosen)
        return chosen

    monkeypatch.setattr(family_batch._Block, "_announce", spy)
    monkeypatch.setattr(family_batch, "BLOCK", 3)
    assert_light_games("best", BATCHED["jamb"], many_faces("jamb", 7, 3), sheet_of("jamb", 20))
    assert announced


def test_greedy_batched_games_are_the_light_games() -> None:
    assert_light_games("greedy", BATCHED["jamb"], many_faces("jamb", 6, 8), sheet_of("jamb", 26))


def test_batched_games_refuse_what_the_light_sheet_does_not_play() -> None:
    joker = get_variant("yams", {"hand": True, "joker": "free", "kniffel_bonus": 100})
    with pytest.raises(KniffelError, match="joker or bonus"):
        play_light_batch(make_family_bot("best", joker), faces(joker, 0)[None])
    jamb = VARIANTS["jamb"]
    with pytest.raises(KniffelError, match="not random"):
        play_light_batch(make_family_bot("random", jamb), faces(jamb, 0)[None])


@pytest.mark.parametrize("name", ["jamb", "jamb-negative", "yams-seche-annoncee"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_column_values_many_are_column_values_to_the_bit(name: str, data: st.DataObject) -> None:
    options = BATCHED[name].options
    rows = rows_for(options)
    points = [sorted(possible_points(row, options)) for row in rows]
    estimate = BestEstimate(options)
    tasks = []
    for _ in range(data.draw(st.integers(1, 4))):
        cells = tuple(data.draw(st.none() | st.sampled_from(p)) for p in points)
        i = data.draw(st.integers(0, len(rows) - 1))
        discipline = data.draw(st.sampled_from(list(Discipline)))
        tasks.append((discipline, cells, i, points[i]))
    expected = np.concatenate([estimate.column_values(*task) for task in tasks])
    got = estimate.column_values_many(tasks)
    assert got.tolist() == expected.tolist()


def test_the_chances_play_a_sheets_games_in_step() -> None:
    """``family_finals`` plays ten games of a sheet in step: ``play_light``'s games, game by game
    (and four one by one, the same first four)."""
    variant = BATCHED["yams-seche-annoncee"]
    game = Game(variant, ["Léa"])
    rng = random.Random(4)
    while game.filled_count(0) < 40:
        game.push(Roll("Léa", Dice.of([rng.randint(1, 6) for _ in range(5)])))
        game.push(Enter("Léa", rng.choice(game.entry_options(0)).cell))
    start = tuple(game.column_points(0, spec.id) for spec in variant.columns)
    key = sheet_key(game, 0)
    bot = make_family_bot("best", variant)
    expected = []
    for i in range(10):
        thrown = np.random.default_rng([SEED, key, i]).integers(
            1, 7, size=(turns_of(variant), 3, 5)
        )
        cells = play_light(bot, thrown, "Léa", start=start).cells
        total = sum(
            column_sums(variant, column, spec.factor)[0]
            for column, spec in zip(cells, variant.columns, strict=True)
        )
        expected.append(total - game.total(0))
    heard: list[float] = []
    assert family_finals(game, 0, 10, progress=heard.append, keep=False).tolist() == expected
    assert heard[-1] == 1.0
    assert family_finals(game, 0, 4, keep=False).tolist() == expected[:4]


@pytest.mark.parametrize("entries", [60, 110])
def test_a_four_player_jamb_sheet_gets_the_light_games(entries: int) -> None:
    """The sheets the win chances play: the third player's sheet of a four-player Jamb game of
    random legal moves, a quarter and half way in."""
    game = Game(BATCHED["jamb"], ["Ana", "Ivo", "Mara", "Luka"])
    play_randomly(
        game, random.Random(entries), lambda g: sum(map(g.filled_count, range(4))) >= entries
    )
    solo = game.alone(2)
    start = tuple(solo.column_points(0, spec.id) for spec in game.columns)
    assert_light_games("best", game.variant, many_faces("jamb", 12, entries), start, "Mara")
