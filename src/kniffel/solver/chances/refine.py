"""Jamb's and Yams's win chances narrowed after their first answer (docs/solver.md, "Win chances").

The first answer after an entry plays :func:`~.family.family_samples_for` games of the sheet
that changed (about a second); a quarter into a four-player Jamb game its interval is only
sure to some ±7 points. The board then keeps playing, in steps, at the low priority of its
other work: each step doubles the games of the sheet whose games take most off the variance
of the widest interval (:func:`~.interval.variance_terms`: its share over its number of
games), a first answer's games at a time, so each
piece of work is about a second and the board shows every narrower range. Game ``i`` of a
sheet is the same whatever the number of games (:mod:`.family`), so the games already played
are kept and only the new ones played. It stops when every player's range as the board shows
it (its ends rounded outwards to whole points) spans at most :data:`TARGET` points, ±3, or when
every sheet that adds to the widest interval has :data:`CAP` times its first answer's games:
the work of a position is at most :data:`CAP` times its first answer's.

An unchanged sheet keeps its games from one entry to the next, so after an entry only the
sheet that changed starts again from its first answer's games (:func:`first_counts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import numpy as np

from kniffel.rules import Game
from kniffel.solver.chances.family import family_finals, family_kept, family_samples_for
from kniffel.solver.chances.forecast import Chances, family_forecast
from kniffel.solver.chances.interval import variance_terms
from kniffel.solver.chances.win import Pmf

__all__ = ["CAP", "TARGET", "first_counts", "narrowed", "next_sheet", "settled", "shown_points"]

#: The widest range shown that ends the refinement, in points of percentage: ±3 (95 %).
TARGET = 6
#: A sheet's games at most this many times its first answer's (the ``chances_refine``
#: setting): the work of a position at most this many times its first answer's.
CAP = 16


def _first(game: Game, player: int) -> int:
    return family_samples_for(game.cells_per_player - game.filled_count(player))


def first_counts(game: Game, cap: int = CAP) -> list[int]:
    """Each player's games for the first answer: the first answer's number, or as many as the
    process keeps of an unchanged sheet (at most ``cap`` times it); 0 for a full sheet."""
    counts = []
    for p in range(len(game.players)):
        first = _first(game, p)
        counts.append(min(cap * first, max(first, family_kept(game, p))) if first else 0)
    return counts


def shown_points(low: float, high: float) -> int:
    """How many points the board's range spans: its ends rounded outwards, as
    ``static/tafel/chances.js`` shows them ("≈ 31–44 %": 13)."""
    return math.ceil(high * 100 - 1e-9) - math.floor(low * 100 + 1e-9)


def settled(chances: Chances, target: int = TARGET) -> bool:
    """Whether every player's range as the board shows it spans at most ``target`` points."""
    return all(shown_points(p.low, p.high) <= target for p in chances.players)


def next_sheet(
    game: Game, chances: Chances, counts: Sequence[int], cap: int = CAP, target: int = TARGET
) -> int | None:
    """The player whose sheet's games to double next: of those below ``cap`` times their first
    answer's, the one whose games take most off the variance of the widest interval, game for
    game (its share of that variance over its games); ``None`` when
    every range is within ``target`` points or no sheet that adds to the widest can grow."""
    if settled(chances, target):
        return None
    pmfs = [
        Pmf.of_samples(game.total(p) + family_finals(game, p, n))
        if n
        else Pmf(game.total(p), np.ones(1))
        for p, n in enumerate(counts)
    ]
    terms = variance_terms(pmfs, counts)
    widest = int(terms.sum(axis=1).argmax())
    growing = [
        j for j, n in enumerate(counts) if 0 < n < cap * _first(game, j) and terms[widest, j] > 0
    ]
    if not growing:
        return None
    # What a game more takes off the widest variance: a term falls as 1 / n.
    return max(growing, key=lambda j: float(terms[widest, j]) / counts[j])


def narrowed(
    game: Game,
    chances: Chances,
    *,
    cap: int = CAP,
    target: int = TARGET,
    progress: Callable[[float], None] | None = None,
) -> Iterator[Chances]:
    """Ever narrower chances of ``game`` after ``chances`` (its first answer from
    :func:`first_counts`): one after each first answer's worth of new games of a sheet, the
    last with ``refining`` false (within ``target`` points, or at the ``cap``). ``progress``
    hears how far each piece of work is (the board stops a superseded refinement through it)."""
    counts = [p.samples for p in chances.players]
    now = chances
    while (j := next_sheet(game, now, counts, cap, target)) is not None:
        first = _first(game, j)
        goal = min(2 * counts[j], cap * first)
        while counts[j] < goal:
            counts[j] = min(goal, counts[j] + first)
            now = family_forecast(game, counts, progress)
            if settled(now, target):
                break
            yield replace(now, refining=True)
        if settled(now, target):
            break
    yield replace(now, refining=False)
