"""Player versus: one row per ordered pair of seats of every summarised game.

Revision ID: 0005_player_versus
Revises: 0004_player_results_order
Create Date: 2026-12-01

The player page's tallies against each opponent read these rows through a covering
index instead of joining the summary rows (kniffel.store.versus,
docs/benchmarks.md "Player pages over years of games"). The rows of the games summarised
before are filled here from ``player_results`` in one statement (nothing is replayed).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_player_versus"
down_revision = "0004_player_results_order"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_versus",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("other", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("opponent", sa.String(200), nullable=False),
        sa.Column("opponent_name", sa.String(200), nullable=False),
        sa.Column("outcome", sa.Integer(), nullable=False),
    )
    op.create_index(
        "ix_player_versus_player",
        "player_versus",
        ["player", "opponent", "version", "outcome", "opponent_name"],
    )
    from kniffel.store.versus import fill

    fill(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_player_versus_player", table_name="player_versus")
    op.drop_table("player_versus")
