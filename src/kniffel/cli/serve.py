"""``kniffel serve``: run the board."""

from __future__ import annotations

import click

__all__ = ["serve_command"]


@click.command("serve")
@click.option("--db", metavar="URL", help="SQLAlchemy database URL (env KNIFFEL_DB).")
@click.option("--host", help="Address to listen on (env KNIFFEL_HOST; default 127.0.0.1).")
@click.option("--port", type=int, help="Port to listen on (env KNIFFEL_PORT; default 8000).")
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    metavar="BYTES",
    help="Largest request body taken; larger ones are answered 413 "
    "(env KNIFFEL_MAX_BODY; default 1048576, 1 MiB).",
)
def serve_command(db: str | None, host: str | None, port: int | None, max_body: int | None) -> None:
    """Serve the board on http://127.0.0.1:8000 (the default command).

    Games are kept in an SQLite file in your data directory unless --db or
    KNIFFEL_DB names another database, e.g. sqlite:///path/to/k.db or
    postgresql+psycopg://user:password@host/db.
    """
    # Imported here so that ``kniffel replay`` does not load the web stack.
    import uvicorn

    from kniffel.settings import Settings
    from kniffel.web.app import create_app

    settings = Settings()
    updates = {"db": db, "host": host, "port": port, "max_body": max_body}
    settings = settings.model_copy(update={k: v for k, v in updates.items() if v is not None})
    click.echo(
        f"Die Tafel: http://{settings.host}:{settings.port}/  (games in {_shown(settings.db)})"
    )
    # The sans-I/O WebSocket protocol: uvicorn's older one warns with websockets >= 14.
    uvicorn.run(
        create_app(settings), host=settings.host, port=settings.port, ws="websockets-sansio"
    )


def _shown(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)
