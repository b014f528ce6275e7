"""The CSV downloads: ``/export/spiele.csv`` (every seat of every finished game) and
``/export/spieler.csv`` (every player's figures per preset).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from kniffel.web.pages.players import players_of

__all__ = ["exports"]

exports = APIRouter(include_in_schema=False)


@exports.get("/export/spiele.csv")
async def games_csv_download(request: Request) -> Response:
    """Every seat of every finished game as CSV (the columns of ``kniffel export --csv``)."""
    text = await run_in_threadpool(players_of(request).games_csv)
    return _csv(text, "kniffel-spiele.csv")


@exports.get("/export/spieler.csv")
async def players_csv_download(request: Request) -> Response:
    """Every player's figures per preset as CSV."""
    text = await run_in_threadpool(players_of(request).players_csv)
    return _csv(text, "kniffel-spieler.csv")


def _csv(text: bytes, filename: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
