"""Summary columns on games (turns, totals, winners), filled by replaying each stored game.

Lists (the start page, the history, ``GET /api/games``) read these columns
instead of replaying every game; the store writes them with each event
(docs/architecture.md, "Store").

Revision ID: 0002_game_summary
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002_game_summary"
down_revision = "0001"
branch_labels = None
depends_on = None

_games = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("variant", sa.String),
    sa.column("options", sa.JSON),
    sa.column("players", sa.JSON),
    sa.column("version", sa.Integer),
    sa.column("finished", sa.Boolean),
    sa.column("turns", sa.Integer),
    sa.column("totals", sa.JSON),
    sa.column("winners", sa.JSON),
)
_events = sa.table(
    "events",
    sa.column("game_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("payload", sa.JSON),
)


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it for columns with a constant default): no
    # table is copied, so no event row is touched.
    op.add_column("games", sa.Column("turns", sa.Integer(), nullable=False, server_default="0"))
    op.add_column(
        "games", sa.Column("totals", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
    )
    op.add_column(
        "games", sa.Column("winners", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
    )
    _fill(op.get_bind())


def _fill(connection: sa.Connection) -> None:
    """Replay every stored game once and write its summary."""
    # Imported here: the rules are needed only when there are games to fill.
    from kniffel.record import Record, replay
    from kniffel.rules import KniffelError
    from kniffel.store.summary import summary_of

    games = connection.execute(
        sa.select(
            _games.c.id, _games.c.variant, _games.c.options, _games.c.players, _games.c.version
        )
    ).all()
    for game_id, variant, options, players, version in games:
        events: list[dict[str, Any]] = [
            payload
            for (payload,) in connection.execute(
                sa.select(_events.c.payload)
                .where(_events.c.game_id == game_id, _events.c.seq <= version)
                .order_by(_events.c.seq)
            )
        ]
        try:
            game = replay(Record(variant, tuple(players), dict(options), tuple(events)))
        except KniffelError:
            continue  # a game the rules no longer accept keeps the empty summary
        summary = summary_of(game)
        connection.execute(
            sa.update(_games)
            .where(_games.c.id == game_id)
            .values(
                finished=summary.finished,
                turns=summary.turns,
                totals=list(summary.totals),
                winners=list(summary.winners),
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("winners")
        batch.drop_column("totals")
        batch.drop_column("turns")
