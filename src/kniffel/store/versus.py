"""Tallies against each opponent, kept per pair of seats of every finished game.

A player page shows, per opponent, how often the player's total was higher, lower or
equal in the games both played (docs/board.md, "Spieler und Bestenliste"). Joining a
player's summary rows with the other seats of the same games cost about a third of the
page's queries over 10,000 games (docs/benchmarks.md, "Player pages over years of games"),
so each ordered pair of seats of a summarised game gets one ``player_versus`` row (the
player, the opponent, the opponent's shown name, and the comparison as -1, 0 or +1), read
through the covering index ``ix_player_versus_player``. The rows are rewritten from the
``player_results`` rows whenever those are (:func:`fill`): by the store's sync, by a link
to another name, and by migration ``0005_player_versus`` for the games summarised before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    ForeignKey,
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

__all__ = ["PLAYER_VERSUS", "fill", "tallies"]


#: One row per ordered pair of seats of a finished game: who was ahead of whom.
PLAYER_VERSUS = Table(
    "player_versus",
    METADATA,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("other", Integer, primary_key=True),  # the opponent's seat
    Column("version", Integer, nullable=False),  # as the summary rows: -1 while unfinished
    Column("player", String(200), nullable=False),
    Column("opponent", String(200), nullable=False),
    Column("opponent_name", String(200), nullable=False),
    Column("outcome", Integer, nullable=False),  # +1 ahead, -1 behind, 0 tied
    Index("ix_player_versus_player", "player", "opponent", "version", "outcome", "opponent_name"),
)


def fill(connection: Connection, game_ids: Sequence[str] | None = None) -> None:
    """Rewrite the pairs of ``game_ids`` (``None``: of every game) from their summary rows."""
    if game_ids is not None and not game_ids:
        return  # before the statements are built: most syncs of a read find nothing new
    seat_rows, other_rows = PLAYER_RESULTS.alias("a"), PLAYER_RESULTS.alias("b")
    a, b = seat_rows.c, other_rows.c
    pairs = (
        select(
            a.game_id,
            a.seat,
            b.seat,
            a.version,
            a.player,
            b.player,
            func.coalesce(b.linked, b.name),
            case((a.total > b.total, 1), (a.total < b.total, -1), else_=0),
        )
        .select_from(seat_rows)
        .join(other_rows, and_(b.game_id == a.game_id, b.seat != a.seat))
    )
    clear: Any = delete(PLAYER_VERSUS)
    if game_ids is not None:
        pairs = pairs.where(a.game_id.in_(game_ids))
        clear = clear.where(PLAYER_VERSUS.c.game_id.in_(game_ids))
    connection.execute(clear)
    connection.execute(
        insert(PLAYER_VERSUS).from_select(
            [
                "game_id",
                "seat",
                "other",
                "version",
                "player",
                "opponent",
                "opponent_name",
                "outcome",
            ],
            pairs,
        )
    )


def tallies(connection: Connection, key: str) -> list[tuple[str, str, int, int, int, int]]:
    """Per opponent of ``key`` (most games first): key, name, games, ahead, behind, tied."""
    V = PLAYER_VERSUS.c
    rows = connection.execute(
        select(
            V.opponent,
            func.max(V.opponent_name),
            func.count(),
            func.sum(case((V.outcome > 0, 1), else_=0)),
            func.sum(case((V.outcome < 0, 1), else_=0)),
            func.sum(case((V.outcome == 0, 1), else_=0)),
        )
        .where(V.player == key, V.opponent != key, V.version >= 0)
        .group_by(V.opponent)
        .order_by(func.count().desc(), V.opponent)
    ).all()
    return [
        (k, str(n).strip(), int(g), int(x or 0), int(y or 0), int(z or 0))
        for k, n, g, x, y, z in rows
    ]
