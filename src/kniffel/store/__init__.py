"""The store of games and events (SQLAlchemy 2, migrated by Alembic at start)."""

from __future__ import annotations

from kniffel.store.database import migrate, open_engine
from kniffel.store.player_totals import PLAYER_TOTALS  # registers its tables with the models
from kniffel.store.repository import (
    Append,
    Appended,
    GameStore,
    NewGame,
    StoredGame,
    VersionConflict,
    VersionsUnavailable,
)
from kniffel.store.results import ResultStore, player_key
from kniffel.store.summary import Summary, summary_of
from kniffel.store.versus import PLAYER_VERSUS  # registers its table with the models

__all__ = [
    "PLAYER_TOTALS",
    "PLAYER_VERSUS",
    "Append",
    "Appended",
    "GameStore",
    "NewGame",
    "ResultStore",
    "StoredGame",
    "Summary",
    "VersionConflict",
    "VersionsUnavailable",
    "migrate",
    "open_engine",
    "player_key",
    "summary_of",
]
