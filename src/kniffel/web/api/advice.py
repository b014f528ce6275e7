"""The Tipp and the analysis as JSON for programs (docs/api.md).

- ``GET /api/games/{id}/advice``: the best choices of the player to move, each
  with the expected final total (:func:`kniffel.solver.advice.position.evaluate`),
  what it costs against the best, and the chances of the upper bonus and of a
  Kniffel now and after it (:mod:`kniffel.solver.advice.reasons`).
- ``GET /api/games/{id}/analysis``: each decision of the game beside the best
  one, and the expected loss per player (made with the game's review, off the request:
  202 ``analysis_pending`` until it is there).

Both only read the game: no key is needed, as for watching it, once the game's
solver tables are built; a request never builds one (:mod:`kniffel.web.api.tables`). Their
pages are :mod:`kniffel.web.pages.advice_pages`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from kniffel.board.advice import AdviceService
from kniffel.board.queued import Busy
from kniffel.board.reviews import ReviewService
from kniffel.board.service import GameView
from kniffel.rules import MAX_ROLLS, Dice
from kniffel.web import rendering
from kniffel.web.api import pending, tables
from kniffel.web.api.api import OPTIONAL_KEY, Key, Rolls, TableDice, Top

if TYPE_CHECKING:  # the solver (numpy) is imported by the first request that needs it
    from kniffel.board.advice import Analysis, Position, Reasons

__all__ = ["advice_service", "analysis_asked", "position_of", "reasons_within", "router"]

#: How long the JSON API waits for simulated reasons before it answers ``chances_pending``
#: (seconds).
API_REASONS_WAIT = 0.5

api = APIRouter(tags=["advice"])
router = APIRouter()

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "nothing to advise (the game is over), or bad dice"},
    **tables.GAME_RESPONSES,
}


class RollChoice(BaseModel):
    """Roll, keeping ``keep`` (none: roll all dice); the expected final total after it."""

    action: Literal["roll"]
    keep: list[int]
    label: str
    expected: float


class EnterChoice(BaseModel):
    """Enter the dice into ``cell`` for ``points``; the expected final total after it."""

    action: Literal["enter"]
    cell: str
    points: int
    label: str
    expected: float


class AnnounceChoice(BaseModel):
    """Announce ``cell`` of the announce column right after the first roll (Jamb's Najava,
    Yams' annoncée); the bot's heuristic worth after it."""

    action: Literal["announce"]
    cell: str
    label: str
    expected: float


ChoiceOut = Annotated[RollChoice | EnterChoice | AnnounceChoice, Field(discriminator="action")]


class ChancesOut(BaseModel):
    """Playing on like the best bot: per column (by id) the chance of the upper bonus
    (63 or more in its upper rows by the end), and the chance that a Kniffel cell that is
    open now gets its 50 (``null`` when none is open)."""

    bonus: dict[str, float]
    kniffel: float | None


class _Reasoned(BaseModel):
    cost: float = Field(description="expected points this choice costs against the best")
    chances: ChancesOut | None = Field(description="the chances after this choice")


class AdviceRollChoice(RollChoice, _Reasoned):
    """A keep (or the roll before the turn's first), with its cost and the chances after it."""


class AdviceEnterChoice(EnterChoice, _Reasoned):
    """An entry, with its cost and the chances after it."""


class AdviceAnnounceChoice(AnnounceChoice, _Reasoned):
    """An announcement, with its cost (no chances: Jamb and Yams have no reasons)."""


AdviceChoiceOut = Annotated[
    AdviceRollChoice | AdviceEnterChoice | AdviceAnnounceChoice, Field(discriminator="action")
]


class AdviceOut(BaseModel):
    player: str
    rolls: int
    dice: list[int] | None
    exact: bool
    source: Literal["exact", "estimate", "heuristic"] = Field(
        description="what the values are: exact (one-column Kniffel sheets, the solver's "
        "optimum), estimate (several columns: the turn exact, the rest the best bot's "
        "calibrated estimate) or heuristic (Jamb and Yams with sèche or annoncée: the best "
        "family bot's own worth, not an optimum; no chances, see docs/solver.md)"
    )
    expected: float
    choices: list[AdviceChoiceOut]
    chances: ChancesOut | None = Field(
        description="the chances now, playing on like the best bot (null while pending and "
        "no first answer is there)"
    )
    chances_method: Literal["exact", "simulation"] = Field(
        description="exact: carried through the solver's recursion (one-column presets, once "
        "their chance table is built); simulation: this turn exactly, then shares of seeded "
        "games of the best bot from each end state of the turn (docs/solver.md)"
    )
    samples: int = Field(description="simulated games read over the turn's end states (0: exact)")
    chances_half_width: float = Field(
        description="the widest 95 % half-width of a figure of `chances` (0 when exact; "
        "0.02 or less for final simulated figures unless the bound of work came first)"
    )
    chances_pending: bool = Field(
        description="true: the final simulated chances are still being worked out in the "
        "background, ask again (docs/api.md); `chances` are null, or a first answer "
        "(`chances_first`)"
    )
    chances_first: bool = Field(
        description="true: `chances` (now and per choice) are a first answer within a small "
        "bound of work, with their wider interval (`chances_half_width`); the final ones "
        "follow"
    )
    chances_progress: float = Field(description="how far their computation is, 0 to 1")


class DecisionOut(BaseModel):
    event: int
    turn: int
    player: str
    dice: list[int]
    rolls: int | None
    choice: ChoiceOut
    best: ChoiceOut
    loss: float


class PlayerLossOut(BaseModel):
    loss: float
    decisions: int


class AnalysisOut(BaseModel):
    variant: str
    exact: bool
    source: Literal["exact", "estimate", "heuristic"] = Field(
        description="what the values are, as in the advice (heuristic: Jamb and Yams, each "
        "decision against the best family bot's choice)"
    )
    finished: bool
    decisions: list[DecisionOut]
    players: dict[str, PlayerLossOut]


# --------------------------------------------------------------------- reading


def advice_service(request: Request) -> AdviceService:
    found: AdviceService = request.app.state.advice
    return found


def position_of(request: Request, view: GameView, dice: Dice | None, rolls: int) -> Position:
    """The Tipp's position: dice typed at the table count only before any roll is recorded."""
    return advice_service(request).position(view, dice, rolls)


def reasons_within(
    request: Request, view: GameView, position: Position, top: int, seconds: float
) -> Reasons | float:
    """The chances now and after each of the first ``top`` choices (exact where the
    variant's chance table is built, else simulated in the background), waiting at most
    ``seconds`` for simulated ones; else how far their computation is (0 to 1)."""
    advising = advice_service(request)
    exact = advising.exact_ready(tables.builds(request), view.variant)
    return advising.reasons_within(view, position, top, exact, seconds)


def analysis_asked(request: Request, view: GameView) -> Analysis | float | Busy:
    """The analysis of a stored game at its version if it is kept; else how far the review
    queue is with it (queued), or :class:`Busy` when that queue is full."""
    reviewing: ReviewService = request.app.state.reviews
    try:
        return reviewing.analysis_of(view, tables.client_of(request))
    except Busy as busy:
        return busy


# ------------------------------------------------------------------------ JSON


@api.get(
    "/games/{game_id}/advice",
    openapi_extra=OPTIONAL_KEY,
    response_model=AdviceOut,
    responses=_ERRORS,
    summary="Tipp: the best choices of the player to move, with expected final totals, "
    "their cost against the best and the chances of the upper bonus and of a Kniffel",
)
def advice(
    game_id: str,
    request: Request,
    dice: TableDice = None,
    rolls: Rolls = MAX_ROLLS,
    top: Top = 5,
    key: Key = None,
) -> dict[str, Any]:
    advising = advice_service(request)
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    position = position_of(request, view, None if dice is None else Dice.parse(dice), rolls)
    one_column = len(view.variant.columns) == 1
    heuristic = advising.heuristic(view.variant)
    # Simulated reasons are worked out in the background: the answer waits a moment for
    # them and otherwise says they are pending (ask again), never a long request. The
    # heuristic Tipp of Jamb and Yams has none (nothing pending either).
    found = None if heuristic else reasons_within(request, view, position, top, API_REASONS_WAIT)
    done = None if isinstance(found, float) else found
    refining = None if done is None else done.refining  # a first answer: how far the final
    first = refining is not None
    if isinstance(found, float):
        progress = round(found, 2)
    else:
        progress = 1.0 if refining is None else round(refining, 2)
    after = done.after if done is not None else [None] * len(position.choices[:top])
    best = position.expected
    return {
        "player": position.player,
        "rolls": position.rolls,
        "dice": None if position.dice is None else list(position.dice.faces),
        "exact": advising.is_exact(view.variant),
        "source": _source(advising, view),
        "expected": best,
        "choices": [
            {
                **advising.choice_dict(c, one_column),
                "cost": best - c.expected,
                "chances": None if a is None else a.as_dict(),
            }
            for c, a in zip(position.choices[:top], after, strict=True)
        ],
        "chances": None if done is None else done.now.as_dict(),
        "chances_method": "simulation" if done is None else done.method,
        "samples": 0 if done is None else done.samples,
        "chances_half_width": 0.0 if done is None else done.half_width,
        "chances_pending": isinstance(found, float) or first,
        "chances_first": first,
        "chances_progress": progress,
    }


def _source(advising: AdviceService, view: GameView) -> str:
    if advising.heuristic(view.variant):
        return "heuristic"
    return "exact" if advising.is_exact(view.variant) else "estimate"


@api.get(
    "/games/{game_id}/analysis",
    openapi_extra=OPTIONAL_KEY,
    response_model=AnalysisOut,
    responses={**pending.responses("reviews_busy"), 400: _ERRORS[400]},
    summary="Each decision of the game beside the best one, and the expected loss per player",
)
def analysis(
    game_id: str,
    request: Request,
    top: Annotated[
        int | None, Query(ge=1, description="list only the N costliest decisions")
    ] = None,
    key: Key = None,
) -> dict[str, Any] | JSONResponse:
    """The analysis is made with the game's review, off the request: the first request for
    a game version queues it and answers 202 ``analysis_pending`` (``params.progress``,
    ``Retry-After``); 503 ``reviews_busy`` when the queue is full (docs/api.md, "Answers
    that fill in")."""
    view = rendering.service(request).get(game_id)
    tables.ensure(request, view, key)
    found = analysis_asked(request, view)
    if isinstance(found, Busy):
        return pending.busy_answer("reviews_busy", "many reviews are", found)
    if isinstance(found, float):
        what = "the analysis of this game version is"
        return pending.pending_answer("analysis_pending", what, found, pending.ASK_AGAIN)
    return found.as_dict(top)


router.include_router(api, prefix="/api")
