"""Jamb and Yams bot games without the rules engine: the same games, many times faster.

:func:`~kniffel.solver.play.family.play_game` asks ``Game`` at every decision which cells
are open, which entries the rules list and whether a roll is allowed, and builds the
sheet's tuples anew from it. For the long seeded runs of docs/bot.md ("Jamb and Yams")
:func:`play_light` keeps the sheet as lists of points and asks the rules only what they
answer from plain data: :func:`~kniffel.rules.open_indices` for the places a column opens
and the bot's table of :func:`~kniffel.rules.sheet_score` for the points. The decisions
are the bot's own (:meth:`FamilyBot.decide` and :meth:`FamilyBot.entry`, which the engine
path calls too), so a light game is the engine's game event for event;
``tests/solver/test_family_fast.py`` replays them through ``Game`` to check it.

The light sheet knows no joker and no extra-Kniffel bonus: :func:`supported` says which
variants it plays (every Jamb, and Yams with its preset ``joker=none``, ``kniffel_bonus=0``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import (
    Announce,
    Cell,
    Dice,
    Discipline,
    Enter,
    Event,
    Joker,
    KniffelError,
    Roll,
    Row,
    Sheet,
    Variant,
    column_sum,
    open_indices,
    rows_for,
    sheet_sums,
)
from kniffel.solver.exact.dice_tables import KEEPS, ROLL_INDEX
from kniffel.solver.play.family import (
    FamilyBot,
    FamilyRandomBot,
    Place,
    SheetCells,
    make_family_bot,
)
from kniffel.solver.play.simulation import Simulation

__all__ = ["ROLL_OF_FACES", "LightGame", "play_light", "simulate_light", "supported"]

IntArray = npt.NDArray[np.int64]


#: Each roll's index by its sorted faces (``ROLL_INDEX`` without building a ``Dice``).
ROLL_OF_FACES: dict[tuple[int, ...], int] = {dice.faces: i for dice, i in ROLL_INDEX.items()}


def supported(variant: Variant) -> bool:
    """Whether the light sheet plays ``variant`` by its rules: no joker and no
    extra-Kniffel bonus (Jamb has neither; Yams' presets have neither)."""
    options = variant.options
    return options.sheet is Sheet.JAMB or (
        options.joker is Joker.NONE and options.kniffel_bonus == 0
    )


@dataclass(frozen=True)
class LightGame:
    """A finished light game: the cells column by column and, when asked, its events."""

    cells: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]


def play_light(
    bot: FamilyBot,
    faces: IntArray,
    player: str = "Bot",
    *,
    events: bool = False,
    start: SheetCells | None = None,
) -> LightGame:
    """A solitaire game of ``bot`` on the faces of ``play_game`` (roll ``j`` of turn ``t``
    keeps its dice and throws the first faces of ``faces[t, j]``), on a light sheet;
    ``events``: also the events the engine would log; ``start``: played on from these cells
    (column by column, ``None`` where empty), ``t`` counting the filled cells as there."""
    variant = bot.variant
    if not supported(variant):
        raise KniffelError(f"the light sheet plays no {variant.label} with a joker or bonus")
    if isinstance(bot, FamilyRandomBot):
        raise KniffelError("the light sheet plays the greedy and the best bot, not random")
    rows = rows_for(variant.options)
    ids = [spec.id for spec in variant.columns]
    disciplines = bot.disciplines
    announce_columns = [c for c, d in enumerate(disciplines) if d is Discipline.ANNOUNCE]
    sheet: list[list[int | None]] = (
        [[None] * len(rows) for _ in ids] if start is None else [list(c) for c in start]
    )
    log: list[Event] = []
    filled = sum(value is not None for column in sheet for value in column)
    # each column's open rows, worked out again only for the column an entry changed
    opened = [
        open_indices(discipline, [value is not None for value in sheet[c]])
        for c, discipline in enumerate(disciplines)
    ]
    for turn in range(filled, len(rows) * len(ids)):
        cells = tuple(tuple(column) for column in sheet)
        allowed: list[Place] = [(c, i) for c, indices in enumerate(opened) for i in indices]
        announceable = any(None in cells[c] for c in announce_columns)
        thrown = faces[turn].tolist()
        dice = sorted(thrown[0])
        keep: tuple[int, ...] = ()
        rolls = 1
        announced: Place | None = None
        while True:
            if events:
                log.append(Roll(player, Dice.of(dice), keep))
            r = ROLL_OF_FACES[tuple(dice)]
            kind, what = bot.decide(
                0, cells, allowed, r, rolls, announced, can_announce=announceable
            )
            while kind == "announce":
                assert isinstance(what, tuple)
                announced = what
                if events:
                    log.append(Announce(player, Cell(ids[what[0]], rows[what[1]])))
                kind, what = bot.decide(0, cells, allowed, r, rolls, announced)
            if kind == "roll":
                assert isinstance(what, int)
                keep = KEEPS[what]
                dice = sorted([*keep, *thrown[rolls][: 5 - len(keep)]])
                rolls += 1
                continue
            c, i = bot.entry(0, cells, allowed, r, rolls, announced)
            sheet[c][i] = bot.points(i, rolls, r)
            opened[c] = open_indices(disciplines[c], [value is not None for value in sheet[c]])
            if events:
                log.append(Enter(player, Cell(ids[c], rows[i])))
            break
    full = tuple(tuple(value or 0 for value in column) for column in sheet)
    return LightGame(full, tuple(log))


def column_sums(variant: Variant, cells: tuple[int, ...], factor: int) -> tuple[int, bool]:
    """A full column's total by the rules' sums (docs/rules.md) and whether it reached its
    upper bonus (Jamb: Σ1's 30)."""
    sums = sheet_sums(variant.options)
    total = column_sum(variant.options, cells, 0, factor)
    return total, sum(cells[sums.upper]) >= sums.bonus_threshold


def simulate_light(
    variant: Variant,
    bot: str | FamilyBot,
    games: int,
    seed: int = 0,
    *,
    first: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Games ``first`` to ``first + games − 1`` of seed ``seed`` on the light sheet: the
    figures of :func:`~kniffel.solver.play.simulate.simulate_family` for the same games
    (game ``g`` throws the faces of ``default_rng([seed, g])``)."""
    player = make_family_bot(bot, variant, seed) if isinstance(bot, str) else bot
    turns = len(rows_for(variant.options)) * len(variant.columns)
    made = rows_for(variant.options).index(
        Row.JAMB if variant.options.sheet is Sheet.JAMB else Row.KNIFFEL
    )
    factors = [spec.factor for spec in variant.columns]
    columns = len(factors)
    totals = np.zeros(games, dtype=np.int64)
    column_totals = np.zeros((games, columns), dtype=np.int64)
    bonus = np.zeros((games, columns), dtype=np.bool_)
    fifty = np.zeros((games, columns), dtype=np.bool_)
    start = time.perf_counter()
    for n in range(games):
        faces = np.random.default_rng([seed, first + n]).integers(1, 7, size=(turns, 3, 5))
        game = play_light(player, faces)
        for c, (cells, factor) in enumerate(zip(game.cells, factors, strict=True)):
            column_totals[n, c], bonus[n, c] = column_sums(variant, cells, factor)
            fifty[n, c] = cells[made] > 0
        totals[n] = column_totals[n].sum()
        if progress:
            progress(1)
    seconds = time.perf_counter() - start
    extra = np.zeros(games, dtype=np.int64)
    return Simulation(
        variant, player.name, seed, totals, column_totals, bonus, fifty, extra, seconds
    )
