"""The solver's array forms of the rules equal the engine, for every roll and any options.

The solver looks its rules up in tables built from :mod:`kniffel.rules` (raw
scores, due rows, the joker, ``zero_only_upper``) and sums with its functions.
Hypothesis draws the variant, its options and a sheet; every one of the 252
rolls is then entered both ways and must give the same legal cells, points and
bonuses (``SheetBatch`` for the bots, ``entry_values`` for the exact solver).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kniffel.rules import (
    ALL_ROLLS,
    ColumnSpec,
    Discipline,
    Edit,
    Enter,
    Game,
    Options,
    Pasch,
    Row,
    Variant,
    possible_points,
    raw_score,
    rows_for,
)
from kniffel.solver.exact.dice_tables import ROLLS
from kniffel.solver.exact.entries import entry_values
from kniffel.solver.exact.roll_scores import raw_scores
from kniffel.solver.exact.sheet_space import SheetSpace
from kniffel.solver.play.sheets import SheetBatch
from strategies import KNIFFEL_PRESETS, option_overrides, variants

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def fill_randomly(game: Game, rng: random.Random) -> None:
    """Fill some cells of the one player with points, Kniffel cells first (often 50)."""
    wanted = rng.randrange(game.cells_per_player + 1)
    while game.filled_count(0) < wanted:
        allowed = game.allowed_cells(0)
        kniffels = [c for c in allowed if c.row is Row.KNIFFEL]
        cell = rng.choice(kniffels if kniffels and rng.random() < 0.8 else allowed)
        points = rng.choice(sorted(possible_points(cell.row, game.options)))
        # the largest value is never refused (it is not 0); an edit then sets the points wanted
        game.push(Enter(game.players[0], cell, points=max(possible_points(cell.row, game.options))))
        if rng.random() < 0.8:
            game.push(Edit(game.players[0], cell, points))


@pytest.mark.parametrize("chance", [True, False])
@pytest.mark.parametrize("pasch", list(Pasch))
def test_raw_scores_are_the_engines(chance: bool, pasch: Pasch) -> None:
    options = Options(chance=chance, pasch=pasch)
    table = raw_scores(options)
    expected = [[raw_score(row, dice, pasch) for dice in ROLLS] for row in rows_for(options)]
    assert table.tolist() == expected


@SETTINGS
@given(variant=variants(KNIFFEL_PRESETS), rng=st.randoms(use_true_random=False))
def test_sheet_batch_enters_every_roll_as_the_engine(variant: Variant, rng: random.Random) -> None:
    game = Game(variant, ["P"])
    fill_randomly(game, rng)
    sheets = SheetBatch.of_game(game, 0)
    assert sheets.totals()[0] == game.total(0)
    due = sheets.due_rows()[0]
    for c, spec in enumerate(variant.columns):
        row = game.due_row(0, spec.id)
        assert due[c] == (-1 if row is None else game.rows.index(row))
    entries = sheets.entries()
    for r, dice in enumerate(ROLLS):
        engine = {(str(o.cell), o.points, o.kniffel_bonus) for o in game.entry_options(0, dice)}
        arrays = set()
        for k in np.flatnonzero(entries.legal[0, :, r]):
            column = variant.columns[int(sheets.layout.column[k])].id
            cell = f"{column}.{sheets.rows[int(entries.row[0, k])].value}"
            arrays.add((cell, int(entries.points[0, k, r]), int(entries.kniffel_bonus[0, k, r])))
        assert arrays == engine, (game.log, dice)


@SETTINGS
@given(
    overrides=option_overrides(),
    # the solver's disciplines (docs/solver.md); Jamb's columns have no tables yet
    discipline=st.sampled_from([Discipline.DOWN, Discipline.UP, Discipline.FREE]),
    rng=st.randoms(use_true_random=False),
)
def test_exact_entries_enter_every_roll_as_the_engine(
    overrides: dict[str, object], discipline: Discipline, rng: random.Random
) -> None:
    options = Options().updated(overrides)
    variant = Variant("one", "One", (ColumnSpec("main", "Main", discipline),), options)
    game = Game(variant, ["P"])
    fill_randomly(game, rng)
    if game.is_finished:
        return
    space = SheetSpace(options, discipline)
    state = space.state_of(game, 0, "main")
    values = np.zeros(space.size)  # what follows is worth 0: the worth is the entry alone
    worth = entry_values(space, values, state)
    for r, dice in enumerate(ALL_ROLLS):
        engine = {space.rows.index(o.cell.row): o for o in game.entry_options(0, dice)}
        assert {j for j in range(space.n_rows) if np.isfinite(worth[j, r])} == set(engine)
        for j, option in engine.items():
            after = game.copy()
            after.push(Enter("P", option.cell, dice=dice))
            assert worth[j, r] == after.total(0) - game.total(0), (game.log, dice, j)
