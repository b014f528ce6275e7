"""Player results: one summary row per seat of every finished game.

Revision ID: 0003_player_results
Revises: 0002_game_summary
Create Date: 2026-11-30

The rows of the games finished before are filled here (each such game is
replayed once); afterwards the store keeps them up to date
(kniffel.store.results, docs/board.md "Spieler und Bestenliste").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_player_results"
down_revision = "0002_game_summary"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_results",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("linked", sa.String(200), nullable=True),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.String(400), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("bonus", sa.String(16), nullable=False),
        sa.Column("kniffels", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("decisions", sa.Integer(), nullable=True),
        sa.Column("bot", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_player_results_player", "player_results", ["player", "variant"])
    op.create_index("ix_player_results_finished", "player_results", ["finished_at"])
    from kniffel.store.results import sync_connection

    sync_connection(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_player_results_finished", table_name="player_results")
    op.drop_index("ix_player_results_player", table_name="player_results")
    op.drop_table("player_results")
