"""Player results: an index for a player's games in time order.

Revision ID: 0004_player_results_order
Revises: 0003_player_results
Create Date: 2026-12-01

The player page reads a player's latest games (benchmarks/players.py).
"""

from __future__ import annotations

from alembic import op

revision = "0004_player_results_order"
down_revision = "0003_player_results"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_player_results_player_finished", "player_results", ["player", "finished_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_player_results_player_finished", table_name="player_results")
