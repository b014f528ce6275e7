"""Each player's sums, kept on write: what the players' list and the leaderboard read.

The players' list (``/spieler``, ``GET /api/players``) and the leaderboard (the start page,
``/spieler``) grouped every summary row (:mod:`kniffel.store.results`) on the first read after
any finished game: about 0.7 CPU-s with 10,000 players over 100,000 games, and anybody can
finish a game of their own (issue 33, docs/benchmarks.md "Keyless reads cold after a change").
So the sums are kept per player (``player_totals``) and per preset and player
(``player_leaders``, bots left out), rewritten from the summary rows of the players a change
touches (:func:`refresh`: by the store's sync, by a link to another name, and by migration
``0008_player_totals`` for every player), and a read takes one page of them through an index.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Index,
    Integer,
    String,
    Table,
    and_,
    case,
    delete,
    func,
    insert,
    select,
)

from kniffel.store.models import METADATA, PLAYER_RESULTS
from kniffel.store.player_figures import leader_rows

__all__ = ["PLAYER_LEADERS", "PLAYER_TOTALS", "count", "leaders", "page", "refresh", "variants"]

#: One row per player with a finished game: the players' list.
PLAYER_TOTALS = Table(
    "player_totals",
    METADATA,
    Column("player", String(200), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("contested", Integer, nullable=False),
    Column("contested_wins", Integer, nullable=False),
    Column("bot", Boolean, nullable=False),  # every seat of the player a bot's
    Index("ix_player_totals_games", "games", "player"),
)

#: One row per preset and player, bots' seats left out: the leaderboard.
PLAYER_LEADERS = Table(
    "player_leaders",
    METADATA,
    Column("variant", String(32), primary_key=True),
    Column("player", String(200), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("games", Integer, nullable=False),
    Column("mean", Float, nullable=False),
    Column("best", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Index("ix_player_leaders_mean", "variant", "mean", "games"),
)

#: At most this many keys in one ``IN`` (SQLite's limit on bound values is far above).
_CHUNK = 500

R = PLAYER_RESULTS.c


def refresh(connection: Connection, keys: Collection[str] | None = None) -> None:
    """Rewrite the sums of the players ``keys`` (``None``: of every player) from their current
    summary rows: a player whose rows no longer count loses their rows here."""
    if keys is None:
        connection.execute(delete(PLAYER_TOTALS))
        connection.execute(delete(PLAYER_LEADERS))
        _insert(connection, None)
        return
    ordered = sorted(set(keys))
    for start in range(0, len(ordered), _CHUNK):
        chunk = ordered[start : start + _CHUNK]
        connection.execute(delete(PLAYER_TOTALS).where(PLAYER_TOTALS.c.player.in_(chunk)))
        connection.execute(delete(PLAYER_LEADERS).where(PLAYER_LEADERS.c.player.in_(chunk)))
        _insert(connection, chunk)


def _insert(connection: Connection, keys: list[str] | None) -> None:
    where: Any = R.version >= 0
    if keys is not None:
        where = and_(where, R.player.in_(keys))
    totals = (
        select(
            R.player,
            func.max(func.coalesce(R.linked, R.name)),
            func.count(),
            func.sum(case((R.place == 1, 1), else_=0)),
            func.sum(case((R.seats > 1, 1), else_=0)),
            func.sum(case((and_(R.seats > 1, R.place == 1), 1), else_=0)),
            func.min(case((R.bot.is_(True), 1), else_=0)) == 1,
        )
        .where(where)
        .group_by(R.player)
    )
    connection.execute(
        insert(PLAYER_TOTALS).from_select(
            ["player", "name", "games", "wins", "contested", "contested_wins", "bot"], totals
        )
    )
    board = leader_rows(where)
    connection.execute(
        insert(PLAYER_LEADERS).from_select(
            ["variant", "player", "name", "games", "mean", "best", "wins"], board
        )
    )


def count(connection: Connection) -> int:
    """How many players have a finished game."""
    return int(connection.execute(select(func.count()).select_from(PLAYER_TOTALS)).scalar_one())


def page(
    connection: Connection, first: int, last: int | None
) -> list[tuple[str, str, int, int, int, int, bool]]:
    """The players ``first`` … ``last`` (not included), most games first: key, name, games,
    wins, contested games, contested wins, only a bot."""
    T = PLAYER_TOTALS.c
    query = (
        select(T.player, T.name, T.games, T.wins, T.contested, T.contested_wins, T.bot)
        .order_by(T.games.desc(), T.player)
        .offset(first)
    )
    if last is not None:
        query = query.limit(max(0, last - first))
    return [
        (k, str(n).strip(), int(g), int(w), int(c), int(cw), bool(b))
        for k, n, g, w, c, cw, b in connection.execute(query).all()
    ]


def variants(connection: Connection) -> dict[str, int]:
    """Each preset on the leaderboard with its number of players."""
    L = PLAYER_LEADERS.c
    return {
        str(v): int(n)
        for v, n in connection.execute(select(L.variant, func.count()).group_by(L.variant)).all()
    }


def leaders(
    connection: Connection, variant: str, first: int, last: int | None
) -> list[tuple[str, str, str, int, float, int, int]]:
    """The leaderboard of ``variant``, places ``first`` … ``last`` (not included), best mean
    first: variant, key, name, games, mean, best, wins."""
    L = PLAYER_LEADERS.c
    query = (
        select(L.variant, L.player, L.name, L.games, L.mean, L.best, L.wins)
        .where(L.variant == variant)
        .order_by(L.mean.desc(), L.games.desc(), L.player)
        .offset(first)
    )
    if last is not None:
        query = query.limit(max(0, last - first))
    return [
        (v, k, str(n).strip(), int(g), float(m), int(b), int(w or 0))
        for v, k, n, g, m, b, w in connection.execute(query).all()
    ]
