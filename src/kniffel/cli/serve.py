"""``kniffel serve``: run the board."""

from __future__ import annotations

import os

import click

__all__ = ["serve_command"]

#: Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests in flight before it closes them.
GRACEFUL_SECONDS = 20


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
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    help="Server processes on the port (env KNIFFEL_WORKERS; default 1); more needs PostgreSQL.",
)
@click.option(
    "--metrics/--no-metrics",
    default=None,
    help="Prometheus metrics at /metrics (env KNIFFEL_METRICS; default off).",
)
def serve_command(
    db: str | None,
    host: str | None,
    port: int | None,
    max_body: int | None,
    workers: int | None,
    metrics: bool | None,
) -> None:
    """Serve the board on http://127.0.0.1:8000 (the default command).

    Games are kept in an SQLite file in your data directory unless --db or
    KNIFFEL_DB names another database, e.g. sqlite:///path/to/k.db or
    postgresql+psycopg://user:password@host/db. SIGTERM finishes the requests
    in flight and closes live sockets with code 1012, so clients reconnect.
    """
    # Imported here so that ``kniffel replay`` does not load the web stack.
    import uvicorn
    from sqlalchemy import make_url

    from kniffel.settings import Settings

    settings = Settings()
    updates = {
        "db": db,
        "host": host,
        "port": port,
        "max_body": max_body,
        "workers": workers,
        "metrics": metrics,
    }
    settings = settings.model_copy(update={k: v for k, v in updates.items() if v is not None})
    _check_db(settings.db)
    _check_opens(settings.db)
    if settings.workers > 1 and make_url(settings.db).get_backend_name() == "sqlite":
        raise click.UsageError(
            f"--workers {settings.workers} needs PostgreSQL: with SQLite run one process "
            "(live updates reach only the watchers of the process that stored the change)"
        )
    click.echo(
        f"Die Tafel: http://{settings.host}:{settings.port}/  (games in {_shown(settings.db)})"
    )
    common = {
        "host": settings.host,
        "port": settings.port,
        # The sans-I/O WebSocket protocol: uvicorn's older one warns with websockets >= 14.
        "ws": "websockets-sansio",
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
    }
    if settings.workers == 1:
        from kniffel.web.app import create_app

        uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
        return
    # Every worker is a fresh process that builds its app from the environment.
    os.environ.update(
        {
            "KNIFFEL_DB": settings.db,
            "KNIFFEL_HOST": settings.host,
            "KNIFFEL_PORT": str(settings.port),
            "KNIFFEL_MAX_BODY": str(settings.max_body),
            "KNIFFEL_WORKERS": str(settings.workers),
            "KNIFFEL_METRICS": "1" if settings.metrics else "0",
        }
    )
    uvicorn.run(
        "kniffel.web.app:create_app",
        factory=True,
        workers=settings.workers,
        **common,  # type: ignore[arg-type]
    )


def _shown(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)


def _check_db(url: str) -> None:
    """A database URL the board can open, or one plain line and exit status 2."""
    from sqlalchemy import exc, make_url

    hint = "use sqlite:///path/to/k.db or postgresql+psycopg://user:password@host/db"
    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
        if backend not in ("sqlite", "postgresql"):
            raise exc.ArgumentError(
                f"the board keeps its games in SQLite or PostgreSQL, not {backend}"
            )
        parsed.get_dialect()  # the driver must be installed
    except (exc.ArgumentError, exc.NoSuchModuleError, ValueError) as error:
        shown = url if "@" not in url else "the --db URL"
        click.echo(
            f"--db {shown}: not a database URL the board can use ({error}); {hint}", err=True
        )
        raise SystemExit(2) from None


def _check_opens(url: str) -> None:
    """The database opens (and is migrated) now, or one plain line and exit status 2.

    Without this, a database that cannot be reached or written fails inside the server's
    start-up, as a traceback.
    """
    from sqlalchemy import exc

    from kniffel.store import GameStore

    try:
        GameStore.open(url).close()
    except (exc.SQLAlchemyError, OSError) as error:
        shown = url if "@" not in url else "the --db URL"
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        click.echo(f"--db {shown}: the database cannot be opened ({reason})", err=True)
        raise SystemExit(2) from None
