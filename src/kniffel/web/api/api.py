"""The JSON API under ``/api``: everything the board's pages do, for programs.

Every route goes through :class:`~kniffel.board.service.GameService`, the same
object the pages use; errors are answered in one place (``errors.py``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Security, status
from fastapi.responses import JSONResponse, Response
from fastapi.security import APIKeyHeader, APIKeyQuery

from kniffel.board.service import GameService, GameView, preview_of
from kniffel.kept import Kept
from kniffel.rules import MAX_ROLLS
from kniffel.web.api.schemas import (
    CreatedGame,
    EventBody,
    GameState,
    GameSummaryOut,
    ImportRecord,
    NewGameBody,
    PreviewOut,
    RecordDocument,
    RollBody,
    entries_of,
    state_of,
)

__all__ = ["STATES_KEPT", "preview_bytes", "router", "state_bytes", "state_response"]

#: Game states kept as JSON per app, by (game id, version): a state never changes, so every
#: device at a table that fetches the new version after a change gets the same bytes, encoded
#: once (docs/benchmarks.md, "Load").
STATES_KEPT = 512

router = APIRouter(tags=["games"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "the rules (or the board) refuse it"},
    404: {"description": "there is no such game"},
    422: {"description": "the request is malformed"},
}
_CHANGE_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    403: {"description": "the key is missing or wrong"},
    409: {"description": "the game has changed meanwhile"},
}

_key_header = APIKeyHeader(name="X-Kniffel-Key", auto_error=False, scheme_name="KeyHeader")
_key_query = APIKeyQuery(name="key", auto_error=False, scheme_name="KeyQuery")


# The dependencies are ``async def`` because they do no I/O: FastAPI runs a plain ``def``
# dependency in the thread pool, a hand-over to a worker thread and back for every request
# (docs/benchmarks.md, "Load").
async def service(request: Request) -> GameService:
    board: GameService = request.app.state.service
    return board


Board = Annotated[GameService, Depends(service)]


def _service(request: Request) -> GameService:
    """:func:`service` for the hot routes, called, not solved: a dependency costs the request
    FastAPI's solving of it (docs/benchmarks.md, "Load")."""
    board: GameService = request.app.state.service
    return board


async def game_key(
    header: Annotated[str | None, Security(_key_header)],
    query: Annotated[str | None, Security(_key_query)],
) -> str | None:
    """The game's key, from the ``X-Kniffel-Key`` header or the ``key`` query parameter."""
    return header or query


Key = Annotated[str | None, Depends(game_key)]
#: For reading routes that take the key but do not need it (advice, analysis, review, chances:
#: anyone may read; only a key holder starts a solver table's build): the spec says the key is
#: optional (an empty security requirement beside the key's).
OPTIONAL_KEY: dict[str, Any] = {"security": [{}]}
#: The query of the advice routes (the Tipp for points and for the win): dice thrown at the table.
TableDice = Annotated[
    str | None,
    Query(description="physical dice thrown but not recorded, e.g. 66655 (before a roll)"),
]
Rolls = Annotated[int, Query(ge=1, le=MAX_ROLLS, description="how many rolls made those dice")]
Top = Annotated[int, Query(ge=1, le=500, description="how many choices to list")]


def _states(request: Request) -> Kept[tuple[str, int], bytes]:
    kept: Kept[tuple[str, int], bytes] = request.app.state.states  # one per app (create_app)
    return kept


def state_bytes(states: Kept[tuple[str, int], bytes], view: GameView) -> bytes:
    """The ``GameState`` of ``view`` as JSON, encoded once per game version (kept in
    ``states``, the app's)."""

    def encode() -> bytes:
        return GameState.model_validate(state_of(view)).model_dump_json().encode()

    return states.get((view.id, view.version), encode)


def state_response(request: Request, view: GameView) -> Response:
    """The ``GameState`` of ``view`` as JSON, encoded once per game version."""
    return Response(state_bytes(_states(request), view), media_type="application/json")


def preview_bytes(view: GameView, dice: str | None) -> bytes:
    """The ``PreviewOut`` of ``dice`` (default: the rolled dice) in ``view`` as JSON: encoded
    by its model without checking again what was built from checked parts."""
    result = preview_of(view, dice)
    answer = PreviewOut.model_construct(
        player=result.player,
        dice=None if result.dice is None else list(result.dice.faces),
        entries=entries_of(result.entries),
    )
    return answer.model_dump_json().encode()


def _created(view: GameView) -> dict[str, Any]:
    # The key in the fragment, as on the board's own play link: a browser never sends it, so
    # it reaches no log and no proxy (docs/architecture.md, "Security").
    return {**state_of(view), "key": view.key, "url": f"/g/{view.id}#key={view.key}"}


# The games' hot routes first: a request passes every route before its own, twice (FastAPI
# 0.165 finds the router, then the route), and a table's devices mostly read the state, preview
# dice and enter them (docs/benchmarks.md, "Load").


@router.get(
    "/games/{game_id}", response_model=GameState, responses=_ERRORS, summary="A game's state"
)
async def get_game(game_id: str, request: Request) -> Response:
    return state_response(request, await _service(request).get_async(game_id))


@router.post(
    "/games/{game_id}/events",
    response_model=GameState,
    responses=_CHANGE_ERRORS,
    summary="Add an event: roll (physical dice), enter, edit, clear or undo",
)
async def post_event(game_id: str, body: EventBody, key: Key, request: Request) -> Response:
    event = body.event.model_dump(exclude_none=True)
    view = await _service(request).apply_async(game_id, key, event, body.expected_version)
    return state_response(request, view)


@router.get(
    "/games/{game_id}/preview",
    response_model=PreviewOut,
    responses=_ERRORS,
    summary="What the dice would score in each allowed cell for the player to move",
)
async def preview(
    game_id: str,
    request: Request,
    dice: Annotated[
        str | None, Query(description="five faces, e.g. 66655; default: the rolled dice")
    ] = None,
) -> Response:
    # The route's model documents the answer (docs/benchmarks.md, "Load").
    body = preview_bytes(await _service(request).get_async(game_id), dice)
    return Response(body, media_type="application/json")


@router.post(
    "/games",
    status_code=status.HTTP_201_CREATED,
    response_model=CreatedGame,
    responses=_ERRORS,
    summary="Start a new game",
)
def create_game(body: NewGameBody, board: Board) -> dict[str, Any]:
    options = body.options.model_dump(exclude_none=True) if body.options else {}
    view = board.create(body.variant, options, body.players, body.dice_mode, dict(body.bots))
    return _created(view)


@router.get(
    "/games",
    response_model=list[GameSummaryOut],
    responses=_ERRORS,
    summary="List games, most recently changed first",
)
def list_games(
    board: Board, finished: Annotated[bool | None, Query()] = None
) -> list[dict[str, Any]]:
    return [
        {name: getattr(summary, name) for name in GameSummaryOut.model_fields}
        for summary in board.list_games(finished)
    ]


@router.post(
    "/games/{game_id}/roll",
    response_model=GameState,
    responses=_CHANGE_ERRORS,
    summary="Virtual dice: the board rolls for the player to move",
)
async def roll(game_id: str, body: RollBody, key: Key, board: Board, request: Request) -> Response:
    view = await board.roll_async(game_id, key, body.player, body.keep, body.expected_version)
    return state_response(request, view)


@router.post(
    "/games/{game_id}/revanche",
    response_model=CreatedGame,
    responses=_CHANGE_ERRORS,
    summary="Revanche: the next game with the same players, rules and dice mode",
)
def revanche(game_id: str, key: Key, board: Board) -> dict[str, Any]:
    """The finished game's Revanche (docs/api.md): the next player starts; started once, so
    every call (another device's too) answers with the same game. Its watchers are taken
    there."""
    return _created(board.revanche(game_id, key))


@router.get(
    "/games/{game_id}/record",
    response_model=RecordDocument,
    responses=_ERRORS,
    summary="The game as a kniffel-record/1 file",
)
def export_record(game_id: str, board: Board) -> JSONResponse:
    document = board.export_record(game_id)
    return JSONResponse(
        document,
        headers={"Content-Disposition": f'attachment; filename="kniffel-{game_id}.json"'},
    )


@router.post(
    "/records",
    status_code=status.HTTP_201_CREATED,
    response_model=CreatedGame,
    responses=_ERRORS,
    summary="Import a kniffel-record/1 file as a new game",
)
def import_record(body: ImportRecord, board: Board) -> dict[str, Any]:
    return _created(board.import_record(body.model_dump(exclude_none=True)))
