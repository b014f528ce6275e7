"""The sheet as the board draws it, from a game's record and the entries not yet sent: what the
page computes in Pyodide while the server cannot be reached (docs/decisions.md, "The board
offline").

Pure standard-library Python on :mod:`kniffel.rules` and :mod:`kniffel.record` alone, so the page
runs the rules themselves, not a second copy of them. :func:`sheet_state` answers what the
server's board (``kniffel.board.sheet_view.board_view``) shows of the same position, in plain
values: each cell's points, state (``filled``, ``open``, ``waiting``, ``refused``, ``locked``),
the points its row can hold (for a correction), due mark, preview of typed dice, the refusal an
entry there would get, the totals and whose turn it is; ``tests/test_offline_sheet.py`` holds
the two equal on games of every preset. Words are the page's: a refusal comes as the engine's
``code`` and ``params`` (the catalogues' key) with its plain English ``message``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from kniffel.record import Record, event_from_json, event_to_json, loads, parse, replay
from kniffel.rules import (
    MAX_ROLLS,
    UPPER_BONUS_THRESHOLD,
    Announce,
    Cell,
    Clear,
    Dice,
    Discipline,
    Edit,
    Enter,
    EntryOption,
    Game,
    IllegalMoveError,
    JokerCase,
    KniffelError,
    Roll,
    Sheet,
    Undo,
    extra_kniffel_bonus,
    first_roll_only,
    joker_permits,
    point_ranges,
    possible_points,
)

__all__ = [
    "announceable",
    "asks_roll",
    "bonus_note",
    "extra_kniffel",
    "refusal",
    "sheet_state",
    "sheet_state_json",
    "turn_key",
    "undo_note",
    "why",
]


def refusal(error: KniffelError) -> dict[str, Any]:
    """An engine's refusal as JSON: ``code``, ``params`` and the plain ``message``."""
    params = {name: _plain(value) for name, value in error.params.items()}
    return {"code": error.code, "params": params, "message": error.message}


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    return str(value)


def asks_roll(game: Game) -> bool:
    """Whether an entry of typed dice says which roll made them: on a Jamb sheet (Kenta) and
    with a first-roll or announce column (docs/rules.md, "Jamb")."""
    return game.options.sheet is Sheet.JAMB or any(
        first_roll_only(spec.discipline) for spec in game.columns
    )


def turn_key(game: Game) -> int:
    """Changes whenever a turn is taken or taken back, and never comes back (the board's
    ``data-turn``; typed dice and previews belong to it, docs/board.md).

    The number of events in the record up to the last one that took or took back a turn (an
    entry, a cleared cell, or the undo of either). Counting filled cells instead came back to
    the same number after an undo, so dice typed before a turn that was taken back counted as
    typed for the turn after it.

    >>> from kniffel.rules import Dice, Enter, Roll, Undo, get_variant
    >>> game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    >>> game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66613")))
    >>> game.push(Undo())
    >>> turn_key(game)
    2
    """
    key = 0
    standing: list[bool] = []
    for number, event in enumerate(game.log, start=1):
        if isinstance(event, Undo):
            took = standing.pop() if standing else False
        else:
            took = isinstance(event, (Enter, Clear))
            standing.append(took)
        if took:
            key = number
    return key


def sheet_state(
    record: Mapping[str, Any] | str,
    pending: Sequence[Any] = (),
    *,
    dice: str | None = None,
    points: int | None = None,
    roll: int | None = None,
    dice_mode: str = "physical",
) -> dict[str, Any]:
    """The sheet after ``record``'s events and then the ``pending`` ones (``kniffel-record/1``
    event objects, in order), with ``dice`` or ``points`` typed by the player to move.

    A pending event the rules refuse changes nothing; it comes back under ``refused`` with its
    index and refusal, and the events after it are played on without it. ``version`` is the
    record's (its number of events): the version a pending entry was made on. ``turn`` holds the
    rolls of the player to move (``dice``, ``rolls``, ``rolls_left``), ``undo`` the refusal an
    undo would get now (``None``: offered), with the board's rule that a virtual roll stands, and
    ``last`` the event an undo would take back (its dice come back into the dice field);
    ``asks_roll`` whether typed dice say which roll made them (:func:`asks_roll`).
    """
    parsed: Record = loads(record) if isinstance(record, str) else parse(record)
    game = replay(parsed)
    refused: list[dict[str, Any]] = []
    for index, raw in enumerate(pending):
        try:
            game.push(event_from_json(raw, game))
        except KniffelError as error:
            refused.append({"index": index, **refusal(error)})
    typed = None if dice is None else Dice.parse(dice)
    return {
        "version": len(parsed.events),
        "refused": refused,
        **_board(game, dice_mode=dice_mode, dice=typed, points=points, roll=roll),
    }


def sheet_state_json(record: str, pending: str = "[]", typed: str = "{}") -> str:
    """:func:`sheet_state` from and to JSON text (the page calls this through Pyodide);
    ``typed`` holds ``dice``, ``points``, ``roll`` and ``dice_mode``. A broken record or typed
    dice answer ``{"error": refusal}``."""
    try:
        state = sheet_state(record, json.loads(pending), **json.loads(typed))
    except KniffelError as error:
        return json.dumps({"error": refusal(error)})
    return json.dumps(state)


def _board(
    game: Game,
    *,
    dice_mode: str,
    dice: Dice | None,
    points: int | None,
    roll: int | None,
) -> dict[str, Any]:
    mover = game.current_player()
    if not asks_roll(game):
        roll = None
    if mover is not None and dice_mode == "virtual":
        rolled = game.pending(mover)
        dice = rolled[0] if rolled is not None else None
        points = None
        roll = None
    entries: dict[str, EntryOption] | None = None
    if mover is not None and dice is not None:
        entries = {str(o.cell): o for o in game.entry_options(mover, dice, roll)}
    totals = game.returns()
    undo = game.check(Undo())
    if undo is None and dice_mode == "virtual" and isinstance(game.last_event, Roll):
        # The board's rule for virtual dice, as its undo button says it (board.turn_view).
        undo = IllegalMoveError("a roll of virtual dice stands", code="roll_stands")
    return {
        "asks_roll": asks_roll(game),
        "to_move": mover,
        "turn": None if mover is None else _turn(game, mover),
        "undo": None if undo is None else refusal(undo),
        "undo_note": undo_note(game) if undo is None else None,
        "extra_kniffel": None if mover is None else extra_kniffel(game, mover, dice),
        "last": None if game.last_event is None else event_to_json(game.last_event),
        "finished": game.is_finished,
        "turn_key": turn_key(game),
        "winners": list(game.winners()),
        "can_undo": game.can_undo,
        "players": [{"name": name, "total": totals[p]} for p, name in enumerate(game.players)],
        "sheets": [
            _sheet(game, p, mover, dice_mode, dice, points, roll, entries if p == mover else None)
            for p in range(len(game.players))
        ],
    }


def _turn(game: Game, mover: int) -> dict[str, Any]:
    """The turn of the player to move: the dice rolled and the rolls made and left (virtual
    dice roll on the device while the board cannot be reached, docs/decisions.md)."""
    pending = game.pending(mover)
    rolls = 0 if pending is None else pending[1]
    return {
        "player": game.players[mover],
        "dice": [] if pending is None else list(pending[0].faces),
        "rolls": rolls,
        "rolls_left": MAX_ROLLS - rolls,
    }


def announceable(game: Game, p: int, mover: int | None, dice_mode: str) -> set[str]:
    """The cells the player to move may announce now: with virtual dice right after the first
    roll (the rules' announce options); with real dice before the entry, the dice being at
    the table (the rules take the players' word that it is after the first roll)."""
    if p != mover or game.announced(p) is not None:
        return set()
    if dice_mode == "virtual":
        return {str(option.cell) for option in game.announce_options(p)}
    if game.pending(p) is not None:
        return set()
    return {
        str(Cell(spec.id, row))
        for spec in game.columns
        if spec.discipline is Discipline.ANNOUNCE
        for row in game.rows
        if game.points(p, Cell(spec.id, row)) is None
    }


def _sheet(
    game: Game,
    p: int,
    mover: int | None,
    dice_mode: str,
    dice: Dice | None,
    points: int | None,
    roll: int | None,
    entries: dict[str, EntryOption] | None,
) -> dict[str, Any]:
    allowed = {str(c) for c in game.allowed_cells(p)} if p == mover else set()
    announceable_cells = announceable(game, p, mover, dice_mode)
    announced = game.announced(p)
    due = {
        spec.id: game.due_row(p, spec.id)
        for spec in game.columns
        if spec.discipline is not Discipline.FREE
    }
    cells: dict[str, dict[str, Any]] = {}
    for row in game.rows:
        for spec in game.columns:
            cell = Cell(spec.id, row)
            name = str(cell)
            view = _cell(
                game,
                p,
                cell,
                is_due=due.get(spec.id) is row,
                allowed=name in allowed,
                mover=mover,
                dice_mode=dice_mode,
                dice=dice,
                points=points,
                roll=roll,
                entries=entries,
            )
            view["announce"] = name in announceable_cells
            view["announced"] = cell == announced
            cells[name] = view
    columns = {}
    for spec in game.columns:
        totals = game.column_totals(p, spec.id)
        columns[spec.id] = {
            "upper": totals.upper,
            "bonus": totals.bonus,
            "lower": totals.lower,
            "kniffel_bonus": totals.kniffel_bonus,
            "total": totals.total,
            "sum1": totals.sum1,
            "sum2": totals.sum2,
            "sum3": totals.sum3,
            "bonus_note": list(bonus_note(game, p, spec.id)),
        }
    return {
        "player": game.players[p],
        "seat": p,
        "to_move": p == mover,
        "total": game.total(p),
        "cells": cells,
        "columns": columns,
    }


def _cell(
    game: Game,
    p: int,
    cell: Cell,
    *,
    is_due: bool,
    allowed: bool,
    mover: int | None,
    dice_mode: str,
    dice: Dice | None,
    points: int | None,
    roll: int | None,
    entries: dict[str, EntryOption] | None,
) -> dict[str, Any]:
    value = game.points(p, cell)
    preview: int | None = None
    preview_bonus = 0
    joker = False
    bonus = 0
    refused: KniffelError | None = None
    if value is not None:
        state = "filled"
        bonus = game.cell_bonus(p, cell)
    elif not allowed:
        state = "locked"
        refused = why(game, p, cell, points=0)
    elif entries is not None:
        option = entries.get(str(cell))
        if option is None:
            state = "refused"
            refused = why(game, p, cell, dice=dice, roll=roll)
        else:
            state = "open"
            preview, preview_bonus, joker = option.points, option.kniffel_bonus, option.joker
    elif points is not None:
        refused = why(game, p, cell, points=points, roll=roll)
        state = "open" if refused is None else "refused"
    else:
        state = "waiting"
        refused = why(game, p, cell, virtual=dice_mode == "virtual")
    return {
        "points": value,
        "state": state,
        "due": is_due and value is None,
        "preview": preview,
        "preview_bonus": preview_bonus,
        "joker": joker,
        "bonus": bonus,
        "refusal": None if refused is None else refusal(refused),
        "possible": point_ranges(possible_points(cell.row, game.options), dash="–"),
    }


def why(
    game: Game,
    p: int,
    cell: Cell,
    *,
    dice: Dice | None = None,
    points: int | None = None,
    virtual: bool = False,
    roll: int | None = None,
) -> KniffelError | None:
    """Why the engine would refuse an entry by seat ``p`` into ``cell`` (with ``dice`` or
    ``points``); ``None`` where it would take it."""
    rolled = game.pending(p)
    if dice is not None and rolled is not None and rolled[0] == dice:
        dice = None
    if virtual and rolled is None and dice is None and points is None:
        return IllegalMoveError("roll first", code="not_rolled", player=game.players[p])
    return game.check(Enter(game.players[p], cell, dice=dice, points=points, roll=roll))


def bonus_note(game: Game, p: int, column: str) -> tuple[str, int]:
    """What the note under a column's upper bonus says (its words: the board's catalogues):
    ``("reached", threshold)``, ``("missed", 0)`` once the upper rows are full without it, else
    ``("left", points still missing)``."""
    totals = game.column_totals(p, column)
    if totals.bonus:
        return "reached", UPPER_BONUS_THRESHOLD
    if all(game.points(p, Cell(column, row)) is not None for row in game.rows if row.is_upper):
        return "missed", 0
    return "left", UPPER_BONUS_THRESHOLD - totals.upper


def extra_kniffel(game: Game, p: int, dice: Dice | None) -> dict[str, Any] | None:
    """What the board explains when ``dice`` are a further Kniffel of seat ``p`` (docs/rules.md
    §5), as the lines above the dice field word it (``kniffel.board.turn_view``, and the page
    offline): ``bonus`` the extra-Kniffel bonus an entry earns (0 where no Kniffel cell holds 50,
    ``None`` where the house rules pay none), ``joker`` the joker's case (``free``, ``matching``,
    ``lower``, ``upper``, or ``none``) and ``cells`` the cells a matching joker must go to.
    ``None`` when the dice are no further Kniffel. The engine decides (``Game.joker_case``,
    ``extra_kniffel_bonus``)."""
    case = None if dice is None else game.joker_case(p, dice)
    if dice is None or case is None:
        return None
    options = game.options
    bonus = extra_kniffel_bonus(options, game.holds_fifty(p)) if options.kniffel_bonus else None
    cells = []
    if case is JokerCase.MATCHING:
        permitted = game.allowed_cells(p)
        cells = [str(c) for c in permitted if joker_permits(case, dice.faces[0], c.row)]
    return {"bonus": bonus, "joker": case.value, "cells": cells}


def undo_note(game: Game) -> dict[str, Any] | None:
    """What an undo would take back, as the undo note words it (``kniffel.board.turn_view``):
    the last event's ``kind`` (``roll``, ``announce``, ``enter``, ``edit``, ``clear``), its
    ``player``, ``cell``, ``dice``, the ``points`` an entry holds now, and who is to move after
    it: ``after`` is ``stays`` or ``again`` with ``next`` the name, or ``None``. ``None``
    where there is nothing to take back."""
    last = game.last_event
    if last is None or game.check(Undo()) is not None:
        return None
    note: dict[str, Any] = {"player": getattr(last, "player", None), "after": None, "next": None}
    if isinstance(last, Roll):
        note.update(kind="roll", dice=list(last.dice.faces))
    else:
        assert isinstance(last, Announce | Enter | Edit | Clear)
        kind = {Announce: "announce", Enter: "enter", Edit: "edit", Clear: "clear"}[type(last)]
        points = game.points(last.player, last.cell) if isinstance(last, Enter) else None
        note.update(kind=kind, cell=str(last.cell), points=points)
    before = game.copy()
    before.push(Undo())
    after = before.current_player()
    if after is not None:
        note["after"] = "stays" if after == game.current_player() else "again"
        note["next"] = game.players[after]
    return note
