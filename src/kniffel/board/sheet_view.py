"""What the board shows of a game: the sheets, their cells and the turn, ready for a template.

Everything here is derived from a :class:`~kniffel.rules.Game` through the
rules engine (allowed cells, due rows, what dice would score), so the page
locks exactly what the engine refuses. The words come from a
:class:`~kniffel.locales.Translator`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from kniffel import offline
from kniffel.board.turn_view import TurnView, UndoView, turn_view, undo_view
from kniffel.locales import N_, Translator
from kniffel.locales.family_words import FAMILY, column_name, row_name
from kniffel.locales.refusals import refusal_text
from kniffel.offline import asks_roll, turn_key
from kniffel.rules import (
    Cell,
    Dice,
    Discipline,
    EntryOption,
    Game,
    Options,
    Row,
    Sheet,
    Variant,
    point_ranges,
    possible_points,
)

__all__ = [
    "BoardView",
    "CellState",
    "CellView",
    "ColumnView",
    "PlayerView",
    "SheetView",
    "TurnView",
    "UndoView",
    "asks_roll",
    "board_view",
    "offline_cell_words",
    "turn_key",
]


class CellState(enum.StrEnum):
    FILLED = "filled"
    OPEN = "open"  #: may be entered into now (with the given dice or points)
    WAITING = "waiting"  #: allowed, but there are no dice or points to enter yet
    REFUSED = "refused"  #: allowed by position, but not for these dice or points
    LOCKED = "locked"  #: not allowed now


@dataclass(frozen=True, slots=True)
class CellView:
    """One cell of one sheet as the board shows it."""

    name: str  #: ``down.ones``, as in game records
    row: Row
    points: int | None
    state: CellState
    due: bool  #: the due cell of an arrow column
    preview: int | None  #: what the given dice would score here
    preview_bonus: int
    joker: bool
    bonus: int  #: extra-Kniffel bonus this entry earned
    label: str  #: the accessible name, e.g. "Runter, Einser, 3 Punkte"
    reason: str  #: why it cannot be entered into (shown when tapped), else ""
    possible: str  #: the points the row can hold, for corrections
    announce: str = ""  #: the name of its announce button ("Ansage, Kenta ansagen"), else ""
    announced: bool = False  #: the row announced this turn (docs/rules.md, "Jamb")


@dataclass(frozen=True, slots=True)
class ColumnView:
    id: str
    header: str
    name: str
    mark: str  #: the head's short mark on a sheet of four or more columns: ↓, ↑, ↕ or a letter
    discipline: str
    factor: int
    upper: str
    bonus: str
    bonus_note: str
    bonus_reached: bool
    lower: str
    kniffel_bonus: str
    total: str
    sum1: str = ""  #: a Jamb column's Σ1 (rows 1-6 and their bonus), else ""
    sum2: str = ""  #: Σ2: (Max - Min) × the ones
    sum3: str = ""  #: Σ3: Triling to Jamb


@dataclass(frozen=True, slots=True)
class RowView:
    row: Row
    label: str
    cells: tuple[CellView, ...]
    last_upper: bool  #: the sheet draws a line under the upper block


@dataclass(frozen=True, slots=True)
class SheetView:
    player: str
    seat: int
    to_move: bool
    total: str
    columns: tuple[ColumnView, ...]
    rows: tuple[RowView, ...]
    caption: str
    jamb: bool = False  #: a Jamb sheet: Σ1, Σ2, Σ3 under each column (docs/rules.md, "Jamb")

    @property
    def short_heads(self) -> bool:
        """Four or more columns: the heads show their marks (↓ S ↑ N R), the full names are read
        aloud and stand in a legend under the sheet; at 360 px a column is too narrow for them."""
        return len(self.columns) >= SHORT_HEADS

    @property
    def long_heads(self) -> bool:
        """Two or three columns, one of them named with a word of :data:`LONG_WORD` letters or
        more (Descendante, Montante, Slobodna): on a phone the heads show their marks and the
        legend names them, as :attr:`short_heads` do everywhere; wider screens show the names."""
        if self.short_heads or len(self.columns) < 2:
            return False
        return any(len(word) >= LONG_WORD for c in self.columns for word in c.name.split())


#: From how many columns a sheet's heads show their short marks (docs/board.md, "Jamb und Yams").
SHORT_HEADS = 4
#: A word this long does not fit one of three columns on a 360 px phone ("Slobodna" is 73 px in
#: a column of 71; "Runter" and "Na dole" fit): docs/board.md, "Jamb und Yams".
LONG_WORD = 8


@dataclass(frozen=True, slots=True)
class PlayerView:
    name: str
    seat: int
    total: str
    to_move: bool
    winner: bool
    bot: str | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything the board page shows of one game."""

    variant_label: str
    one_column: bool
    dice_mode: str
    finished: bool
    players: tuple[PlayerView, ...]
    sheets: tuple[SheetView, ...]  #: the player to move first
    turn: TurnView | None
    undo: UndoView
    winners: tuple[str, ...]
    winner_line: str
    turn_key: int  #: changes whenever a turn is taken or taken back
    dice: str  #: the physical dice being previewed ("66655"), else ""
    points: int | None  #: the points being entered instead of dice
    roll: int | None = None  #: which roll made the typed dice, where the rules ask (Jamb)
    #: whether an entry of typed dice says which roll made them (:func:`asks_roll`): the page
    #: then assumes none (issue 32 item 3)
    asks_roll: bool = False


def board_view(
    game: Game,
    t: Translator,
    *,
    dice_mode: str = "physical",
    dice: Dice | None = None,
    points: int | None = None,
    bots: dict[str, str] | None = None,
    roll: int | None = None,
) -> BoardView:
    """The board for ``game``; ``dice`` or ``points`` are what the player to move typed, and
    ``roll`` which roll made them (heard only where :func:`asks_roll`)."""
    mover = game.current_player()
    if not asks_roll(game) or (dice is None and points is None):
        roll = None  # a board with nothing typed names no roll: it previews nothing
    if mover is not None and dice_mode == "virtual":
        pending = game.pending(mover)
        dice = pending[0] if pending is not None else None
        points = None
        roll = None  # the rolled dice say their roll themselves
    entries: dict[str, EntryOption] | None = None
    if mover is not None and dice is not None:
        entries = {str(o.cell): o for o in game.entry_options(mover, dice, roll)}
    order = sorted(range(len(game.players)), key=lambda p: (p != mover, p))
    typed = _Typed(dice, points, roll)
    sheets = tuple(
        _sheet(game, t, p, mover, dice_mode, typed, entries if p == mover else None) for p in order
    )
    winners = tuple(game.winners())
    totals = game.returns()
    players = tuple(
        PlayerView(
            name,
            p,
            t.number(totals[p]),
            p == mover,
            name in winners,
            (bots or {}).get(name),
        )
        for p, name in enumerate(game.players)
    )
    return BoardView(
        variant_label=t(game.variant.label),
        one_column=len(game.columns) == 1,
        dice_mode=dice_mode,
        finished=game.is_finished,
        players=players,
        sheets=sheets,
        turn=None if mover is None else turn_view(game, t, mover, dice_mode, dice),
        undo=undo_view(game, t, dice_mode),
        winners=winners,
        winner_line=_winner_line(t, winners, max(totals)) if winners else "",
        turn_key=turn_key(game),
        dice="" if dice is None or dice_mode == "virtual" else str(dice),
        points=points,
        roll=roll,
        asks_roll=asks_roll(game),
    )


@dataclass(frozen=True, slots=True)
class _Typed:
    """What the player to move typed: dice or points, and the roll that made them."""

    dice: Dice | None
    points: int | None
    roll: int | None


def _sheet(
    game: Game,
    t: Translator,
    p: int,
    mover: int | None,
    dice_mode: str,
    typed: _Typed,
    entries: dict[str, EntryOption] | None,
) -> SheetView:
    allowed = {str(c) for c in game.allowed_cells(p)} if p == mover else set()
    announceable = offline.announceable(game, p, mover, dice_mode)
    announced = game.announced(p)
    due = {
        spec.id: game.due_row(p, spec.id)
        for spec in game.columns
        if spec.discipline is not Discipline.FREE
    }
    rows = []
    jamb = game.options.sheet is Sheet.JAMB
    named = offline_cell_words(game.variant, t)  # every cell's place, and the state words
    places, announces = named["places"], named["announce"]
    # A seat not to move (every seat once the game is over) is refused every empty cell for
    # one reason: the rules ask whose turn it is before they look at the cell. Asked once for
    # the sheet (tests/test_offline_sheet.py holds every cell's reason equal to asking for it).
    refused = (
        _why(game, t, p, Cell(game.columns[0].id, game.rows[0]), points=0) if p != mover else None
    )
    for row in game.rows:
        cells = []
        for spec in game.columns:
            cell = Cell(spec.id, row)
            name = str(cell)
            prefix = [places[name]]
            if cell == announced:
                prefix.append(named["announced"])
            cells.append(
                _cell(
                    game,
                    t,
                    p,
                    cell,
                    prefix,
                    is_due=due.get(spec.id) is row,
                    allowed=name in allowed,
                    mover=mover,
                    dice_mode=dice_mode,
                    typed=typed,
                    entries=entries,
                    named=named,
                    # The verb and the row: the column's name ("Ansage", "Announce") is the
                    # verb's noun, so "Ansage, Straße ansagen" said it twice.
                    announce=announces[name] if name in announceable else "",
                    announced=cell == announced,
                    refused=refused,
                )
            )
        # A Jamb sheet draws a line under each block: 1-6, Max and Min, Triling to Jamb.
        line = row is Row.SIXES or (jamb and row is Row.MIN)
        rows.append(RowView(row, _row_words(game, t, row), tuple(cells), line))
    columns = tuple(_column(game, t, p, spec.id) for spec in game.columns)
    points = game.total(p)
    total = t.number(points)
    name = game.players[p]
    return SheetView(
        player=name,
        seat=p,
        to_move=p == mover,
        total=total,
        columns=columns,
        rows=tuple(rows),
        caption=t("{name}: {points}", name=name, points=t.points(points)),
        jamb=jamb,
    )


@lru_cache(maxsize=64)  # asked by every board page of a device that enters: 15 ms of Babel
def offline_cell_words(variant: Variant, t: Translator) -> dict[str, Any]:
    """The words :func:`_cell` names cells with, for the page that draws the sheet itself while
    the server cannot be reached (static/tafel/paint.js; docs/decisions.md, "The board
    offline"): every cell's place, the state words, and the points by plural category, for
    ``variant``'s sheet in ``t``'s words. The page's names are tested equal to the server's
    (tests/e2e/test_offline_names.py). Shared: not to be changed."""
    game = Game(variant, ["·"])  # the sheet's columns and rows
    named: dict[str, Any] = {
        "places": {
            str(Cell(spec.id, row)): _place(game, t, Cell(spec.id, row))
            for spec in game.columns
            for row in game.rows
        },
        "announced": t("angesagt"),
        "due": t("Pflichtfeld"),
        "notToMove": t("nicht am Zug"),
        "locked": t("gesperrt"),
        "notThisRoll": t("nicht mit diesem Wurf"),
        "open": t("offen"),
        "joker": t("Joker"),
        "points": t.point_forms(),
        "possible": t.point_forms(possible=True),
        # A sheet's caption ("Ana: 3 boda"), its points worded with "points" above.
        "caption": t("{name}: {points}", name="{name}", points="{points}"),
    }
    # The announce buttons' names (Jamb's Najava, Yams' annoncée), by cell: the page draws them
    # itself where the rules in it offer an announcement offline.
    named["announce"] = {
        str(Cell(spec.id, row)): t("Ansage: {row}", row=_row_words(game, t, row))
        for spec in game.columns
        if spec.discipline is Discipline.ANNOUNCE
        for row in game.rows
    }
    if variant.name not in FAMILY:  # no Kniffel word on a Jamb or Yams page
        named["bonus"] = t("Kniffel-Bonus {n}", n="{n}")
        named["previewBonus"] = t("+{n} Kniffel-Bonus", n="{n}")
    return named


def _row_words(game: Game, t: Translator, row: Row) -> str:
    """A row's name as the game's players write it: Jamb's and Yams' own words
    (:mod:`kniffel.locales.family_words`), else the catalogues' Kniffel words."""
    if game.variant.name in FAMILY:
        return row_name(game.variant.name, row.value, t)
    return t.row(row)


def _column_words(game: Game, t: Translator, column: str) -> str:
    spec = game.variant.column(column)
    if game.variant.name in FAMILY:
        return column_name(game.variant.name, column, t)
    return t.column(spec)


def _place(game: Game, t: Translator, cell: Cell) -> str:
    """``cell`` in words, as :meth:`~kniffel.locales.Translator.cell` words it (``Runter,
    Dreier``), with the family's own names for a Jamb or Yams sheet."""
    if game.variant.name not in FAMILY:
        return t.cell(game.variant, cell)
    return f"{_column_words(game, t, cell.column)}, {_row_words(game, t, cell.row)}"


def _cell(
    game: Game,
    t: Translator,
    p: int,
    cell: Cell,
    prefix: list[str],
    *,
    is_due: bool,
    allowed: bool,
    mover: int | None,
    dice_mode: str,
    typed: _Typed,
    entries: dict[str, EntryOption] | None,
    named: dict[str, Any],
    announce: str,
    announced: bool,
    refused: str | None,
) -> CellView:
    """One cell's view; ``named``: :func:`offline_cell_words` of the game's sheet; ``refused``:
    why a seat not to move may enter nothing (``None`` for the seat to move)."""
    dice, points, roll = typed.dice, typed.points, typed.roll
    value = game.points(p, cell)
    possible = _possible(cell.row, game.options)
    words = list(prefix)
    preview: int | None = None
    preview_bonus = 0
    joker = False
    reason = ""
    bonus = 0
    if value is not None:
        state = CellState.FILLED
        bonus = game.cell_bonus(p, cell)
        words.append(t.points(value))
        if bonus:
            words.append(t("Kniffel-Bonus {n}", n=t.number(bonus)))
    elif not allowed:
        state = CellState.LOCKED
        if is_due:
            words.append(named["due"])
        # The engine says why: the game is over, another player is to move, or another
        # cell of this arrow column is due.
        reason = _why(game, t, p, cell, points=0) if refused is None else refused
        words.append(named["notToMove"] if mover is not None and p != mover else named["locked"])
    else:
        if is_due:
            words.append(named["due"])
        if entries is not None:
            option = entries.get(str(cell))
            if option is None:
                state = CellState.REFUSED
                reason = _why(game, t, p, cell, dice=dice, roll=roll)
                words.append(named["notThisRoll"])
            else:
                state = CellState.OPEN
                preview, preview_bonus, joker = option.points, option.kniffel_bonus, option.joker
                words.append(t.points(preview, possible=True))
                if preview_bonus:
                    words.append(t("+{n} Kniffel-Bonus", n=t.number(preview_bonus)))
                if joker:
                    words.append(named["joker"])
        elif points is not None:
            reason = _why(game, t, p, cell, points=points, roll=roll)
            if not reason:
                state = CellState.OPEN
                words.append(t.points(points, possible=True))
            else:
                state = CellState.REFUSED
                words.append(reason)
        else:
            state = CellState.WAITING
            reason = _why(game, t, p, cell, virtual=dice_mode == "virtual")
            if not is_due:
                words.append(named["open"])
    return CellView(
        name=str(cell),
        row=cell.row,
        points=value,
        state=state,
        due=is_due and value is None,
        preview=preview,
        preview_bonus=preview_bonus,
        joker=joker,
        bonus=bonus,
        label=", ".join(words),
        reason=reason,
        possible=possible,
        announce=announce,
        announced=announced,
    )


@cache  # a few rows under a few sets of house rules: worked out once each
def _possible(row: Row, options: Options) -> str:
    return point_ranges(possible_points(row, options), dash="–")


def _why(
    game: Game,
    t: Translator,
    p: int,
    cell: Cell,
    *,
    dice: Dice | None = None,
    points: int | None = None,
    virtual: bool = False,
    roll: int | None = None,
) -> str:
    """Why the engine would refuse an entry by seat ``p`` into ``cell`` (with ``dice`` or
    ``points``), in the reader's words; ``""`` when it would accept it."""
    refusal = offline.why(game, p, cell, dice=dice, points=points, virtual=virtual, roll=roll)
    return "" if refusal is None else refusal_text(refusal, t)


#: The note under a column's upper bonus, by :func:`kniffel.offline.bonus_note`'s state.
BONUS_NOTES: dict[str, str] = {
    "reached": N_("{n} erreicht"),
    "missed": N_("verpasst"),
    "left": N_("noch {n} bis zum Bonus"),
}


def _column(game: Game, t: Translator, p: int, column: str) -> ColumnView:
    spec = game.variant.column(column)
    totals = game.column_totals(p, column)
    name = _column_words(game, t, column)
    header = f"{spec.symbol} {name}" if spec.symbol else name
    state, short = offline.bonus_note(game, p, column)
    note = t(BONUS_NOTES[state], n=short)
    return ColumnView(
        id=column,
        header=header if len(game.columns) > 1 else t("Punkte").capitalize(),
        name=name,
        mark=spec.symbol or name[:1].upper(),
        discipline=spec.discipline.value,
        factor=spec.factor,
        upper=t.number(totals.upper),
        bonus=t.number(totals.bonus),
        bonus_note=note,
        bonus_reached=bool(totals.bonus),
        lower=t.number(totals.lower),
        kniffel_bonus=t.number(totals.kniffel_bonus),
        total=t.number(totals.total),
        sum1=t.number(totals.sum1),
        sum2=t.number(totals.sum2),
        sum3=t.number(totals.sum3),
    )


def _winner_line(t: Translator, winners: tuple[str, ...], best: int) -> str:
    names = ", ".join(winners)
    if len(winners) == 1:
        return t("{names} gewinnt mit {total} Punkten!", names=names, total=t.number(best))
    return t("Gleichstand: {names} mit {total} Punkten!", names=names, total=t.number(best))
