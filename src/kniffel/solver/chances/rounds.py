"""Jamb's and Yams's win chances after every round, for the end screen's chart.

The sheets the solver has no tables for are valued by games of the best family bot
(:mod:`.family`): thousands of games per position, so their end chart has a point per
**round** (after every player's turn), not per entry, and a fixed budget of work
(:data:`CHART_BUDGET`, in :mod:`.family`'s units of a game's cost) shared equally by its
points and sheets (docs/solver.md, "Win chances"; docs/benchmarks.md, "Jamb's and Yams's end
chart"):

- **round 0**, before the first entry: every sheet is empty and alike, so each player's chance
  is exactly ``1 / players`` (ties shared; one sheet's games give the expected total);
- **round r**: each unfinished sheet as it stood when the round's last entry was made (a
  correction before the next player's entry included) gets :func:`chart_samples` games,
  seeded by the sheet as on the board; its chances carry the 95 % interval of
  :func:`~.interval.win_intervals`, which the chart draws as a band;
- **the last round**: every sheet is full, the chances are exact (the winner's 1.0, ties
  shared).

Each sheet's games are played once per chart (sheets alike share them) and are not kept for
the board's live chances (:func:`~.family.family_finals` with ``keep=False``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from kniffel.record import Record, replay
from kniffel.rules import Enter, Game, standing_events
from kniffel.solver.chances.family import MAX_SAMPLES, OPEN, family_finals, sheet_key
from kniffel.solver.chances.forecast import Chances, family_forecast
from kniffel.solver.chances.series import Series, SeriesCancelled, Turn
from kniffel.solver.play.family import make_family_bot

__all__ = [
    "CHART_BUDGET",
    "CHART_MIN_SAMPLES",
    "chances_by_round",
    "chart_bound",
    "chart_samples",
]

IntArray = npt.NDArray[np.int64]

#: The work of one end chart, in units of a game's cost (``left * (left + OPEN)``, some 4 to
#: 5 µs each on a quiet development machine): shared equally by every round and sheet.
CHART_BUDGET = 8_000_000
#: Games a sheet gets at least, however small the budget (the fewest that give a spread; with
#: the default budget a four-player Jamb chart's first round gets 10 games a sheet).
CHART_MIN_SAMPLES = 2


def _cost(left: int) -> int:
    return left * (left + OPEN)


def chart_samples(left: int, rounds: int, players: int, budget: int = CHART_BUDGET) -> int:
    """Games for a sheet with ``left`` entries left at a point of a chart of ``rounds`` rounds
    and ``players`` players: its equal share of ``budget``, at least
    :data:`CHART_MIN_SAMPLES` and at most :data:`~.family.MAX_SAMPLES` (0 for a full sheet)."""
    if left <= 0:
        return 0
    share = budget // (max(1, rounds) * max(1, players))
    return max(CHART_MIN_SAMPLES, min(MAX_SAMPLES, share // _cost(left)))


def chart_bound(rounds: int, players: int, budget: int = CHART_BUDGET) -> int:
    """The most work (units) a chart of ``rounds`` rounds and ``players`` players costs: one
    sheet at round 0, every player's after each later round but the last (exact). It exceeds
    ``budget`` only where the first rounds' :data:`CHART_MIN_SAMPLES` games cost more than their
    share."""
    work = 0
    for done in range(rounds):
        left = rounds - done
        sheets = 1 if done == 0 else players
        work += sheets * chart_samples(left, rounds, players, budget) * _cost(left)
    return work


def chances_by_round(
    source: Record | Game,
    *,
    budget: int = CHART_BUDGET,
    cancelled: Callable[[], bool] | None = None,
) -> Series:
    """Replay ``source`` (its events still standing) and value the position after every
    round (see the module). The series' turns are the rounds: ``event`` the number of the
    round's last entry, ``player`` who made it. ``cancelled`` is asked before each round's
    games; when it says so, :class:`~.series.SeriesCancelled` is raised."""
    played = replay(source) if isinstance(source, Record) else source
    game = Game(played.variant, played.players)
    rounds = game.cells_per_player
    players = len(game.players)
    ended: dict[int, tuple[int, str, Game]] = {}
    for number, event in standing_events(played.log):
        game.push(event)
        if isinstance(event, Enter):
            counts = {game.filled_count(p) for p in range(players)}
            if len(counts) == 1 and (done := counts.pop()) > 0:
                # the last standing entry that leaves every sheet at ``done``: a correction
                # made before the next player's entry is part of the round
                ended[done] = (number, event.player, game.copy())
    sheets: dict[tuple[int, int], IntArray] = {}
    # One bot for the chart's games (dropped with it): what it keeps of a sheet's columns serves
    # the same sheet a round later.
    bot = make_family_bot("best", played.variant)

    def finals(position: Game, player: int) -> IntArray:
        left = rounds - position.filled_count(player)
        n = chart_samples(left, rounds, players, budget)
        key = (sheet_key(position, player), n)
        if key not in sheets:
            sheets[key] = family_finals(position, player, n, keep=False, bot=bot)
        return sheets[key]

    def valued(position: Game) -> Chances:
        if cancelled is not None and cancelled():
            raise SeriesCancelled()
        return family_forecast(position, finals=finals)

    empty = valued(Game(played.variant, played.players))
    even = 1 / players
    start = replace(
        empty, players=tuple(replace(p, win=even, low=even, high=even) for p in empty.players)
    )
    turns = tuple(
        Turn(number, player, valued(position))
        for _done, (number, player, position) in sorted(ended.items())
    )
    return Series(tuple(game.players), start, turns, tuple(game.winners()))
