"""The JSON shapes of the API: request bodies and answers, as pydantic models.

They are the OpenAPI spec. Request fields are strict (``12.0``, ``true`` or
``"12"`` are not numbers, as in the record format); what they mean is checked
by the rules engine, which words the error messages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)

from kniffel.board.limits import MAX_KNIFFEL_BONUS, MAX_NAME
from kniffel.board.service import GameView
from kniffel.record import state_dict
from kniffel.rules import MAX_PLAYERS, EntryOption

__all__ = [
    "CreatedGame",
    "EventBody",
    "GameState",
    "GameSummaryOut",
    "ImportRecord",
    "NewGameBody",
    "PreviewOut",
    "RecordDocument",
    "RecordEvent",
    "RollBody",
    "entries_of",
    "state_of",
]


def _whole(value: object) -> object:
    # JSON Schema counts 12.0 as an integer, and so does the API; the record
    # format, stricter, is applied to imported files by the record reader.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Constraints go before the validator, or the spec loses them.
Whole = Annotated[StrictInt, BeforeValidator(_whole)]
Version = Annotated[StrictInt, Field(ge=0), BeforeValidator(_whole)]
Bonus = Annotated[StrictInt, Field(ge=0, le=MAX_KNIFFEL_BONUS), BeforeValidator(_whole)]

VariantName = Literal["kniffel", "yahtzee", "rauf-runter", "dreifach", "jamb", "yams"]
DiceMode = Literal["physical", "virtual"]
BotName = Literal["greedy", "best"]
PlayerName = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OptionsIn(_Body):
    """House rules to change from the variant's preset (docs/rules.md §6)."""

    chance: StrictBool | None = None
    pasch: Literal["all_dice", "matching_dice"] | None = None
    kniffel_bonus: Bonus | None = None
    joker: Literal["free", "forced", "none"] | None = None
    zero_only_upper: StrictBool | None = None
    # Jamb's house rules and the family's optional columns (docs/rules.md, "Jamb", "Yams"); a
    # preset refuses the ones it does not offer, in plain words (code unknown_option).
    trips_bonus: Literal[10, 20] | None = None
    straight_fixed: StrictBool | None = None
    sum2_bonus: StrictBool | None = None
    hand: StrictBool | None = None
    middle: StrictBool | None = None
    announce: StrictBool | None = None


class NewGameBody(_Body):
    """A new game, from the API's JSON and from the new-game form (``kniffel.web.pages.forms``):
    the one check of its shape; the service checks the rest (``kniffel.board.limits``, the
    rules engine) with coded refusals."""

    variant: VariantName = "rauf-runter"
    options: OptionsIn | None = None
    players: Annotated[list[PlayerName], Field(min_length=1, max_length=MAX_PLAYERS)]
    dice_mode: DiceMode = "physical"
    bots: dict[StrictStr, BotName] = Field(
        default_factory=dict, description="player name -> bot that plays that seat"
    )


# Record events (docs/record-format.md): extra fields are ignored, null means absent.
class RollEvent(BaseModel):
    type: Literal["roll"]
    player: StrictStr
    dice: list[Whole]
    keep: list[Whole] | None = None


class AnnounceEvent(BaseModel):
    """Jamb's Najava, Yams' annoncée (docs/record-format.md)."""

    type: Literal["announce"]
    player: StrictStr
    cell: StrictStr


class EnterEvent(BaseModel):
    type: Literal["enter"]
    player: StrictStr
    cell: StrictStr
    dice: list[Whole] | None = None
    points: Whole | None = None
    roll: Whole | None = Field(None, description="which roll made typed dice or points (1-3)")


class EditEvent(BaseModel):
    type: Literal["edit"]
    player: StrictStr
    cell: StrictStr
    points: Whole


class ClearEvent(BaseModel):
    type: Literal["clear"]
    player: StrictStr
    cell: StrictStr


class UndoEvent(BaseModel):
    type: Literal["undo"]


RecordEvent = Annotated[
    RollEvent | AnnounceEvent | EnterEvent | EditEvent | ClearEvent | UndoEvent,
    Field(discriminator="type"),
]


class EventBody(_Body):
    event: RecordEvent
    expected_version: Version | None = Field(
        default=None,
        description="the version the change was made on; 409 if the game has moved on",
    )


class RollBody(_Body):
    player: StrictStr
    keep: list[Whole] = Field(default_factory=list, description="faces kept from last roll")
    expected_version: Version | None = None


class ImportRecord(BaseModel):
    """A ``kniffel-record/1`` document to import (checked by the record reader)."""

    format: StrictStr
    variant: StrictStr
    options: dict[str, Any] | None = None
    players: list[StrictStr]
    events: list[dict[str, Any]] | None = None


class RecordDocument(BaseModel):
    format: Literal["kniffel-record/1"] = "kniffel-record/1"
    variant: str
    options: dict[str, Any]
    players: list[str]
    events: list[RecordEvent]


# ------------------------------------------------------------------ answers


class ColumnState(BaseModel):
    cells: dict[str, int | None]
    upper: int
    bonus: int
    lower: int
    kniffel_bonus: int
    total: int


class JambColumnState(BaseModel):
    """A Jamb column: Σ1, Σ2, Σ3 and the total beside the cells (docs/record-format.md)."""

    cells: dict[str, int | None]
    sum1: int
    sum2: int
    sum3: int
    total: int


class PlayerState(BaseModel):
    name: str
    total: int
    columns: dict[str, ColumnState | JambColumnState]


class Turn(BaseModel):
    player: str
    rolls: int
    dice: list[int] | None
    allowed: list[str]


class Entry(BaseModel):
    cell: str
    points: int
    kniffel_bonus: int
    joker: bool


class ColumnOut(BaseModel):
    id: str
    label: str
    discipline: Literal["down", "up", "free", "announce", "hand", "middle"]
    factor: int


class OptionsOut(BaseModel):
    """The house rules of a Kniffel sheet; Yams adds ``hand`` and ``announce``."""

    model_config = ConfigDict(extra="allow")

    chance: bool
    pasch: Literal["all_dice", "matching_dice"]
    kniffel_bonus: int
    joker: Literal["free", "forced", "none"]
    zero_only_upper: bool


class JambOptionsOut(BaseModel):
    """Jamb's house rules (docs/rules.md, "Jamb")."""

    trips_bonus: int
    straight_fixed: bool
    sum2_bonus: bool
    hand: bool
    middle: bool


class GameSummaryOut(BaseModel):
    id: str
    variant: str
    players: list[str]
    dice_mode: DiceMode
    bots: dict[str, str]
    created_at: datetime
    updated_at: datetime
    version: int
    finished: bool
    turns: int = Field(description="cells filled so far, all players together")
    totals: list[int] = Field(description="every player's total, in seat order")
    winners: list[str] = Field(description="the winners once the game is finished, else empty")
    readable: bool = Field(
        description="false for a game this release cannot read: a newer release stored it "
        "with a variant or option this one does not know (during a rolling restart); the game "
        "itself answers 409 game_unreadable here"
    )
    unreadable: str | None = Field(
        description="why this release cannot read the game, in plain words; null when it can"
    )


class GameState(BaseModel):
    """A game as ``kniffel replay --json`` shows it, plus what the board needs."""

    id: str
    version: int = Field(description="number of stored events; grows with every change")
    variant: str
    label: str
    options: OptionsOut | JambOptionsOut
    columns: list[ColumnOut]
    rows: list[str]
    dice_mode: DiceMode
    bots: dict[str, str]
    created_at: datetime
    updated_at: datetime
    finished: bool
    winners: list[str]
    turn: Turn | None
    players: list[PlayerState]
    entries: list[Entry] = Field(
        description="for the player to move with rolled dice: every legal entry and its points"
    )
    can_undo: bool


class CreatedGame(GameState):
    key: str = Field(description="the secret that allows changes; keep it in the link")
    url: str = Field(
        description="the board's play link that can change the game: /g/{id}#key={key}, the "
        "key in the fragment, which browsers never send (the page trades it for a cookie)"
    )


class PreviewOut(BaseModel):
    player: str | None
    dice: list[int] | None
    entries: list[Entry]


def entries_of(options: list[EntryOption]) -> list[Entry]:
    return [
        Entry(
            cell=str(o.cell),
            points=o.points,
            kniffel_bonus=o.kniffel_bonus,
            joker=o.joker,
        )
        for o in options
    ]


def state_of(view: GameView) -> dict[str, Any]:
    """The ``GameState`` fields of a :class:`~kniffel.board.service.GameView`."""
    game = view.game
    return {
        **state_dict(game),
        "id": view.id,
        "version": view.version,
        "label": game.variant.label,
        "options": game.options.as_dict(),
        "columns": [
            {"id": c.id, "label": c.label, "discipline": c.discipline.value, "factor": c.factor}
            for c in game.columns
        ],
        "rows": [row.value for row in game.rows],
        "dice_mode": view.dice_mode,
        "bots": view.bots,
        "created_at": view.created_at,
        "updated_at": view.updated_at,
        "entries": entries_of(game.entry_options()),
        "can_undo": view.can_undo,
    }
