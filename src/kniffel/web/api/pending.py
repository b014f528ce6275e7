"""Answers that fill in (docs/api.md): figures no request works out, asked for again.

A reading route whose figures a :class:`~kniffel.board.queued.Queued` works out answers 202
with ``{"code": "<what>_pending", "params": {"progress": p}, "message", "detail"}`` and
``Retry-After`` until they are there, and 503 with ``{"code": "<what>_busy", "params":
{"reason", "retry_after"}, ...}`` and ``Retry-After`` when the queue is full (nothing queued).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from kniffel.board.queued import Busy
from kniffel.web.api import tables

__all__ = ["ASK_AGAIN", "PendingBody", "busy_answer", "pending_answer", "responses"]

#: Seconds after which a client asks again for figures being worked out.
ASK_AGAIN = 2


class PendingBody(BaseModel):
    """202: the solver table is being built (``table_building``), or the figures are being
    worked out (``chances_pending``, ``review_pending``, ``analysis_pending``,
    ``wins_pending``); ask again (``params.progress``: 0 to 1)."""

    code: Literal[
        "table_building", "chances_pending", "review_pending", "analysis_pending", "wins_pending"
    ]
    params: dict[str, float]
    message: str


def responses(busy: str) -> dict[int | str, dict[str, Any]]:
    """What a route documents whose figures are queued, ``busy`` its 503's code."""
    return {
        **tables.GAME_RESPONSES,
        202: {"model": PendingBody, "description": "being built or worked out; ask again"},
        503: {
            **tables.GAME_RESPONSES[503],
            "description": (
                f"the table builds of new house rules (tables_busy) or the queue of this work "
                f"({busy}) are full; nothing was queued, ask again after Retry-After"
            ),
        },
    }


def pending_answer(code: str, what: str, progress: float, retry_after: int) -> JSONResponse:
    """202 ``code``: ``what`` (plain words) is being worked out, ``progress`` of it done."""
    line = f"{what} being worked out; ask again in {retry_after} seconds"
    return JSONResponse(
        {
            "code": code,
            "params": {"progress": round(progress, 2)},
            "message": line,
            "detail": line,  # every error body has it (docs/api.md), this one too
        },
        status_code=202,
        headers={"Retry-After": str(retry_after), "Cache-Control": "no-store"},
    )


def busy_answer(code: str, what: str, busy: Busy) -> JSONResponse:
    """503 ``code``: the queue of ``what`` (plain words) is full; nothing was queued."""
    line = f"{what} being worked out; nothing was queued, ask again in {busy.retry_after} seconds"
    return JSONResponse(
        {
            "code": code,
            "params": {"reason": busy.reason, "retry_after": busy.retry_after},
            "message": line,
            "detail": line,  # every error body has it (docs/api.md)
        },
        status_code=503,
        headers={"Retry-After": str(busy.retry_after)},
    )
