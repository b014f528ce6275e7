"""A throwaway PostgreSQL server for tests (TOOLCHAIN.md), or a reason to skip."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binaries() -> Path | None:
    """The folder with initdb and pg_ctl, if PostgreSQL is installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent  # /usr/local/bin may hold only some links
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def missing() -> str | None:
    """Why a throwaway server cannot start here, or ``None`` when it can."""
    if binaries() is None:
        return "PostgreSQL is not installed (no initdb; `apt-get install postgresql` adds it)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a postgres user to run initdb as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to run initdb as postgres"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def throwaway_postgres(bin_dir: Path) -> Iterator[str]:
    """Start a server in a temporary folder; yields its SQLAlchemy URL."""
    root = Path(tempfile.mkdtemp(prefix="kniffel-pg-"))
    password = secrets.token_hex(8)
    port = _free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:
        # initdb refuses to run as root.
        as_user = ["runuser", "-u", "postgres", "--"]
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
    (root / "pw").write_text(password)
    if as_user:
        os.chown(root / "pw", owner.pw_uid, owner.pw_gid)

    def run(*command: str) -> None:
        done = subprocess.run(
            [*as_user, *command],
            stdin=subprocess.DEVNULL,  # a password prompt would hang forever
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")

    data = root / "data"
    try:
        run(
            str(bin_dir / "initdb"), "-D", str(data), "-U", "app", f"--pwfile={root / 'pw'}",
            "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale",
        )  # fmt: skip
        run(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w",
            "-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off", "start",
        )  # fmt: skip
        try:
            run(
                str(bin_dir / "createdb"),
                "-w",
                "-h",
                str(root),
                "-p",
                str(port),
                "-U",
                "app",
                "app",
            )
            yield f"postgresql+psycopg://app:{password}@127.0.0.1:{port}/app"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)


_DATABASES = itertools.count(1)


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server of ``server_url`` (a :func:`throwaway_postgres`);
    yields its SQLAlchemy URL and drops it afterwards, whoever is still connected."""
    import psycopg
    from sqlalchemy import make_url

    from kniffel.store.database import libpq_url

    name = f"module_{os.getpid()}_{next(_DATABASES)}"
    with psycopg.connect(libpq_url(server_url), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq_url(server_url), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
