"""The board installed and offline: the service worker at ``/sw.js`` (docs/board.md,
"Installing the board"; docs/decisions.md, "The board offline").

The worker's version is a hash of the page's static files and of the worker itself: a release
that changes any of them gives the browser a new worker, which caches the new files whole before
it takes over. The hash is worked out again only when a file's size or time changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import Response

import kniffel

__all__ = ["WORKER", "install", "worker_script"]

#: The worker's source; :func:`worker_script` puts its version and files in front.
WORKER = Path(__file__).parent / "worker" / "sw.js"


def _static_files(static: Path) -> list[Path]:
    """The files the pages load from ``/static/`` (hidden files left out)."""
    return sorted(
        path
        for path in static.rglob("*")
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(static).parts)
    )


def _signature(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    return tuple((str(path), (st := path.stat()).st_size, st.st_mtime_ns) for path in paths)


class _Script:
    """The worker script of one static folder, made again when a file changes."""

    def __init__(self, static: Path) -> None:
        self.static = static
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._script = b""

    def __call__(self) -> bytes:
        files = [*_static_files(self.static), WORKER]
        signature = _signature(files)
        if signature != self._signature:
            self._script = worker_script(self.static, files[:-1])
            self._signature = signature
        return self._script


def worker_script(static: Path, files: list[Path]) -> bytes:
    """``/sw.js``: the worker's source after its ``VERSION`` and ``FILES``."""
    source = WORKER.read_bytes()
    digest = hashlib.sha256(kniffel.__version__.encode())
    digest.update(source)
    paths = []
    for path in files:
        name = path.relative_to(static).as_posix()
        paths.append(f"/static/{name}")
        digest.update(name.encode() + b"\0" + path.read_bytes())
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const FILES = {json.dumps(paths)};\n"
    )
    return head.encode() + source


def install(app: FastAPI, static: Path) -> None:
    """``GET /sw.js`` on ``app``, caching the files of ``static``."""
    script = _Script(static)
    router = APIRouter(include_in_schema=False)

    @router.get("/sw.js")
    def service_worker() -> Response:
        return Response(
            script(),
            media_type="text/javascript",
            # Checked at every visit: a new release is seen at once (the browser compares bytes).
            headers={"cache-control": "no-cache"},
        )

    app.include_router(router)
