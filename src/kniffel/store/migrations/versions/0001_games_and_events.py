"""Games and their events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("dice_mode", sa.String(16), nullable=False),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_finished_updated", "games", ["finished", "updated_at"])
    op.create_table(
        "events",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("ix_games_finished_updated", table_name="games")
    op.drop_table("games")
