"""The two tables of the store: games and their events.

A game row holds what never changes after creation (variant, options, players,
dice mode, bot seats, key, the games evening) plus the summary columns kept for listing without a
replay (``version`` = number of stored events, ``finished``, ``turns``,
``totals``, ``winners``), written in the same transaction as each event. The
events are the game record's events in order; the engine state is their replay.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    text,
)

__all__ = ["EVENTS", "GAMES", "METADATA", "PLAYER_RESULTS"]

#: Every table of the store, as SQLAlchemy Core tables: the store reads and writes with Core
#: statements only, and the ORM's import and mappers cost every start about 0.2 s of CPU
#: (docs/benchmarks.md, "Start"). The pairs of seats (``PLAYER_VERSUS``) join it from
#: :mod:`kniffel.store.versus`.
METADATA = MetaData()

GAMES = Table(
    "games",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("key", String(64), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("dice_mode", String(16), nullable=False),
    Column("bots", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("version", Integer, nullable=False, default=0),
    # The summary of the replay at ``version`` (kniffel.store.summary), for lists.
    Column("turns", Integer, nullable=False, default=0, server_default="0"),
    Column("totals", JSON, nullable=False, default=list, server_default=text("'[]'")),
    Column("winners", JSON, nullable=False, default=list, server_default=text("'[]'")),
    # The games evening (docs/board.md, "Revanche"): ``evening`` is the id of the evening's
    # first game on every game of an evening (``None`` for a game alone); ``revanche`` is the
    # id of the game a Revanche started after this one, set once (it makes the Revanche
    # idempotent).
    Column("evening", String(32), nullable=True),
    Column("revanche", String(32), nullable=True),
    Index("ix_games_finished_updated", "finished", "updated_at"),
    Index("ix_games_evening", "evening"),
)

EVENTS = Table(
    "events",
    METADATA,
    # (game_id, seq) is the primary key: two writers can never store the same
    # event number of a game, whatever the database.
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("payload", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


#: One row per seat of each finished game (``PLAYER_RESULTS.c.version`` is the game's version when
#: summarised, -1 while the game is no longer finished).
PLAYER_RESULTS = Table(
    "player_results",
    METADATA,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, nullable=False),  # the game's version when summarised
    Column("name", String(200), nullable=False),  # as typed in the game
    Column("linked", String(200), nullable=True),
    Column("player", String(200), nullable=False),  # player_key(linked or name)
    Column("variant", String(32), nullable=False),
    Column("options", String(400), nullable=False),  # the options as canonical JSON
    Column("seats", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("place", Integer, nullable=False),  # 1 = won (ties share the place)
    Column("bonus", String(16), nullable=False),  # "1"/"0" per column: upper bonus reached
    Column("kniffels", Integer, nullable=False),  # Kniffel cells with 50 plus extra Kniffels
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("accuracy", Float, nullable=True),
    Column("loss", Float, nullable=True),
    Column("decisions", Integer, nullable=True),
    Column("bot", Boolean, nullable=False, default=False),
    Index("ix_player_results_player", "player", "variant"),
    Index("ix_player_results_finished", "finished_at"),
    Index("ix_player_results_player_finished", "player", "finished_at"),
)
