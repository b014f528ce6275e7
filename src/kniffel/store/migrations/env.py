"""Alembic environment: runs on the connection the store hands over.

The store calls ``alembic.command.upgrade`` itself at start, so there is no
alembic.ini; ``config.attributes["connection"]`` carries the open connection.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from kniffel.store.models import METADATA


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        render_as_batch=True,  # SQLite can alter tables only by copying them
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    # ``alembic -x url=... revision --autogenerate`` from a developer's shell.
    url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///kniffel-dev.db")
    with create_engine(url).connect() as fresh:
        _run(fresh)


# Alembic runs this file inside its environment; anything else that imports it
# (pytest's doctest collection) finds no ``context.config`` and nothing to do.
if hasattr(context, "config"):
    _main()
