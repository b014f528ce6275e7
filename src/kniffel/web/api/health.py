"""``GET /healthz``: 200 only while the database answers, for load balancers and orchestrators."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from kniffel.board.opening import OpenBoard

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    board: OpenBoard = request.app.state.board
    if await run_in_threadpool(board.reachable):
        return JSONResponse({"status": "ok"})
    return JSONResponse(
        {"detail": "the database cannot be reached"},
        status_code=503,
        headers={"Retry-After": "5", "Cache-Control": "no-store"},
    )
