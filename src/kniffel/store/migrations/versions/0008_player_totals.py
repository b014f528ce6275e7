"""Player totals: each player's sums, and per preset the leaderboard's, kept on write.

Revision ID: 0008_player_totals
Revises: 0007_games_evening
Create Date: 2026-12-06

The players' list and the leaderboard read one page of these rows through an index instead
of grouping every summary row on the first read after a change (kniffel.store.player_totals,
docs/benchmarks.md "Keyless reads cold after a change"). They are filled here from
``player_results`` in two statements (nothing is replayed).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_player_totals"
down_revision = "0007_games_evening"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_totals",
        sa.Column("player", sa.String(200), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("contested", sa.Integer(), nullable=False),
        sa.Column("contested_wins", sa.Integer(), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_player_totals_games", "player_totals", ["games", "player"])
    op.create_table(
        "player_leaders",
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(200), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("mean", sa.Float(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_index("ix_player_leaders_mean", "player_leaders", ["variant", "mean", "games"])
    from kniffel.store.player_totals import refresh

    refresh(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_player_leaders_mean", table_name="player_leaders")
    op.drop_table("player_leaders")
    op.drop_index("ix_player_totals_games", table_name="player_totals")
    op.drop_table("player_totals")
