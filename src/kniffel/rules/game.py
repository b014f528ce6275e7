"""The state of a game: a fold over its events, with push and pop.

:class:`Game` is the one state machine that the record replay, the board, the
bots and the solver share. It answers who is to move, which cells are allowed,
what an entry would score, and it applies events (``push``) and takes them
back (``pop``) exactly as docs/rules.md says. The scoring and entry rules
themselves live in :mod:`kniffel.rules.scoring` and :mod:`kniffel.rules.rows`;
this class applies them to the state of one game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kniffel.rules.dice import Dice, check_keep, is_submultiset, keeps_of, outcome_probabilities
from kniffel.rules.errors import (
    IllegalMoveError,
    InvalidPointsError,
    KniffelError,
    NotYourTurnError,
    UnknownCellError,
    UnknownPlayerError,
    printable,
    shown,
)
from kniffel.rules.events import MAX_ROLLS, Announce, Cell, Clear, Edit, Enter, Event, Roll, Undo
from kniffel.rules.rows import (
    STRAIGHT_BY_ROLL,
    Row,
    point_ranges,
    possible_points,
    roll_matters,
    rows_for,
    sheet_score,
    turns_of,
)
from kniffel.rules.scoring import (
    JokerCase,
    column_sum2,
    column_total,
    due_index,
    extra_kniffel_bonus,
    first_roll_only,
    holds_fifty,
    is_extra_kniffel,
    jamb_sum1,
    joker_case,
    joker_permits,
    joker_points,
    open_indices,
    sheet_sums,
    upper_bonus,
    zero_refused,
)
from kniffel.rules.variants import Discipline, Sheet, Variant

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROLLS",
    "AnnounceAction",
    "ColumnTotals",
    "EnterAction",
    "EntryOption",
    "Game",
    "RollAction",
]

MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class ColumnTotals:
    """The sums under one column of one player's sheet.

    On a Jamb sheet ``upper`` and ``bonus`` make Σ1, ``middle`` is Σ2 (with its house-rule
    bonus) and ``lower`` is Σ3 (docs/rules.md, "Jamb"); a Kniffel sheet has no ``middle``.
    """

    upper: int
    bonus: int
    lower: int
    kniffel_bonus: int
    total: int
    middle: int = 0

    @property
    def sum1(self) -> int:
        return self.upper + self.bonus

    @property
    def sum2(self) -> int:
        return self.middle

    @property
    def sum3(self) -> int:
        return self.lower


@dataclass(frozen=True, slots=True)
class EntryOption:
    """What entering the current dice into ``cell`` would score."""

    cell: Cell
    points: int
    kniffel_bonus: int = 0
    joker: bool = False


@dataclass(frozen=True, slots=True)
class RollAction:
    """The decision to roll, keeping ``keep`` (empty on the first roll)."""

    keep: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class EnterAction:
    """The decision to end the turn with an entry into ``cell``."""

    cell: Cell


@dataclass(frozen=True, slots=True)
class AnnounceAction:
    """The decision, after the first roll, to announce ``cell`` of an announce column."""

    cell: Cell


#: The decisions :meth:`Game.legal_actions` lists (an announcement is asked for apart:
#: :meth:`Game.announce_options`, so the players of Kniffel sheets see no change).
Action = RollAction | EnterAction

_Pending = tuple[Dice, int] | None


@dataclass(frozen=True, slots=True)
class _Inverse:
    """What pop() needs to take an event back: the state the event replaced."""

    p: int
    c: int = -1
    r: int = -1
    old: int | None = None
    bonus: int = 0
    pending: _Pending = None
    announced: Cell | None = None


class Game:
    """A game in progress: players, their sheets, pending dice and the event stack.

    >>> from kniffel.rules import get_variant, Dice
    >>> game = Game(get_variant("rauf-runter"), ["Anna", "Ben"])
    >>> game.push(Enter("Anna", game.cell("down.ones"), dice=Dice.of([1, 1, 1, 5, 6])))
    >>> game.current_name, game.total("Anna")
    ('Ben', 3)
    >>> game.push(Undo())
    >>> game.total("Anna")
    0
    """

    def __init__(self, variant: Variant, players: Sequence[str]) -> None:
        names = tuple(players)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise KniffelError(
                f"a game has 1 to {MAX_PLAYERS} players, got {len(names)}",
                code="players_count",
                min=1,
                max=MAX_PLAYERS,
                got=len(names),
            )
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise KniffelError("player names must be non-empty text", code="player_name_blank")
        if len(set(names)) != len(names):
            twice = next(name for i, name in enumerate(names) if name in names[:i])
            raise KniffelError(
                "player names must be distinct", code="player_names_repeat", name=printable(twice)
            )
        self.variant = variant
        self.options = variant.options
        self.players = names
        self.rows: tuple[Row, ...] = rows_for(variant.options)
        self.columns = variant.columns
        self._row_index = {row: i for i, row in enumerate(self.rows)}
        #: Which rows count to the upper block, in order: every total reads it (a row's
        #: ``is_upper`` hashes the row each time; docs/benchmarks.md, "Load").
        self._upper = tuple(row.is_upper for row in self.rows)
        self._col_index = {spec.id: i for i, spec in enumerate(self.columns)}
        self._seat = {name: i for i, name in enumerate(names)}
        self._kniffel_index = self._row_index.get(Row.KNIFFEL)  # Jamb has no Kniffel row
        self._jamb = variant.options.sheet is Sheet.JAMB
        n_cols, n_rows = len(self.columns), len(self.rows)
        self.cells_per_player = turns_of(variant)
        self._cells: list[list[list[int | None]]] = [
            [[None] * n_rows for _ in range(n_cols)] for _ in names
        ]
        self._bonus: list[list[list[int]]] = [[[0] * n_rows for _ in range(n_cols)] for _ in names]
        self._filled = [0] * len(names)
        self._pending: list[_Pending] = [None] * len(names)
        #: The cell each player announced this turn (Najava / annoncée), until the entry.
        self._announced: list[Cell | None] = [None] * len(names)
        self._stack: list[tuple[Event, _Inverse]] = []
        #: Every event pushed, undos included: the game record's event list.
        self.log: list[Event] = []

    # ------------------------------------------------------------------ names

    def cell(self, name: str) -> Cell:
        """Parse ``COLUMN.ROW`` (or a bare row id in a one-column variant)."""
        if not isinstance(name, str):
            raise UnknownCellError(
                f"a cell is written COLUMN.ROW, got {shown(name)}",
                code="cell_syntax",
                cell=shown(name),
            )
        column, dot, row_id = name.partition(".")
        if not dot:
            if len(self.columns) != 1:
                raise UnknownCellError(
                    f"unknown cell {shown(name)}; write COLUMN.ROW with a column of "
                    f"{', '.join(self.variant.column_ids)}",
                    code="cell_syntax",
                    cell=shown(name),
                )
            column, row_id = self.columns[0].id, name
        if column not in self._col_index:
            raise UnknownCellError(
                f"unknown column {shown(column)} in {shown(name)}; the columns are "
                f"{', '.join(self.variant.column_ids)}",
                code="unknown_column",
                column=shown(column),
                columns=list(self.variant.column_ids),
            )
        try:
            row = Row(row_id)
        except ValueError:
            row = None
        if row is None or row not in self._row_index:
            raise UnknownCellError(
                f"unknown row {shown(row_id)} in {shown(name)}; the rows are "
                f"{', '.join(r.value for r in self.rows)}",
                code="unknown_row",
                row=shown(row_id),
                rows=[r.value for r in self.rows],
            )
        return Cell(column, row)

    def seat(self, player: str) -> int:
        try:
            return self._seat[player]
        except (KeyError, TypeError):
            raise UnknownPlayerError(
                f"unknown player {shown(player)}; the players are "
                f"{printable(', '.join(self.players))}",
                player=shown(player),
                players=list(self.players),
            ) from None

    def cell_name(self, cell: Cell) -> str:
        """How the players read a cell: the bare row in a one-column variant."""
        return cell.row.value if len(self.columns) == 1 else str(cell)

    # ------------------------------------------------------------- the sheet

    def points(self, player: str | int, cell: Cell) -> int | None:
        p = self._p(player)
        c, r = self._cr(cell)
        return self._cells[p][c][r]

    def column_points(self, player: str | int, column: str) -> tuple[int | None, ...]:
        """Every cell of one column in row order (``None`` where empty): :meth:`points` at once."""
        return tuple(self._cells[self._p(player)][self._c(column)])

    def cell_bonus(self, player: str | int, cell: Cell) -> int:
        """The extra-Kniffel bonus that the entry in ``cell`` earned."""
        p = self._p(player)
        c, r = self._cr(cell)
        return self._bonus[p][c][r]

    def filled_count(self, player: str | int) -> int:
        return self._filled[self._p(player)]

    def due_row(self, player: str | int, column: str) -> Row | None:
        """The due row of an arrow column (``None`` when full or a free column)."""
        p = self._p(player)
        c = self._c(column)
        index = self._due_index(p, c)
        return None if index is None else self.rows[index]

    def _due_index(self, p: int, c: int) -> int | None:
        filled = [value is not None for value in self._cells[p][c]]
        return due_index(self.columns[c].discipline, filled)

    def _open_indices(self, p: int, c: int) -> tuple[int, ...]:
        filled = [value is not None for value in self._cells[p][c]]
        return open_indices(self.columns[c].discipline, filled)

    def announced(self, player: str | int) -> Cell | None:
        """The cell the player announced this turn, ``None`` when none (docs/rules.md, "Jamb")."""
        return self._announced[self._p(player)]

    def allowed_cells(self, player: str | int | None = None) -> list[Cell]:
        """The cells ``player`` (default: the player to move) may enter into now.

        Positional only (docs/rules.md §4): the due cell of each arrow
        column and every empty cell of a free column, in column then row order;
        after an announcement only the announced cell. Which roll may go into a
        first-roll or announce column is checked on entry.
        """
        p = self._to_move() if player is None else self._p(player)
        if p is None:
            return []
        announced = self._announced[p]
        if announced is not None:
            return [announced]
        result: list[Cell] = []
        for c, spec in enumerate(self.columns):
            result.extend(Cell(spec.id, self.rows[i]) for i in self._open_indices(p, c))
        return result

    def _is_allowed(self, p: int, c: int, r: int) -> bool:
        if self._cells[p][c][r] is not None:
            return False
        if self.columns[c].discipline is Discipline.FREE:
            return True
        return r in self._open_indices(p, c)

    def column_totals(self, player: str | int, column: str) -> ColumnTotals:
        p = self._p(player)
        c = self._c(column)
        if self._jamb:
            return self._jamb_totals(p, c)
        upper = lower = 0
        for upper_row, value in zip(self._upper, self._cells[p][c], strict=True):
            if value is not None:
                if upper_row:
                    upper += value
                else:
                    lower += value
        kniffel_bonus = sum(self._bonus[p][c])
        total = column_total(upper, lower, kniffel_bonus, self.columns[c].factor)
        return ColumnTotals(upper, upper_bonus(upper), lower, kniffel_bonus, total)

    def _jamb_totals(self, p: int, c: int) -> ColumnTotals:
        """Σ1, Σ2, Σ3 of a Jamb column (docs/rules.md, "Jamb")."""
        cells = self._cells[p][c]
        sums = sheet_sums(self.options)
        upper = sum(value or 0 for value in cells[sums.upper])
        lower = sum(value or 0 for value in cells[sums.lower])
        sum1 = jamb_sum1(upper)
        middle = column_sum2(self.options, cells)
        return ColumnTotals(upper, sum1 - upper, lower, 0, sum1 + middle + lower, middle)

    def total(self, player: str | int) -> int:
        return sum(self.column_totals(player, spec.id).total for spec in self.columns)

    # ----------------------------------------------------------------- turns

    @property
    def is_finished(self) -> bool:
        return all(n == self.cells_per_player for n in self._filled)

    def _to_move(self) -> int | None:
        fewest = min(self._filled)
        if fewest == self.cells_per_player:
            return None
        return self._filled.index(fewest)

    def current_player(self) -> int | None:
        """The seat of the player to move, ``None`` once the game is finished."""
        return self._to_move()

    @property
    def current_name(self) -> str | None:
        p = self._to_move()
        return None if p is None else self.players[p]

    def pending(self, player: str | int) -> tuple[Dice, int] | None:
        """The player's rolled dice waiting for an entry, and how many rolls made them."""
        return self._pending[self._p(player)]

    def winners(self) -> list[str]:
        if not self.is_finished:
            return []
        totals = [self.total(p) for p in range(len(self.players))]
        best = max(totals)
        return [name for name, t in zip(self.players, totals, strict=True) if t == best]

    def returns(self) -> list[int]:
        """Every player's total, in seat order (open_spiel's ``returns``)."""
        return [self.total(p) for p in range(len(self.players))]

    # --------------------------------------------------------------- scoring

    def is_extra_kniffel(self, player: str | int, dice: Dice) -> bool:
        """Whether ``dice`` is a further Kniffel: five equal with every Kniffel cell filled."""
        k = self._kniffel_index
        if k is None:
            return False
        sheet = self._cells[self._p(player)]
        return is_extra_kniffel(dice.is_kniffel, all(col[k] is not None for col in sheet))

    def holds_fifty(self, player: str | int) -> bool:
        """Whether one of the player's Kniffel cells holds 50 (what the extra bonus needs)."""
        k = self._kniffel_index
        if k is None:
            return False
        return any(holds_fifty(True, col[k]) for col in self._cells[self._p(player)])

    def joker_case(self, player: str | int, dice: Dice) -> JokerCase | None:
        """The joker's case for ``dice`` now (docs/rules.md §5).

        ``None`` unless ``dice`` are a further Kniffel.
        """
        p = self._p(player)
        if not self.is_extra_kniffel(p, dice):
            return None
        allowed = self.allowed_cells(p)
        face = dice.faces[0]
        return joker_case(
            self.options.joker,
            matching_open=any(cell.row.face == face for cell in allowed),
            lower_open=any(not cell.row.is_upper for cell in allowed),
        )

    def zero_refused(
        self, player: str | int, cell: Cell, points: int, roll: int | None = None
    ) -> bool:
        """Whether ``zero_only_upper`` refuses ``points`` in ``cell`` now (docs/rules.md §6).

        An upper cell of a first-roll column counts as open only for a roll it takes
        (``roll``: which roll made the dice), else a later roll could go nowhere.
        """
        if not zero_refused(self.options, cell.row, points, upper_open=True):
            return False  # refused nowhere, whatever the sheet: no need to look at it
        p = self._p(player)
        upper_open = any(
            c.row.is_upper and self._takes_roll(p, c, roll) for c in self.allowed_cells(p)
        )
        return zero_refused(self.options, cell.row, points, upper_open)

    def _takes_roll(self, p: int, cell: Cell, roll: int | None) -> bool:
        try:
            self._check_roll(p, cell, roll)
        except IllegalMoveError:
            return False
        return True

    def entry_options(
        self, player: str | int | None = None, dice: Dice | None = None, roll: int | None = None
    ) -> list[EntryOption]:
        """Every legal entry of ``dice`` (default: the pending dice) with what it scores;
        ``roll`` says which roll made typed dice (default: the pending dice's)."""
        p = self._to_move() if player is None else self._p(player)
        if p is None:
            return []
        pending = self._pending[p]
        if roll is None:
            roll = None if pending is None else pending[1]
        if dice is None:
            if pending is None:
                return []
            dice = pending[0]
        result = []
        for cell in self.allowed_cells(p):
            try:
                points, bonus, joker = self._score_dice(p, cell, dice, roll)
            except IllegalMoveError:
                continue
            result.append(EntryOption(cell, points, bonus, joker))
        return result

    def _check_roll(self, p: int, cell: Cell, roll: int | None) -> None:
        """The first-roll rules of a column (docs/rules.md, "Jamb"): Ručna / sèche takes only
        a first roll, and so does an announce column without an announcement."""
        discipline = self.columns[self._c(cell.column)].discipline
        if not first_roll_only(discipline, announced=self._announced[p] == cell):
            return
        if discipline is Discipline.HAND:
            code = "first_roll_only"
            why = "takes only a result of the first roll"
        else:
            code = "announce_first"
            why = "takes a later roll only after an announcement; unannounced, only a first roll"
        if roll is None:
            raise IllegalMoveError(
                f"{self.cell_name(cell)} {why}; say which roll of the turn made the dice",
                code="roll_needed",
                cell=self.cell_name(cell),
            )
        if roll != 1:
            raise IllegalMoveError(
                f"{self.cell_name(cell)} {why}, not roll {roll}",
                code=code,
                cell=self.cell_name(cell),
                roll=roll,
            )

    def _score_dice(
        self, p: int, cell: Cell, dice: Dice, roll: int | None
    ) -> tuple[int, int, bool]:
        """(points, extra-Kniffel bonus, joker used) for an allowed cell."""
        row = cell.row
        self._check_roll(p, cell, roll)
        if roll is None and roll_matters(row, dice, self.options):
            raise IllegalMoveError(
                f"{row.value} scores by the roll that made the dice; say which roll it was",
                code="roll_needed",
                cell=self.cell_name(cell),
            )
        points = sheet_score(row, dice, self.options, roll or 1)
        bonus = 0
        case = self.joker_case(p, dice)
        if case is not None:
            bonus = extra_kniffel_bonus(self.options, self.holds_fifty(p))
            face = dice.faces[0]
            if not joker_permits(case, face, row):
                if case is JokerCase.MATCHING:
                    allowed = self.allowed_cells(p)
                    matching = [a for a in allowed if joker_permits(case, face, a.row)]
                    where = " or ".join(self.cell_name(a) for a in matching)
                    raise IllegalMoveError(
                        f"joker: the Kniffel must go into {where}",
                        code="joker_forced",
                        cells=[self.cell_name(a) for a in matching],
                    )
                raise IllegalMoveError(
                    "joker: the Kniffel must go into the lower block, since its upper row "
                    "is not open",
                    code="joker_lower",
                )
            points = joker_points(case, row, points)
        self._check_zero(p, cell, points, roll)
        return points, bonus, case not in (None, JokerCase.NONE)

    def _check_zero(self, p: int, cell: Cell, points: int, roll: int | None) -> None:
        if self.zero_refused(p, cell, points, roll):
            raise IllegalMoveError(
                "a zero may go into the lower block only when no upper cell is open",
                code="zero_only_upper",
            )

    # ------------------------------------------------------------ open_spiel

    def legal_actions(self) -> list[Action]:
        """The decisions open to the player to move with virtual dice."""
        p = self._to_move()
        if p is None:
            return []
        pending = self._pending[p]
        if pending is None:
            return [RollAction()]
        dice, rolls = pending
        actions: list[Action] = [EnterAction(o.cell) for o in self.entry_options(p, dice)]
        # No roll where every open cell takes only a first roll (Jamb): the engine refuses it.
        if rolls < MAX_ROLLS and not self.only_first_roll_cells(p):
            actions.extend(RollAction(keep) for keep in keeps_of(dice))
        return actions

    def announce_options(self, player: str | int | None = None) -> list[AnnounceAction]:
        """The announcements open now: the empty cells of the announce columns, right after
        the first roll of a turn with nothing announced yet (docs/rules.md, "Jamb")."""
        p = self._to_move() if player is None else self._p(player)
        if p is None or self._announced[p] is not None:
            return []
        pending = self._pending[p]
        if pending is None or pending[1] != 1:
            return []
        return [AnnounceAction(cell) for cell in self._announceable(p)]

    def _announceable(self, p: int) -> list[Cell]:
        """The empty cells of the player's announce columns."""
        return [
            Cell(spec.id, self.rows[r])
            for c, spec in enumerate(self.columns)
            if spec.discipline is Discipline.ANNOUNCE
            for r, value in enumerate(self._cells[p][c])
            if value is None
        ]

    @staticmethod
    def chance_outcomes(action: RollAction) -> tuple[tuple[Dice, float], ...]:
        """The rolls that may follow ``action`` with their probabilities."""
        return outcome_probabilities(action.keep)

    def apply(self, action: Action | AnnounceAction, dice: Dice | None = None) -> None:
        """Apply a decision of the player to move; a roll needs the ``dice`` that fell."""
        name = self.current_name
        if name is None:
            raise IllegalMoveError("the game is finished", code="game_finished")
        if isinstance(action, RollAction):
            if dice is None:
                raise KniffelError("a roll needs the dice that fell", code="roll_needs_dice")
            self.push(Roll(name, dice, action.keep))
        elif isinstance(action, AnnounceAction):
            self.push(Announce(name, action.cell))
        else:
            self.push(Enter(name, action.cell))

    # ------------------------------------------------------------ push / pop

    def push(self, event: Event) -> None:
        """Check ``event`` against the rules and apply it; a broken rule changes nothing."""
        if isinstance(event, Undo):
            self.pop()
        else:
            if isinstance(event, Roll):
                inverse = self._roll(event)
            elif isinstance(event, Announce):
                inverse = self._announce(event)
            elif isinstance(event, Enter):
                inverse = self._enter(event)
            elif isinstance(event, Edit):
                inverse = self._edit(event)
            elif isinstance(event, Clear):
                inverse = self._clear(event)
            else:
                raise KniffelError(
                    f"unknown event {event!r}", code="unknown_event", event=shown(event)
                )
            self._stack.append((event, inverse))
        self.log.append(event)

    def check(self, event: Event) -> KniffelError | None:
        """Why ``event`` would be refused now (the error :meth:`push` would raise), or ``None``
        when it would be accepted; nothing changes either way.

        >>> from kniffel.rules import get_variant, Dice
        >>> game = Game(get_variant("rauf-runter"), ["Anna", "Ben"])
        >>> error = game.check(Enter("Anna", game.cell("down.threes"), dice=Dice.of([3] * 5)))
        >>> error.code, error.params["due_row"]
        ('not_due', 'ones')
        >>> game.check(Enter("Anna", game.cell("down.ones"), points=3)) is None
        True
        """
        if isinstance(event, Undo):
            if self._stack:
                return None
            return IllegalMoveError("there is nothing to undo", code="nothing_to_undo")
        try:
            self.push(event)
        except KniffelError as error:
            return error
        self.pop()
        self.log.pop()
        return None

    #: The same question, in the board's words.
    refusal = check

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.push(event)

    def pop(self) -> Event:
        """Take back the last event not taken back yet; returns it."""
        if not self._stack:
            raise IllegalMoveError("there is nothing to undo", code="nothing_to_undo")
        event, inv = self._stack.pop()
        if isinstance(event, Roll):
            self._pending[inv.p] = inv.pending
        elif isinstance(event, Announce):
            self._announced[inv.p] = None
        elif isinstance(event, Enter):
            self._cells[inv.p][inv.c][inv.r] = None
            self._bonus[inv.p][inv.c][inv.r] = 0
            self._filled[inv.p] -= 1
            self._pending[inv.p] = inv.pending
            self._announced[inv.p] = inv.announced
        elif isinstance(event, Edit):
            self._cells[inv.p][inv.c][inv.r] = inv.old
        elif isinstance(event, Clear):
            self._cells[inv.p][inv.c][inv.r] = inv.old
            self._bonus[inv.p][inv.c][inv.r] = inv.bonus
            self._filled[inv.p] += 1
        return event

    @property
    def can_undo(self) -> bool:
        return bool(self._stack)

    @property
    def last_event(self) -> Event | None:
        """The last event still standing (the one an undo would take back)."""
        return self._stack[-1][0] if self._stack else None

    def _mover(self, player: str) -> int:
        p = self.seat(player)
        to_move = self._to_move()
        if to_move is None:
            raise IllegalMoveError(
                "the game is finished; only corrections are possible", code="game_finished"
            )
        if p != to_move:
            raise NotYourTurnError(
                f"it is not {printable(player)}'s turn; "
                f"{printable(self.players[to_move])} is to move",
                player=player,
                to_move=self.players[to_move],
            )
        return p

    def _roll(self, event: Roll) -> _Inverse:
        p = self._mover(event.player)
        pending = self._pending[p]
        keep = check_keep(event.keep)
        if pending is None:
            if keep:
                raise IllegalMoveError(
                    "the first roll of a turn keeps no dice",
                    code="first_roll_keeps",
                    keep=list(keep),
                )
            rolls = 0
        else:
            last, rolls = pending
            if rolls >= MAX_ROLLS:
                raise IllegalMoveError(
                    "no rolls left in this turn; enter the dice into a cell", code="no_rolls_left"
                )
            if self.only_first_roll_cells(p):
                raise IllegalMoveError(
                    "every open cell takes only a first roll; enter the dice or announce",
                    code="first_roll_cells_only",
                )
            if not is_submultiset(keep, last.faces):
                raise IllegalMoveError(
                    f"the kept dice {_faces(keep)} are not all in the last roll {last}",
                    code="keep_not_in_roll",
                    keep=list(keep),
                    dice=list(last.faces),
                )
        dice = Dice.of(event.dice)
        if not is_submultiset(keep, dice.faces):
            raise IllegalMoveError(
                f"the new dice {dice} do not show the kept dice {_faces(keep)}",
                code="dice_miss_keep",
                dice=list(dice.faces),
                keep=list(keep),
            )
        self._pending[p] = (dice, rolls + 1)
        return _Inverse(p, pending=pending)

    def _announce(self, event: Announce) -> _Inverse:
        """Najava / annoncée (docs/rules.md, "Jamb"): right after the first roll, one empty
        row of an announce column. With real dice (nothing rolled on the board) the
        players say that it came after the first roll."""
        p = self._mover(event.player)
        c, r = self._cr(event.cell)
        name = self.cell_name(event.cell)
        if self.columns[c].discipline is not Discipline.ANNOUNCE:
            raise IllegalMoveError(
                f"only a row of an announce column can be announced, not {name}",
                code="announce_column",
                cell=name,
            )
        already = self._announced[p]
        if already is not None:
            raise IllegalMoveError(
                f"{self.cell_name(already)} is announced already; one announcement a turn",
                code="announce_twice",
                cell=self.cell_name(already),
            )
        if self._cells[p][c][r] is not None:
            raise IllegalMoveError(f"{name} is already filled", code="cell_filled", cell=name)
        pending = self._pending[p]
        if pending is not None and pending[1] != 1:
            raise IllegalMoveError(
                f"an announcement comes right after the first roll, not after roll {pending[1]}",
                code="announce_late",
                roll=pending[1],
            )
        self._announced[p] = event.cell
        return _Inverse(p)

    def only_first_roll_cells(self, player: str | int | None = None) -> bool:
        """Whether a later roll could go nowhere: nothing announced, and every open cell takes
        only a first roll (:func:`~kniffel.rules.first_roll_only`; docs/rules.md, "Jamb")."""
        p = self._p(player) if player is not None else self._to_move()
        if p is None or self._announced[p] is not None:
            return False
        return all(
            first_roll_only(self.columns[self._c(cell.column)].discipline)
            for cell in self.allowed_cells(p)
        )

    def _check_allowed(self, p: int, cell: Cell) -> tuple[int, int]:
        c, r = self._cr(cell)
        announced = self._announced[p]
        if announced is not None and announced != cell:
            raise IllegalMoveError(
                f"{self.cell_name(announced)} is announced; the entry goes there",
                code="announced_elsewhere",
                cell=self.cell_name(cell),
                announced=self.cell_name(announced),
            )
        if self._cells[p][c][r] is not None:
            raise IllegalMoveError(
                f"{self.cell_name(cell)} is already filled",
                code="cell_filled",
                cell=self.cell_name(cell),
            )
        if self.columns[c].discipline is Discipline.MIDDLE and not self._is_allowed(p, c, r):
            rows = [self.rows[i].value for i in self._open_indices(p, c)]
            raise IllegalMoveError(
                f"{self.cell_name(cell)} is not open; from the middle out, open are "
                f"{', '.join(rows)}",
                code="middle_order",
                cell=self.cell_name(cell),
                rows=rows,
            )
        if not self._is_allowed(p, c, r):
            due = self._due_index(p, c)
            assert due is not None  # an empty cell of an arrow column means a due cell
            raise IllegalMoveError(
                f"{self.cell_name(cell)} is not due; the due cell of {cell.column} is "
                f"{self.rows[due].value}",
                code="not_due",
                cell=self.cell_name(cell),
                column=cell.column,
                row=cell.row.value,
                due_row=self.rows[due].value,
            )
        return c, r

    def _enter(self, event: Enter) -> _Inverse:
        p = self._mover(event.player)
        c, r = self._check_allowed(p, event.cell)
        pending = self._pending[p]
        if event.dice is not None and event.points is not None:
            raise KniffelError("an entry gives dice or points, not both", code="dice_and_points")
        if (event.dice is not None or event.points is not None) and pending is not None:
            raise IllegalMoveError(
                f"{printable(event.player)} has rolled {pending[0]}; enter those dice, not others",
                code="dice_pending",
                player=event.player,
                dice=list(pending[0].faces),
            )
        roll = self._entry_roll(event, pending)
        bonus = 0
        if event.points is not None:
            points = self._check_points(event.cell, event.points)
            self._check_roll(p, event.cell, roll)
            self._check_straight_points(event.cell, points, roll)
            self._check_zero(p, event.cell, points, roll)
        else:
            if event.dice is not None:
                dice = Dice.of(event.dice)
            elif pending is not None:
                dice = pending[0]
            else:
                raise IllegalMoveError(
                    f"{printable(event.player)} has no dice rolled; "
                    "roll first or give the dice or points",
                    code="no_dice",
                    player=event.player,
                )
            points, bonus, _ = self._score_dice(p, event.cell, dice, roll)
        announced = self._announced[p]
        self._cells[p][c][r] = points
        self._bonus[p][c][r] = bonus
        self._filled[p] += 1
        self._pending[p] = None
        self._announced[p] = None
        return _Inverse(p, c, r, pending=pending, announced=announced)

    def _entry_roll(self, event: Enter, pending: _Pending) -> int | None:
        """Which roll made the entry's dice: the rolled dice's count, or the entry's ``roll``."""
        if event.roll is None:
            return None if pending is None else pending[1]
        if isinstance(event.roll, bool) or event.roll not in range(1, MAX_ROLLS + 1):
            raise KniffelError(
                f"roll must be 1, 2 or 3, got {shown(event.roll)}",
                code="roll_number",
                value=shown(event.roll),
            )
        if pending is not None and pending[1] != event.roll:
            raise IllegalMoveError(
                f"the dice came with roll {pending[1]}, not roll {event.roll}",
                code="roll_mismatch",
                roll=event.roll,
                rolls=pending[1],
            )
        return event.roll

    def _check_straight_points(self, cell: Cell, points: int, roll: int | None) -> None:
        """Jamb's Kenta entered as points: they must be what a straight on that roll scores."""
        if not self._jamb or cell.row is not Row.STRAIGHT or self.options.straight_fixed:
            return
        if points == 0 or roll is None or points == STRAIGHT_BY_ROLL[roll]:
            return
        raise InvalidPointsError(
            f"{points} points are not possible in {cell.row.value} on roll {roll}; "
            f"possible are 0, {STRAIGHT_BY_ROLL[roll]}",
            row=cell.row.value,
            points=points,
            allowed=[0, STRAIGHT_BY_ROLL[roll]],
        )

    def _check_points(self, cell: Cell, points: object) -> int:
        if isinstance(points, bool) or not isinstance(points, int):
            raise InvalidPointsError(
                f"points must be a whole number, got {shown(points)}",
                code="points_not_whole",
                points=shown(points),
            )
        allowed = possible_points(cell.row, self.options)
        if points not in allowed:
            raise InvalidPointsError(
                f"{points} points are not possible in {cell.row.value}; possible are "
                f"{point_ranges(allowed)}",
                row=cell.row.value,
                points=points,
                allowed=sorted(allowed),
            )
        return points

    def _owned_filled(self, player: str, cell: Cell, verb: str) -> tuple[int, int, int, int]:
        p = self.seat(player)
        c, r = self._cr(cell)
        old = self._cells[p][c][r]
        if old is None:
            raise IllegalMoveError(
                f"{self.cell_name(cell)} is empty; there is nothing to {verb}",
                code="cell_empty",
                cell=self.cell_name(cell),
            )
        return p, c, r, old

    def _edit(self, event: Edit) -> _Inverse:
        p, c, r, old = self._owned_filled(event.player, event.cell, "edit")
        self._cells[p][c][r] = self._check_points(event.cell, event.points)
        return _Inverse(p, c, r, old)

    def _clear(self, event: Clear) -> _Inverse:
        p, c, r, old = self._owned_filled(event.player, event.cell, "clear")
        bonus = self._bonus[p][c][r]
        self._cells[p][c][r] = None
        self._bonus[p][c][r] = 0
        self._filled[p] -= 1
        return _Inverse(p, c, r, old, bonus)

    def _p(self, player: str | int) -> int:
        if isinstance(player, bool):
            raise UnknownPlayerError(
                f"unknown player {shown(player)}", player=shown(player), players=list(self.players)
            )
        if isinstance(player, int):
            if not 0 <= player < len(self.players):
                raise UnknownPlayerError(
                    f"there is no seat {player}; the seats are 0 to {len(self.players) - 1}",
                    code="unknown_seat",
                    seat=player,
                    seats=len(self.players),
                )
            return player
        return self.seat(player)

    def _c(self, column: str) -> int:
        try:
            return self._col_index[column]
        except (KeyError, TypeError):
            raise UnknownCellError(
                f"unknown column {shown(column)}; "
                f"the columns are {', '.join(self.variant.column_ids)}",
                code="unknown_column",
                column=shown(column),
                columns=list(self.variant.column_ids),
            ) from None

    def _cr(self, cell: Cell) -> tuple[int, int]:
        c = self._c(cell.column)
        try:
            return c, self._row_index[cell.row]
        except (KeyError, TypeError):
            raise UnknownCellError(f"unknown cell {cell}", cell=str(cell)) from None

    def alone(self, player: str | int) -> Game:
        """A one-player game holding ``player``'s sheet as it stands, at the start of their
        next turn: dice not entered and an announcement do not count, and there is no history
        (what the win chances of Jamb and Yams play on from: docs/solver.md)."""
        p = self._p(player)
        solo = Game(self.variant, [self.players[p]])
        solo._cells = [[list(col) for col in self._cells[p]]]
        solo._bonus = [[list(col) for col in self._bonus[p]]]
        solo._filled = [self._filled[p]]
        return solo

    def copy(self) -> Game:
        """An independent copy with the same state and history."""
        twin = Game(self.variant, self.players)
        twin._cells = [[list(col) for col in sheet] for sheet in self._cells]
        twin._bonus = [[list(col) for col in sheet] for sheet in self._bonus]
        twin._filled = list(self._filled)
        twin._pending = list(self._pending)
        twin._announced = list(self._announced)
        twin._stack = list(self._stack)
        twin.log = list(self.log)
        return twin


def _faces(faces: Iterable[int]) -> str:
    return " ".join(map(str, faces)) or "(none)"
