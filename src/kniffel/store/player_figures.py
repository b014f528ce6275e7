"""A player's figures and the leaderboard, aggregated by the database.

The player page must answer quickly over years of games (benchmarks/players.py:
10,000 finished games), so the sums, means, rates and the opponents' tallies are
``GROUP BY`` queries over the summary rows (:mod:`kniffel.store.results`); only
the few numbers come back to Python. A row counts when its game is finished and
the row was written at the game's current version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, case, func, literal, select
from sqlalchemy.orm import aliased

from kniffel.store.results import PlayerResultRow

__all__ = ["RawFigures", "RawPreset", "figures", "leaders", "series"]

#: Columns of the widest preset (the bonus string has one character per column).
MAX_COLUMNS = 3
#: Histogram bins per preset, of a round width.
BINS = 10
RECENT = 10

R = PlayerResultRow


def _current() -> Any:
    """Rows that count: the sync marks the rows of a game that is no longer finished with
    version -1 and rewrites those of a changed finished game, so no join with ``games``
    is needed (the page reads only the summary rows)."""
    return R.version >= 0


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class RawPreset:
    variant: str
    games: int
    mean: float
    best: int
    worst: int
    kniffel_games: int
    kniffels: int
    bonus: tuple[int, ...]  # games with the upper bonus, per column position
    recent: tuple[int, ...]  # the latest totals, newest first
    histogram: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class RawGame:
    game_id: str
    finished_at: datetime
    variant: str
    total: int
    place: int
    seats: int
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class RawFigures:
    key: str
    name: str
    games: int
    wins: int
    contested: int
    contested_wins: int
    reviewed: int
    accuracy: float | None
    loss: float
    decisions: int
    presets: tuple[RawPreset, ...]
    opponents: tuple[tuple[str, str, int, int, int, int], ...]  # key, name, games, >, <, =
    latest: tuple[RawGame, ...]


def _width(low: int, high: int) -> int:
    return next(
        w
        for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**6)
        if (high - low + 1) / w <= BINS - 1 or w == 10**6
    )


def figures(connection: Connection, key: str, latest: int = 20) -> RawFigures | None:
    """Everything the player page shows of ``key``, or ``None`` without a finished game."""
    mine = and_(_current(), R.player == key)
    won = case((R.place == 1, 1), else_=0)
    contested = case((R.seats > 1, 1), else_=0)
    overall = connection.execute(
        select(
            func.count(),
            func.sum(won),
            func.sum(contested),
            func.sum(case((and_(R.seats > 1, R.place == 1), 1), else_=0)),
            func.count(R.accuracy),
            func.avg(R.accuracy),
            func.sum(case((R.accuracy.is_not(None), R.loss), else_=0.0)),
            func.sum(case((R.accuracy.is_not(None), R.decisions), else_=0)),
        )
        .select_from(R)
        .where(_current(), R.player == key)
    ).one()
    if not overall[0]:
        return None
    name = connection.execute(
        select(func.coalesce(R.linked, R.name))
        .select_from(R)
        .where(_current(), R.player == key)
        .order_by(R.finished_at.desc())
        .limit(1)
    ).scalar_one()
    bonus_sums = [
        func.sum(case((func.substr(R.bonus, i + 1, 1) == "1", 1), else_=0))
        for i in range(MAX_COLUMNS)
    ]
    per_variant = connection.execute(
        select(
            R.variant,
            func.count(),
            func.avg(R.total),
            func.max(R.total),
            func.min(R.total),
            func.sum(case((R.kniffels > 0, 1), else_=0)),
            func.sum(R.kniffels),
            *bonus_sums,
        )
        .select_from(R)
        .where(_current(), R.player == key)
        .group_by(R.variant)
        .order_by(func.count().desc(), R.variant)
    ).all()
    presets = []
    for variant, games, mean, best, worst, kniffel_games, kniffels, *bonus in per_variant:
        recent = connection.scalars(
            select(R.total)
            .select_from(R)
            .where(_current(), R.player == key, R.variant == variant)
            .order_by(R.finished_at.desc(), R.game_id.desc())
            .limit(RECENT)
        ).all()
        width = _width(worst, best)
        start = worst - worst % width
        bucket = (R.total - literal(start)) // literal(width)
        counts: dict[int, int] = {}
        for index, count in connection.execute(
            select(bucket, func.count())
            .select_from(R)
            .where(_current(), R.player == key, R.variant == variant)
            .group_by(bucket)
        ).all():
            counts[int(index)] = int(count)
        last = (best - start) // width
        presets.append(
            RawPreset(
                variant=variant,
                games=games,
                mean=float(mean),
                best=best,
                worst=worst,
                kniffel_games=kniffel_games,
                kniffels=kniffels,
                bonus=tuple(int(b or 0) for b in bonus),
                recent=tuple(recent),
                histogram=tuple(
                    (start + i * width, start + (i + 1) * width, int(counts.get(i, 0)))
                    for i in range(last + 1)
                ),
            )
        )
    other = aliased(R)
    tallies = connection.execute(
        select(
            other.player,
            func.max(func.coalesce(other.linked, other.name)),
            func.count(),
            func.sum(case((R.total > other.total, 1), else_=0)),
            func.sum(case((R.total < other.total, 1), else_=0)),
            func.sum(case((R.total == other.total, 1), else_=0)),
        )
        .select_from(R)
        .join(
            other,
            and_(
                other.game_id == R.game_id,
                other.seat != R.seat,
                other.version == R.version,
                other.player != key,
            ),
        )
        .where(mine)
        .group_by(other.player)
        .order_by(func.count().desc(), other.player)
    ).all()
    games_rows = connection.execute(
        select(R.game_id, R.finished_at, R.variant, R.total, R.place, R.seats, R.accuracy)
        .select_from(R)
        .where(_current(), R.player == key)
        .order_by(R.finished_at.desc(), R.game_id.desc())
        .limit(latest)
    ).all()
    return RawFigures(
        key=key,
        name=str(name).strip(),
        games=overall[0],
        wins=int(overall[1] or 0),
        contested=int(overall[2] or 0),
        contested_wins=int(overall[3] or 0),
        reviewed=int(overall[4] or 0),
        accuracy=None if overall[5] is None else float(overall[5]),
        loss=float(overall[6] or 0.0),
        decisions=int(overall[7] or 0),
        presets=tuple(presets),
        opponents=tuple(
            (k, str(n).strip(), int(g), int(a or 0), int(b or 0), int(c or 0))
            for k, n, g, a, b, c in tallies
        ),
        latest=tuple(RawGame(g, _utc(at), v, t, p, s, a) for g, at, v, t, p, s, a in games_rows),
    )


def series(connection: Connection, key: str) -> list[tuple[str, int, float | None]]:
    """Every finished game of ``key``, oldest first: (variant, total, accuracy), for charts."""
    return [
        (v, t, a)
        for v, t, a in connection.execute(
            select(R.variant, R.total, R.accuracy)
            .select_from(R)
            .where(_current(), R.player == key)
            .order_by(R.finished_at, R.game_id)
        ).all()
    ]


def leaders(connection: Connection) -> list[tuple[str, str, str, int, float, int, int]]:
    """Per preset and player (bots left out): variant, key, name, games, mean, best, wins."""
    rows = connection.execute(
        select(
            R.variant,
            R.player,
            func.max(func.coalesce(R.linked, R.name)),
            func.count(),
            func.avg(R.total),
            func.max(R.total),
            func.sum(case((R.place == 1, 1), else_=0)),
        )
        .select_from(R)
        .where(_current(), R.bot.is_(False))
        .group_by(R.variant, R.player)
    ).all()
    return [
        (v, k, str(n).strip(), int(g), float(m), int(b), int(w or 0))
        for v, k, n, g, m, b, w in rows
    ]


def players(connection: Connection) -> list[tuple[str, str, int, int, int, int, bool]]:
    """Every player: key, name, games, wins, contested games, contested wins, only a bot."""
    rows = connection.execute(
        select(
            R.player,
            func.max(func.coalesce(R.linked, R.name)),
            func.count(),
            func.sum(case((R.place == 1, 1), else_=0)),
            func.sum(case((R.seats > 1, 1), else_=0)),
            func.sum(case((and_(R.seats > 1, R.place == 1), 1), else_=0)),
            func.min(case((R.bot.is_(True), 1), else_=0)),
        )
        .select_from(R)
        .where(_current())
        .group_by(R.player)
        .order_by(func.count().desc(), R.player)
    ).all()
    return [
        (k, str(n).strip(), int(g), int(w or 0), int(c or 0), int(cw or 0), bool(b))
        for k, n, g, w, c, cw, b in rows
    ]
