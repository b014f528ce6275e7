"""Player keys in NFKC case folding: ``Ｅｖａ`` and ``Eva`` are one player.

Revision ID: 0006_player_key_nfkc
Revises: 0005_player_versus
Create Date: 2026-12-02

``player_results.player`` was the name case folded; it is now
:func:`kniffel.store.player_key` (NFKC and case folding, docs/board.md "Players"). Only names
with compatibility forms (full-width letters, ligatures, …) change; their rows and the games'
``player_versus`` rows are written again here. Nothing is replayed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_player_key_nfkc"
down_revision = "0005_player_versus"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from kniffel.rules.names import player_key
    from kniffel.store.versus import fill

    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT game_id, seat, name, linked, player FROM player_results")
    ).all()
    changed: set[str] = set()
    for game_id, seat, name, linked, player in rows:
        key = player_key(linked or name)
        if key != player:
            connection.execute(
                sa.text(
                    "UPDATE player_results SET player = :key WHERE game_id = :game AND seat = :seat"
                ),
                {"key": key, "game": game_id, "seat": seat},
            )
            changed.add(game_id)
    if changed:
        fill(connection, sorted(changed))


def downgrade() -> None:
    """The old keys are not kept; the new ones group at least as much."""
