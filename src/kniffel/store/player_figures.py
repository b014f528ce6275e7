"""A player's figures and the leaderboard, aggregated by the database.

The player page must answer quickly over years of games (benchmarks/players.py:
10,000 finished games), so the sums, means, rates and the opponents' tallies are
``GROUP BY`` queries over the summary rows (:mod:`kniffel.store.results`); only
the few numbers come back to Python. A row counts when its game is finished and
the row was written at the game's current version.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Select, and_, case, func, select

from kniffel.rules import PRESETS
from kniffel.store import versus
from kniffel.store.models import PLAYER_RESULTS

__all__ = [
    "RawFigures",
    "RawPreset",
    "bins",
    "every_figures",
    "figures",
    "leader_rows",
    "leaders",
    "series",
    "shown_name",
    "totals",
]

#: Columns of the widest preset with all its optional columns (the bonus string has one
#: character per column): Jamb's six. Three, Rauf-Runter's, made every Jamb player's figures fail.
MAX_COLUMNS = max(len(v.columns) + len(v.optional) for v in PRESETS.values())
#: Histogram bins per preset, of a round width.
BINS = 10
RECENT = 10

#: The summary rows' columns, the one table this module reads (besides the pairs of seats).
R = PLAYER_RESULTS.c


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
    options: tuple[tuple[str, int], ...] = ()  # (options as canonical JSON, games), most first


@dataclass(frozen=True, slots=True)
class RawGame:
    """One finished game of the player, for the history and the charts."""

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


def bins(counts: dict[int, int]) -> tuple[tuple[int, int, int], ...]:
    """A histogram of round width ``(from, below, count)`` from the count of each total."""
    worst, best = min(counts), max(counts)
    width = _width(worst, best)
    start = worst - worst % width
    binned = [0] * ((best - start) // width + 1)
    for total, count in counts.items():
        binned[(total - start) // width] += count
    return tuple((start + i * width, start + (i + 1) * width, n) for i, n in enumerate(binned))


def _per_total(key: str | None) -> Any:
    """One pass over the player's rows (``None``: every player's, grouped by player first),
    grouped by preset, options and total: every sum the page needs."""
    bonus_sums = [
        func.sum(case((func.substr(R.bonus, i + 1, 1) == "1", 1), else_=0))
        for i in range(MAX_COLUMNS)
    ]
    query = (
        select(
            R.variant,
            R.options,
            R.total,
            func.count(),
            func.sum(case((R.place == 1, 1), else_=0)),
            func.sum(case((R.seats > 1, 1), else_=0)),
            func.sum(case((and_(R.seats > 1, R.place == 1), 1), else_=0)),
            func.count(R.accuracy),
            func.sum(R.accuracy),
            func.sum(case((R.accuracy.is_not(None), R.loss), else_=0.0)),
            func.sum(case((R.accuracy.is_not(None), R.decisions), else_=0)),
            func.sum(case((R.kniffels > 0, 1), else_=0)),
            func.sum(R.kniffels),
            *bonus_sums,
        )
        .select_from(PLAYER_RESULTS)
        .where(_current())
    )
    if key is not None:
        return query.where(R.player == key).group_by(R.variant, R.options, R.total)
    return (
        query.add_columns(R.player)
        .group_by(R.player, R.variant, R.options, R.total)
        .order_by(R.player)
    )


def totals(connection: Connection, key: str, variant: str) -> dict[int, int]:
    """How often ``key`` made each total in ``variant`` (for the histogram chart)."""
    return {
        int(total): int(n)
        for total, n in connection.execute(
            select(R.total, func.count())
            .select_from(PLAYER_RESULTS)
            .where(_current(), R.player == key, R.variant == variant)
            .group_by(R.total)
        ).all()
    }


def shown_name(connection: Connection, key: str) -> str | None:
    """The name shown for ``key``: the spelling of its latest game."""
    found = connection.execute(
        select(func.coalesce(R.linked, R.name))
        .select_from(PLAYER_RESULTS)
        .where(_current(), R.player == key)
        .order_by(R.finished_at.desc(), R.game_id.desc())
        .limit(1)
    ).scalar()
    return None if found is None else str(found).strip()


def figures(connection: Connection, key: str, latest: int = 20) -> RawFigures | None:
    """Everything the player page shows of ``key``, or ``None`` without a finished game.

    One pass over the player's rows grouped by preset, options and total gives the overall and
    per-preset figures and the histograms; the tallies against each opponent come from
    the pairs of seats (:mod:`kniffel.store.versus`, a covering index); the latest games
    (and per preset the last ten totals) are read newest first through the index
    ``ix_player_results_player_finished``.
    """
    groups = connection.execute(_per_total(key)).all()
    if not groups:
        return None
    overall, per = _fold(groups)
    games_rows = connection.execute(
        select(
            R.game_id,
            R.finished_at,
            R.variant,
            R.total,
            R.place,
            R.seats,
            R.accuracy,
            func.coalesce(R.linked, R.name),
        )
        .select_from(PLAYER_RESULTS)
        .where(_current(), R.player == key)
        .order_by(R.finished_at.desc(), R.game_id.desc())
        .limit(latest)
    ).all()
    recent = {
        variant: tuple(
            connection.scalars(
                select(R.total)
                .select_from(PLAYER_RESULTS)
                .where(_current(), R.player == key, R.variant == variant)
                .order_by(R.finished_at.desc(), R.game_id.desc())
                .limit(RECENT)
            ).all()
        )
        for variant in per
    }
    return _raw(
        key,
        str(games_rows[0][7]),
        overall,
        per,
        recent,
        opponents=tuple(versus.tallies(connection, key)),
        latest=tuple(RawGame(g, _utc(at), v, t, p, s, a) for g, at, v, t, p, s, a, _ in games_rows),
    )


def _fold(groups: Any) -> tuple[list[Any], dict[str, dict[str, Any]]]:
    """The overall sums and, per preset, the counts by total, by options and the other sums,
    from the rows of :func:`_per_total`."""
    overall = [0] * 4 + [0, 0.0, 0.0, 0]
    per: dict[str, dict[str, Any]] = {}
    for (
        variant,
        options,
        total,
        n,
        won,
        cont,
        cont_won,
        rated,
        acc,
        loss,
        dec,
        kg,
        kn,
        *bonus,
    ) in groups:
        for i, value in enumerate((n, won, cont, cont_won, rated, acc, loss, dec)):
            overall[i] += value or 0
        entry = per.setdefault(
            variant,
            {
                "counts": {},
                "options": {},
                "kniffel_games": 0,
                "kniffels": 0,
                "bonus": [0] * MAX_COLUMNS,
            },
        )
        entry["counts"][int(total)] = entry["counts"].get(int(total), 0) + int(n)
        entry["options"][options] = entry["options"].get(options, 0) + int(n)
        entry["kniffel_games"] += int(kg or 0)
        entry["kniffels"] += int(kn or 0)
        entry["bonus"] = [a + int(b or 0) for a, b in zip(entry["bonus"], bonus, strict=True)]
    return overall, per


def _raw(
    key: str,
    name: str,
    overall: list[Any],
    per: dict[str, dict[str, Any]],
    recent: dict[str, tuple[int, ...]],
    *,
    opponents: tuple[tuple[str, str, int, int, int, int], ...] = (),
    latest: tuple[RawGame, ...] = (),
    histogram: bool = True,
) -> RawFigures:
    presets = []
    for variant, entry in sorted(
        per.items(), key=lambda kv: (-sum(kv[1]["counts"].values()), kv[0])
    ):
        counts: dict[int, int] = entry["counts"]
        games = sum(counts.values())
        presets.append(
            RawPreset(
                variant=variant,
                games=games,
                mean=sum(t * n for t, n in counts.items()) / games,
                best=max(counts),
                worst=min(counts),
                kniffel_games=entry["kniffel_games"],
                kniffels=entry["kniffels"],
                bonus=tuple(entry["bonus"]),
                recent=recent[variant],
                histogram=bins(counts) if histogram else (),
                options=tuple(sorted(entry["options"].items(), key=lambda kv: (-kv[1], kv[0]))),
            )
        )
    rated = int(overall[4])
    return RawFigures(
        key=key,
        name=name.strip(),
        games=int(overall[0]),
        wins=int(overall[1]),
        contested=int(overall[2]),
        contested_wins=int(overall[3]),
        reviewed=rated,
        accuracy=float(overall[5]) / rated if rated else None,
        loss=float(overall[6]),
        decisions=int(overall[7]),
        presets=tuple(presets),
        opponents=opponents,
        latest=latest,
    )


def every_figures(
    connection: Connection, keys: Collection[str] | None = None
) -> Iterator[RawFigures]:
    """Every player's figures (by key), without the opponents, the latest games and the
    histograms: what the players' CSV shows (docs/cli.md, ``kniffel export``).

    Three queries whatever the number of players (the player page's :func:`figures` per
    player made an export of 1,000 players cost about 20 CPU-seconds): the sums grouped by
    player, preset, options and total; each player's latest name; and the last
    :data:`RECENT` totals per player and preset, numbered by a window function. ``keys``: only
    these players' (what a change touched, issue 33).
    """
    newest = (R.finished_at.desc(), R.game_id.desc())
    chosen: Any = _current() if keys is None else and_(_current(), R.player.in_(sorted(keys)))
    latest_name = select(
        R.player,
        func.coalesce(R.linked, R.name).label("name"),
        func.row_number().over(partition_by=R.player, order_by=newest).label("n"),
    ).where(chosen)
    named = latest_name.subquery()
    names = dict(
        connection.execute(select(named.c.player, named.c.name).where(named.c.n == 1)).all()
    )
    numbered = (
        select(
            R.player,
            R.variant,
            R.total,
            func.row_number().over(partition_by=(R.player, R.variant), order_by=newest).label("n"),
        )
        .where(chosen)
        .subquery()
    )
    recent: dict[tuple[str, str], list[int]] = {}
    for player, variant, total in connection.execute(
        select(numbered.c.player, numbered.c.variant, numbered.c.total)
        .where(numbered.c.n <= RECENT)
        .order_by(numbered.c.player, numbered.c.variant, numbered.c.n)
    ):
        recent.setdefault((player, variant), []).append(int(total))
    rows = connection.execute(_per_total(None).where(chosen)).all()
    start = 0
    while start < len(rows):
        key = rows[start][-1]
        end = start
        while end < len(rows) and rows[end][-1] == key:
            end += 1
        overall, per = _fold(row[:-1] for row in rows[start:end])
        yield _raw(
            key,
            str(names[key]),
            overall,
            per,
            {variant: tuple(recent[key, variant]) for variant in per},
            histogram=False,
        )
        start = end


def series(connection: Connection, key: str) -> list[tuple[str, int, float | None]]:
    """Every finished game of ``key``, oldest first: (variant, total, accuracy), for charts."""
    return [
        (v, t, a)
        for v, t, a in connection.execute(
            select(R.variant, R.total, R.accuracy)
            .select_from(PLAYER_RESULTS)
            .where(_current(), R.player == key)
            .order_by(R.finished_at, R.game_id)
        ).all()
    ]


def leader_rows(where: Any) -> Select[Any]:
    """Per preset and player of the rows ``where`` selects (bots left out): variant, key,
    name, games, mean, best, wins; the one grouping of the leaderboard (also the sums kept on
    write, :mod:`kniffel.store.player_totals`)."""
    return (
        select(
            R.variant,
            R.player,
            func.max(func.coalesce(R.linked, R.name)),
            func.count(),
            func.avg(R.total),
            func.max(R.total),
            func.sum(case((R.place == 1, 1), else_=0)),
        )
        .select_from(PLAYER_RESULTS)
        .where(where, R.bot.is_(False))
        .group_by(R.variant, R.player)
    )


def leaders(connection: Connection) -> list[tuple[str, str, str, int, float, int, int]]:
    """Per preset and player (bots left out): variant, key, name, games, mean, best, wins."""
    rows = connection.execute(leader_rows(_current())).all()
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
        .select_from(PLAYER_RESULTS)
        .where(_current())
        .group_by(R.player)
        .order_by(func.count().desc(), R.player)
    ).all()
    return [
        (k, str(n).strip(), int(g), int(w or 0), int(c or 0), int(cw or 0), bool(b))
        for k, n, g, w, c, cw, b in rows
    ]
