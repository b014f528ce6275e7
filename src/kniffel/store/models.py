"""The two tables of the store: games and their events.

A game row holds what never changes after creation (variant, options, players,
dice mode, bot seats, key) plus the summary columns kept for listing without a
replay (``version`` = number of stored events, ``finished``, ``turns``,
``totals``, ``winners``), written in the same transaction as each event. The
events are the game record's events in order; the engine state is their replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "EventRow", "GameRow"]


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    dice_mode: Mapped[str] = mapped_column(String(16))
    bots: Mapped[dict[str, str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # The summary of the replay at ``version`` (kniffel.store.summary), for lists.
    turns: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    totals: Mapped[list[int]] = mapped_column(JSON, default=list, server_default=text("'[]'"))
    winners: Mapped[list[str]] = mapped_column(JSON, default=list, server_default=text("'[]'"))

    __table_args__ = (Index("ix_games_finished_updated", "finished", "updated_at"),)


class EventRow(Base):
    __tablename__ = "events"

    # (game_id, seq) is the primary key: two writers can never store the same
    # event number of a game, whatever the database.
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
