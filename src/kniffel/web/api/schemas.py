"""The JSON shapes of the API: request bodies and answers, as pydantic models.

They are the OpenAPI spec. Request fields are strict (``12.0``, ``true`` or
``"12"`` are not numbers, as in the record format); what they mean is checked
by the rules engine, which words the error messages.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    create_model,
)

from kniffel.board.limits import MAX_KNIFFEL_BONUS, MAX_NAME
from kniffel.board.service import GameView
from kniffel.record import state_dict
from kniffel.rules import (
    EVENT_TYPES,
    HOUSE_RULES,
    MAX_PLAYERS,
    PRESETS,
    EntryOption,
    EventField,
    HouseRule,
    event_fields,
    house_rule,
)

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


def _option_in(rule: HouseRule) -> Any:
    """The type a request gives ``rule`` (:data:`kniffel.rules.HOUSE_RULES`); null keeps the
    preset's value."""
    if rule.kind is bool:
        return StrictBool | None
    if rule.choices:
        return Literal[rule.choices] | None
    bounds = Field(ge=rule.least, le=MAX_KNIFFEL_BONUS)
    return Annotated[StrictInt, bounds, BeforeValidator(_whole)] | None


def _option_out(rule: HouseRule) -> Any:
    """The type an answer gives ``rule``."""
    if rule.kind is bool:
        return bool
    return Literal[rule.choices] if issubclass(rule.kind, str) else int


def _options_out(model: str, preset: str, doc: str, **config: Any) -> Any:
    """The house rules ``preset`` offers, as an answer names them."""
    rules = PRESETS[preset].options.offered
    return create_model(  # type: ignore[call-overload]
        model,
        __config__=ConfigDict(**config),  # type: ignore[typeddict-item]
        __doc__=doc,
        __module__=__name__,
        **{name: (_option_out(house_rule(name)), ...) for name in rules},
    )


# One field per house rule of the rules (kniffel.rules.HOUSE_RULES), never spelled out here.
if TYPE_CHECKING:

    class OptionsIn(_Body): ...

    class OptionsOut(BaseModel): ...

    class JambOptionsOut(BaseModel): ...

else:
    OptionsIn = create_model(
        "OptionsIn",
        __base__=_Body,
        __doc__="House rules to change from the variant's preset (docs/rules.md §6); a preset "
        "refuses the ones it does not offer, in plain words (code unknown_option).",
        __module__=__name__,
        **{rule.name: (_option_in(rule), None) for rule in HOUSE_RULES},
    )
    OptionsOut = _options_out(
        "OptionsOut",
        "kniffel",
        "The house rules of a Kniffel sheet; Yams adds ``hand`` and ``announce``.",
        extra="allow",
    )
    JambOptionsOut = _options_out(
        "JambOptionsOut", "jamb", 'Jamb\'s house rules (docs/rules.md, "Jamb").'
    )


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


# Record events (docs/record-format.md): extra fields are ignored, null means absent. One model per
# event type of the rules, with the fields of its class (kniffel.rules.event_fields), never
# spelled out here.
_EVENT_JSON: dict[str, Any] = {
    "player": StrictStr,
    "cell": StrictStr,
    "dice": list[Whole],
    "keep": list[Whole],
    "whole": Whole,
}


def _event_field(spec: EventField) -> tuple[Any, Any]:
    kind = _EVENT_JSON[spec.kind]
    doc = spec.doc or None
    if spec.required:
        return kind, Field(description=doc)
    return kind | None, Field(None, description=doc)


def _event_model(kind: str) -> Any:
    event = EVENT_TYPES[kind]
    return create_model(  # type: ignore[call-overload]
        f"{event.__name__}Event",
        __doc__=(event.__doc__ or "").split("\n\n")[0],
        __module__=__name__,
        type=(Literal[kind], ...),
        **{spec.name: _event_field(spec) for spec in event_fields(event)},
    )


if TYPE_CHECKING:
    RecordEvent = Any
else:
    RecordEvent = Annotated[
        Union[tuple(_event_model(kind) for kind in EVENT_TYPES)],  # noqa: UP007
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
    evening: StrictStr | None = Field(
        None, description="the games evening it belongs to, kept by the import"
    )
    device: dict[str, Any] | None = Field(
        None,
        description="written by a device that started the game with no server: its `id` "
        "makes the import happen once (posted again, the answer is the same game)",
    )


class RecordDocument(BaseModel):
    format: Literal["kniffel-record/1"] = "kniffel-record/1"
    variant: str
    options: dict[str, Any]
    players: list[str]
    events: list[RecordEvent]
    evening: str | None = Field(
        None,
        description="the games evening (the id of its first game), only where the game is in one",
    )


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
