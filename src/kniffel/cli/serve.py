"""``kniffel serve``: run the board."""

from __future__ import annotations

import os
import sys

import click

__all__ = ["serve_command"]

#: Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests in flight before it closes them.
GRACEFUL_SECONDS = 20


def _public_url_option(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> str | None:
    from kniffel.settings import public_url_problem

    if value is None:
        return None
    if (problem := public_url_problem(value)) is not None:
        raise click.BadParameter(f"{value!r}: {problem}")
    return value.rstrip("/")


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
    "--max-ws-message",
    type=click.IntRange(64, 1024 * 1024),
    metavar="BYTES",
    help="Largest message a live socket takes; a larger one closes it with 1009 "
    "(env KNIFFEL_MAX_WS_MESSAGE; default 4096).",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0, min_open=True, max=3600),
    metavar="SECONDS",
    help="Time a request's line and headers may take to arrive; then the connection is "
    "closed (env KNIFFEL_HEADER_TIMEOUT; default 10).",
)
@click.option(
    "--max-active",
    type=click.IntRange(0, 10_000),
    metavar="N",
    help="Requests served at once; more wait for their turn, changes first "
    "(env KNIFFEL_MAX_ACTIVE; default 4; 0: no bound).",
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
@click.option(
    "--public-url",
    metavar="URL",
    callback=_public_url_option,
    help="Where phones reach the board, e.g. behind a proxy: every share link starts "
    "with it (env KNIFFEL_PUBLIC_URL; default: found from the address listened on).",
)
@click.option(
    "--ssl-certfile",
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE",
    help="Serve https with this certificate (PEM; passed to uvicorn): phones can then install "
    "the board (docs/board.md).",
)
@click.option(
    "--ssl-keyfile",
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE",
    help="The certificate's private key (PEM), unless --ssl-certfile holds it too.",
)
def serve_command(
    db: str | None,
    host: str | None,
    port: int | None,
    max_body: int | None,
    max_ws_message: int | None,
    header_timeout: float | None,
    max_active: int | None,
    workers: int | None,
    metrics: bool | None,
    public_url: str | None,
    ssl_certfile: str | None,
    ssl_keyfile: str | None,
) -> None:
    """Serve the board on http://127.0.0.1:8000 (the default command).

    Games are kept in an SQLite file in your data directory unless --db or
    KNIFFEL_DB names another database, e.g. sqlite:///path/to/k.db or
    postgresql+psycopg://user:password@host/db. SIGTERM finishes the requests
    in flight and closes live sockets with code 1012, so clients reconnect.
    """
    limit_library_threads()  # before anything imports numpy
    # Imported here so that ``kniffel replay`` does not load the web stack.
    import uvicorn
    from pydantic import ValidationError
    from sqlalchemy import make_url

    from kniffel.cli.table_place import setting_problem
    from kniffel.settings import Settings

    try:
        settings = Settings()
    except ValidationError as error:
        problems = "; ".join(setting_problem(e["loc"], e["msg"]) for e in error.errors())
        click.echo(f"settings from the environment refused: {problems}", err=True)
        raise SystemExit(2) from None
    updates = {
        "db": db,
        "host": host,
        "port": port,
        "max_body": max_body,
        "max_ws_message": max_ws_message,
        "header_timeout": header_timeout,
        "max_active": max_active,
        "workers": workers,
        "metrics": metrics,
        "public_url": public_url,
    }
    settings = settings.model_copy(update={k: v for k, v in updates.items() if v is not None})
    _check_db(settings.db)
    scheme = "https" if ssl_certfile else "http"
    if ssl_keyfile and not ssl_certfile:
        raise click.UsageError("--ssl-keyfile needs --ssl-certfile: the certificate it belongs to")
    if ssl_certfile:
        _check_certificate(ssl_certfile, ssl_keyfile)
    _check_opens(settings.db)
    if settings.workers > 1 and make_url(settings.db).get_backend_name() == "sqlite":
        raise click.UsageError(
            f"--workers {settings.workers} needs PostgreSQL: with SQLite run one process "
            "(live updates reach only the watchers of the process that stored the change)"
        )
    click.echo(
        f"Die Tafel: {scheme}://{_local_host(settings.host)}:{settings.port}/  "
        f"(games in {_shown(settings.db)})"
    )
    _print_joining(settings.host, settings.port, settings.public_url, scheme)
    from kniffel.web.serving import uvicorn_options

    common = {**uvicorn_options(settings), "timeout_graceful_shutdown": GRACEFUL_SECONDS}
    if ssl_certfile:
        common |= {"ssl_certfile": ssl_certfile, "ssl_keyfile": ssl_keyfile}
    if settings.workers == 1:
        from kniffel.web.app import create_app

        uvicorn.run(create_app(settings), **common)
        return
    # Every worker is a fresh process that builds its app from the environment.
    os.environ.update(
        {
            "KNIFFEL_DB": settings.db,
            "KNIFFEL_HOST": settings.host,
            "KNIFFEL_PORT": str(settings.port),
            "KNIFFEL_MAX_BODY": str(settings.max_body),
            "KNIFFEL_MAX_WS_MESSAGE": str(settings.max_ws_message),
            "KNIFFEL_HEADER_TIMEOUT": str(settings.header_timeout),
            "KNIFFEL_MAX_ACTIVE": str(settings.max_active),
            "KNIFFEL_WORKERS": str(settings.workers),
            "KNIFFEL_METRICS": "1" if settings.metrics else "0",
        }
    )
    if settings.public_url:
        os.environ["KNIFFEL_PUBLIC_URL"] = settings.public_url
    # A worker process imports its protocol by name; it reads KNIFFEL_HEADER_TIMEOUT.
    common["http"] = "kniffel.web.serving:FromEnvironment"
    uvicorn.run(
        "kniffel.web.app:create_app",
        factory=True,
        workers=settings.workers,
        **common,
    )


#: The math libraries' thread pools (OpenBLAS, OpenMP, MKL), read once when numpy loads them.
LIBRARY_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def limit_library_threads() -> None:
    """One thread in each math library's pool, unless the environment names another number.

    numpy's BLAS otherwise starts a pool of a thread per core when it loads, at the priority of
    the thread that loaded it, and hands its work to the pool: a background review at nice 10
    then ran its matrix work at nice 0 for minutes after the requests were answered (issue 33,
    item 5). With one thread the work runs in the thread that asked for it, at its priority
    (docs/deploy.md, "Limits"). Set here, before numpy is imported; worker processes inherit it.
    """
    for name in LIBRARY_THREADS:
        os.environ.setdefault(name, "1")


def _local_host(host: str) -> str:
    """The address this machine opens the board with (not ``0.0.0.0``, which names none)."""
    from kniffel.web.present.addresses import host_in_url, is_wildcard

    if is_wildcard(host):
        return "[::1]" if ":" in host else "127.0.0.1"
    return host_in_url(host)


def _check_certificate(certfile: str, keyfile: str | None) -> None:
    """The certificate and its key load, or one plain line and exit status 2."""
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError) as error:
        click.echo(
            f"--ssl-certfile {certfile}: the certificate and its key cannot be loaded "
            f"({error.strerror or error}); both must be PEM files",
            err=True,
        )
        raise SystemExit(2) from None


def _print_joining(host: str, port: int, public_url: str | None, scheme: str = "http") -> None:
    """Where phones at the table join, with a QR code of it (docs/board.md)."""
    from kniffel.web.present.addresses import (
        host_in_url,
        is_loopback,
        is_wildcard,
        network_addresses,
    )

    if public_url:
        urls = [f"{public_url}/"]
        click.echo(f"Phones join at {urls[0]} (--public-url)")
    elif is_loopback(host):
        click.echo(
            f"Only this computer can open it ({host} is loopback). To let phones at the "
            "table join, run: kniffel serve --host 0.0.0.0"
        )
        return
    elif is_wildcard(host):
        urls = [f"{scheme}://{host_in_url(address)}:{port}/" for address in network_addresses()]
        if not urls:
            click.echo(
                "No network address of this computer was found: phones join at its "
                f"address on your network, port {port}."
            )
            return
        for url in urls:
            click.echo(f"On the network: {url}")
    else:
        urls = [f"{scheme}://{host_in_url(host)}:{port}/"]
        click.echo(f"On the network: {urls[0]}")
    _print_qr(urls[0])


def _print_qr(url: str) -> None:
    """The QR code of ``url`` in half-block characters (painted black on white on a terminal)."""
    from kniffel.web.present.qr import qr_text

    stdout = sys.stdout
    text = qr_text(url, ansi=stdout.isatty() and not os.environ.get("NO_COLOR"))
    try:
        text.encode(stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return  # a terminal that cannot draw the blocks gets the address alone
    click.echo(f"Scan to open {url} on a phone:")
    click.echo(text)


def _shown(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)


def _check_db(url: str) -> None:
    """A database URL the board can open, or one plain line and exit status 2."""
    from sqlalchemy import exc, make_url

    from kniffel.store.database import DriverMissing, check_driver

    hint = "use sqlite:///path/to/k.db or postgresql+psycopg://user:password@host/db"
    try:
        check_driver(url)
    except DriverMissing as error:
        click.echo(f"--db {_shown(url)}: {error}", err=True)
        raise SystemExit(2) from None
    except (exc.ArgumentError, ValueError):
        pass  # not a URL: said below
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
    from kniffel.store.database import NewerSchema

    shown = url if "@" not in url else "the --db URL"
    doing = "opened"
    try:
        store = GameStore.open(url)
        try:
            doing = "written"  # a read-only database fails here, not at the first change
            store.check_writable()
        finally:
            store.close()
    except NewerSchema as error:
        click.echo(f"--db {shown}: {error}", err=True)
        raise SystemExit(2) from None
    except (exc.SQLAlchemyError, OSError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        click.echo(f"--db {shown}: the database cannot be {doing} ({reason})", err=True)
        raise SystemExit(2) from None
