"""The games evening: ``games.evening`` and ``games.revanche`` (docs/board.md, "Revanche").

Revision ID: 0007_games_evening
Revises: 0006_player_key_nfkc
Create Date: 2026-12-06

Two nullable columns and an index: plain ADD COLUMN, no table is copied and no game is
replayed. Games stored before stand alone (no evening, no Revanche).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_games_evening"
down_revision = "0006_player_key_nfkc"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("evening", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("revanche", sa.String(32), nullable=True))
    op.create_index("ix_games_evening", "games", ["evening"])


def downgrade() -> None:
    op.drop_index("ix_games_evening", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("revanche")
        batch.drop_column("evening")
