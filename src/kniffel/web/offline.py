"""The board installed and offline: the service worker at ``/sw.js`` (docs/board.md,
"Installing the board"; docs/decisions.md, "The board offline").

The worker's version is a hash of the page's static files and of the worker itself: a release
that changes any of them gives the browser a new worker, which caches the new files whole before
it takes over. The hash is worked out again only when a file's size or time changes.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import Response

import kniffel

__all__ = [
    "PYODIDE",
    "RULES_FILES",
    "RULES_PATH",
    "WORKER",
    "install",
    "rules_zip",
    "worker_script",
]

#: The worker's source; :func:`worker_script` puts its version and files in front.
WORKER = Path(__file__).parent / "worker" / "sw.js"


#: Pyodide's files under ``static/``: fetched only by a page that runs the rules, and cached by
#: the worker in a cache of their own when first fetched (not with every release's files).
PYODIDE = "pyodide"
#: The rules package as the page runs it in Pyodide: pure standard-library Python.
RULES_FILES = ("__init__.py", "record.py", "offline.py", "rules/*.py")
#: Where the page fetches them.
RULES_PATH = "/offline/kniffel.zip"
_PACKAGE = Path(kniffel.__file__).parent


def _static_files(static: Path) -> list[Path]:
    """The files every page may load from ``/static/`` (hidden files and Pyodide left out)."""
    return sorted(
        path
        for path in static.rglob("*")
        if path.is_file()
        and not any(p.startswith(".") for p in path.relative_to(static).parts)
        and path.relative_to(static).parts[0] != PYODIDE
    )


def _rules_sources() -> list[Path]:
    return [path for pattern in RULES_FILES for path in sorted(_PACKAGE.glob(pattern))]


def _pyodide(static: Path) -> list[Path]:
    return sorted(path for path in (static / PYODIDE).glob("*") if path.is_file())


def rules_zip() -> bytes:
    """``kniffel/`` with the rules alone, as a zip for the page's Pyodide."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _rules_sources():
            name = "kniffel/" + path.relative_to(_PACKAGE).as_posix()
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _signature(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    return tuple((str(path), (st := path.stat()).st_size, st.st_mtime_ns) for path in paths)


class _Script:
    """The worker script of one static folder, made again when a file changes."""

    def __init__(self, static: Path) -> None:
        self.static = static
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._script = b""

    def __call__(self) -> bytes:
        files = _static_files(self.static)
        signature = _signature([*files, WORKER, *_rules_sources(), *_pyodide(self.static)])
        if signature != self._signature:
            self._script = worker_script(self.static, files)
            self._signature = signature
        return self._script


def worker_script(static: Path, files: list[Path]) -> bytes:
    """``/sw.js``: the worker's source after its ``VERSION``, ``FILES`` (cached at install:
    the static files and the rules for the page's Pyodide) and ``PYODIDE`` (the version of
    Pyodide's files, cached when first fetched and kept across the board's releases)."""
    source = WORKER.read_bytes()
    digest = hashlib.sha256(kniffel.__version__.encode())
    digest.update(source)
    paths = []
    for path in files:
        name = path.relative_to(static).as_posix()
        paths.append(f"/static/{name}")
        digest.update(name.encode() + b"\0" + path.read_bytes())
    digest.update(rules_zip())
    paths.append(RULES_PATH)
    pyodide = hashlib.sha256()
    for path in _pyodide(static):  # the same on every server process: names, sizes, the lock
        pyodide.update(f"{path.name}\0{path.stat().st_size}\0".encode())
        if path.suffix == ".json":
            pyodide.update(path.read_bytes())
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const FILES = {json.dumps(paths)};\n"
        f"const PYODIDE = {json.dumps(pyodide.hexdigest()[:16])};\n"
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

    @router.get(RULES_PATH)
    def rules_archive() -> Response:
        return Response(rules_zip(), media_type="application/zip")

    app.include_router(router)
