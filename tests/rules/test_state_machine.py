"""A state machine over whole games with corrections, checked against a simple model.

The model keeps the sheet as a dict of filled cells, derives turn order, due
cells and totals the plain way docs/rules.md states them, and takes back an event
by restoring a copy of itself from before the event.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from kniffel.record import loads, record_of, replay, state_dict
from kniffel.rules import ROWS as KNIFFEL_ROWS
from kniffel.rules import (
    Cell,
    Clear,
    Dice,
    Discipline,
    Edit,
    Enter,
    Event,
    Game,
    IllegalMoveError,
    InvalidPointsError,
    Joker,
    KniffelError,
    NotYourTurnError,
    Roll,
    Row,
    Undo,
    UnknownPlayerError,
    Variant,
    possible_points,
    raw_score,
)
from strategies import KNIFFEL_PRESETS, player_lists, variants

JOKER_FULL = {Row.FULL_HOUSE: 25, Row.SMALL_STRAIGHT: 30, Row.LARGE_STRAIGHT: 40}
Key = tuple[int, str, Row]


@dataclass
class Table:
    """The model: filled cells, their extra-Kniffel bonuses and everyone's pending dice."""

    variant: Variant
    players: list[str]
    values: dict[Key, int] = field(default_factory=dict)
    bonus: dict[Key, int] = field(default_factory=dict)
    pending: dict[int, tuple[Dice, int]] = field(default_factory=dict)

    @property
    def rows(self) -> list[Row]:
        return [r for r in KNIFFEL_ROWS if r is not Row.CHANCE or self.variant.options.chance]

    def cells(self) -> list[Cell]:
        return [Cell(spec.id, row) for spec in self.variant.columns for row in self.rows]

    def filled(self, p: int) -> int:
        return sum(1 for key in self.values if key[0] == p)

    def to_move(self) -> int | None:
        counts = [self.filled(p) for p in range(len(self.players))]
        if min(counts) == len(self.cells()):
            return None
        return counts.index(min(counts))

    def allowed(self, p: int) -> list[Cell]:
        result = []
        for spec in self.variant.columns:
            empty = [row for row in self.rows if (p, spec.id, row) not in self.values]
            if spec.discipline is Discipline.FREE:
                result += [Cell(spec.id, row) for row in empty]
            elif empty:
                result.append(Cell(spec.id, empty[0 if spec.discipline is Discipline.DOWN else -1]))
        return result

    def zero_refused(self, p: int, row: Row, points: int) -> bool:
        return (
            points == 0
            and self.variant.options.zero_only_upper
            and not row.is_upper
            and any(c.row.is_upper for c in self.allowed(p))
        )

    def entry(self, p: int, cell: Cell, dice: Dice) -> tuple[int, int] | None:
        """(points, bonus) of entering ``dice`` into the allowed ``cell``; None when refused."""
        options = self.variant.options
        points = raw_score(cell.row, dice, options.pasch)
        bonus = 0
        kniffels = [self.values.get((p, spec.id, Row.KNIFFEL)) for spec in self.variant.columns]
        if len(set(dice.faces)) == 1 and None not in kniffels:
            if options.kniffel_bonus and 50 in kniffels:
                bonus = options.kniffel_bonus
            allowed = self.allowed(p)
            if options.joker is Joker.FREE:
                points = JOKER_FULL.get(cell.row, points)
            elif options.joker is Joker.FORCED:
                matching = [c for c in allowed if c.row.face == dice.faces[0]]
                if matching:
                    if cell not in matching:
                        return None
                elif any(not c.row.is_upper for c in allowed):
                    if cell.row.is_upper:
                        return None
                    points = JOKER_FULL.get(cell.row, points)
        if self.zero_refused(p, cell.row, points):
            return None
        return points, bonus

    def state(self) -> dict[str, Any]:
        """What ``state_dict`` must say."""
        p = self.to_move()
        turn = None
        if p is not None:
            dice, rolls = self.pending.get(p, (None, 0))
            turn = {
                "player": self.players[p],
                "rolls": rolls,
                "dice": None if dice is None else list(dice.faces),
                "allowed": [str(c) for c in self.allowed(p)],
            }
        sheets: list[dict[str, Any]] = []
        for i, name in enumerate(self.players):
            columns: dict[str, dict[str, Any]] = {}
            for spec in self.variant.columns:
                cells = {row.value: self.values.get((i, spec.id, row)) for row in self.rows}
                upper = sum(cells[row.value] or 0 for row in self.rows if row.is_upper)
                lower = sum(cells[row.value] or 0 for row in self.rows if not row.is_upper)
                extra = sum(v for key, v in self.bonus.items() if key[:2] == (i, spec.id))
                bonus = 35 if upper >= 63 else 0
                columns[spec.id] = {
                    "cells": cells,
                    "upper": upper,
                    "bonus": bonus,
                    "lower": lower,
                    "kniffel_bonus": extra,
                    "total": spec.factor * (upper + bonus + lower + extra),
                }
            total = sum(c["total"] for c in columns.values())
            sheets.append({"name": name, "total": total, "columns": columns})
        finished = p is None
        best = max(s["total"] for s in sheets)
        return {
            "variant": self.variant.name,
            "finished": finished,
            "winners": [s["name"] for s in sheets if s["total"] == best] if finished else [],
            "turn": turn,
            "players": sheets,
        }


def kniffel_or_any_dice(keep: tuple[int, ...] = ()) -> st.SearchStrategy[Dice]:
    rest = st.lists(st.integers(1, 6), min_size=5 - len(keep), max_size=5 - len(keep))
    any_dice = rest.map(lambda faces: Dice.of([*keep, *faces]))
    if keep and len(set(keep)) > 1:
        return any_dice
    faces = st.integers(1, 6) if not keep else st.just(keep[0])
    return any_dice | faces.map(lambda f: Dice.of([f] * 5))


class GameMachine(RuleBasedStateMachine):
    """Random legal and illegal events of whole games; the engine must agree with the model."""

    game: Game
    table: Table

    def __init__(self) -> None:
        super().__init__()
        self.history: list[Table] = []
        self.log_length = 0

    # The model is of the Kniffel sheet (§1 to §9); Jamb and Yams: tests/rules/test_jamb.py.
    @initialize(variant=variants(KNIFFEL_PRESETS), players=player_lists(max_size=3))
    def start(self, variant: Variant, players: list[str]) -> None:
        self.game = Game(variant, players)
        self.table = Table(variant, players)

    # ----------------------------------------------------------- how to act

    @property
    def mover(self) -> int | None:
        return self.table.to_move()

    def name(self, p: int) -> str:
        return self.table.players[p]

    def accept(self, event: Event) -> Table:
        """Push a legal event; returns the model to change (a copy kept for undo)."""
        self.game.push(event)
        self.log_length += 1
        self.history.append(copy.deepcopy(self.table))
        return self.table

    def refuse(self, event: Event, error: type[KniffelError]) -> None:
        before = (state_dict(self.game), self.pendings(), list(self.game.log))
        try:
            self.game.push(event)
        except error as exc:
            message = str(exc)
            assert message and "\n" not in message
        else:
            raise AssertionError(f"{event} was accepted")
        assert (state_dict(self.game), self.pendings(), list(self.game.log)) == before

    def pendings(self) -> list[tuple[Dice, int] | None]:
        return [self.game.pending(name) for name in self.game.players]

    def roll(self, p: int, dice: Dice, keep: tuple[int, ...]) -> None:
        rolls = self.table.pending.get(p, (None, 0))[1]
        self.accept(Roll(self.name(p), dice, keep)).pending[p] = (dice, rolls + 1)

    def enter(
        self, p: int, cell: Cell, dice: Dice | None = None, points: int | None = None
    ) -> None:
        """An entry of the pending dice, typed dice or points, accepted or refused as the
        model says."""
        pending = self.table.pending.get(p)
        if points is not None:
            if points not in possible_points(cell.row, self.variant.options):
                self.refuse(Enter(self.name(p), cell, points=points), InvalidPointsError)
                return
            if self.table.zero_refused(p, cell.row, points):
                self.refuse(Enter(self.name(p), cell, points=points), IllegalMoveError)
                return
            outcome: tuple[int, int] | None = (points, 0)
        else:
            rolled = pending[0] if pending is not None else dice
            assert rolled is not None and (dice is None) != (pending is None)
            outcome = self.table.entry(p, cell, rolled)
        event = Enter(self.name(p), cell, dice, points)
        if outcome is None:
            self.refuse(event, IllegalMoveError)
            return
        table = self.accept(event)
        key = (p, cell.column, cell.row)
        table.values[key], table.bonus[key] = outcome
        table.pending.pop(p, None)

    @property
    def variant(self) -> Variant:
        return self.table.variant

    def filled_keys(self) -> list[Key]:
        return sorted(self.table.values, key=lambda k: (k[0], k[1], KNIFFEL_ROWS.index(k[2])))

    def pick_filled(self, data: st.DataObject) -> Key:
        """A filled cell; half the time one that earned an extra-Kniffel bonus, if any did."""
        with_bonus = sorted(key for key, bonus in self.table.bonus.items() if bonus)
        if with_bonus:
            prefer_bonus: bool = data.draw(st.booleans())
            if prefer_bonus:
                return data.draw(st.sampled_from(with_bonus))
        return data.draw(st.sampled_from(self.filled_keys()))

    # -------------------------------------------------------------- moves

    def rolls_left(self) -> bool:
        p = self.mover
        return p is not None and self.table.pending.get(p, (None, 0))[1] < 3

    @precondition(rolls_left)
    @rule(data=st.data())
    def roll_dice(self, data: st.DataObject) -> None:
        p = self.mover
        assert p is not None
        pending = self.table.pending.get(p)
        if pending is None:
            self.roll(p, data.draw(kniffel_or_any_dice()), ())
        else:
            mask = data.draw(st.lists(st.booleans(), min_size=5, max_size=5))
            keep = tuple(f for f, kept in zip(pending[0].faces, mask, strict=True) if kept)
            self.roll(p, data.draw(kniffel_or_any_dice(keep)), keep)

    @precondition(lambda self: self.mover is not None)
    @rule(data=st.data())
    def enter_dice_or_points(self, data: st.DataObject) -> None:
        p = self.mover
        assert p is not None
        cell = data.draw(st.sampled_from(self.table.allowed(p)))
        if p in self.table.pending:
            self.enter(p, cell)
        elif data.draw(st.booleans()):
            self.enter(p, cell, dice=data.draw(kniffel_or_any_dice()))
        else:
            self.enter(p, cell, points=data.draw(st.integers(-1, 55)))

    @precondition(lambda self: self.mover is not None and self.mover not in self.table.pending)
    @rule(data=st.data())
    def enter_a_kniffel(self, data: st.DataObject) -> None:
        """Typed five of a kind, into a Kniffel cell when one is allowed: the way to the joker."""
        p = self.mover
        assert p is not None
        allowed = self.table.allowed(p)
        kniffel_cells = [c for c in allowed if c.row is Row.KNIFFEL]
        cell = data.draw(st.sampled_from(kniffel_cells or allowed))
        self.enter(p, cell, dice=Dice.of([data.draw(st.integers(1, 6))] * 5))

    @precondition(lambda self: self.mover is not None)
    @rule(rng=st.randoms(use_true_random=True), turns=st.integers(1, 40))
    def play_turns(self, rng: random.Random, turns: int) -> None:
        """Whole legal turns at once (rolled, typed or points), so that games reach their end."""
        for _ in range(turns):
            p = self.mover
            if p is None:
                return
            allowed = self.table.allowed(p)
            how = rng.random()
            if how < 0.2 and p not in self.table.pending:
                cell = rng.choice(allowed)
                values = [
                    v
                    for v in possible_points(cell.row, self.variant.options)
                    if not self.table.zero_refused(p, cell.row, v)
                ]
                self.enter(p, cell, points=rng.choice(sorted(values)))
                continue
            if how < 0.4 and p not in self.table.pending:
                face = rng.randint(1, 6)
                dice = Dice.of([face] * 5 if rng.random() < 0.5 else [face, 1, 2, 3, 5])
                cells = [c for c in allowed if self.table.entry(p, c, dice) is not None]
                self.enter(p, rng.choice(cells), dice=dice)
                continue
            while self.table.pending.get(p, (None, 0))[1] < rng.randint(1, 3):
                pending = self.table.pending.get(p)
                keep = (
                    ()
                    if pending is None
                    else tuple(f for f in pending[0].faces if rng.random() < 0.5)
                )
                rest = [rng.randint(1, 6) for _ in range(5 - len(keep))]
                self.roll(p, Dice.of([*keep, *rest]), keep)
            dice = self.table.pending[p][0]
            self.enter(p, rng.choice([c for c in allowed if self.table.entry(p, c, dice)]))

    @precondition(lambda self: bool(self.table.values))
    @rule(data=st.data())
    def edit(self, data: st.DataObject) -> None:
        p, column, row = self.pick_filled(data)
        points = data.draw(st.sampled_from(sorted(possible_points(row, self.variant.options))))
        self.accept(Edit(self.name(p), Cell(column, row), points)).values[p, column, row] = points

    @precondition(lambda self: bool(self.table.values))
    @rule(data=st.data())
    def clear(self, data: st.DataObject) -> None:
        key = self.pick_filled(data)
        table = self.accept(Clear(self.name(key[0]), Cell(key[1], key[2])))
        del table.values[key]
        table.bonus.pop(key, None)

    @rule()
    def undo(self) -> None:
        if not self.history:
            self.refuse(Undo(), IllegalMoveError)
            return
        self.game.push(Undo())
        self.log_length += 1
        self.table = self.history.pop()

    # ---------------------------------------------------- illegal attempts

    @rule(data=st.data())
    def attempt_something_illegal(self, data: st.DataObject) -> None:
        """One of the moves the rules forbid; each must raise and change nothing."""
        attempts = [self.unknown_player, self.correct_an_empty_cell]
        p = self.mover
        if len(self.table.players) > 1:
            attempts.append(self.move_out_of_turn)
        if self.table.values:
            attempts.append(self.edit_with_impossible_points)
        if p is not None:
            attempts.append(self.enter_where_not_allowed)
            attempts.append(
                self.use_other_dice if p in self.table.pending else self.enter_without_dice
            )
        data.draw(st.sampled_from(attempts))(data)

    def move_out_of_turn(self, data: st.DataObject) -> None:
        p = self.mover
        other = data.draw(st.sampled_from([i for i in range(len(self.table.players)) if i != p]))
        error = IllegalMoveError if p is None else NotYourTurnError
        self.refuse(Roll(self.name(other), Dice.parse("12345")), error)
        cell = data.draw(st.sampled_from(self.table.cells()))
        self.refuse(Enter(self.name(other), cell, points=0), error)

    def enter_where_not_allowed(self, data: st.DataObject) -> None:
        p = self.mover
        assert p is not None
        locked = [c for c in self.table.cells() if c not in self.table.allowed(p)]
        if locked:
            cell = data.draw(st.sampled_from(locked))
            self.refuse(Enter(self.name(p), cell, points=0), IllegalMoveError)

    def use_other_dice(self, data: st.DataObject) -> None:
        """Typed dice or points while dice are pending, a keep that was not rolled, a 4th roll."""
        p = self.mover
        assert p is not None
        dice, rolls = self.table.pending[p]
        cell = data.draw(st.sampled_from(self.table.allowed(p)))
        self.refuse(Enter(self.name(p), cell, dice=dice), IllegalMoveError)
        self.refuse(Enter(self.name(p), cell, points=0), IllegalMoveError)
        face = data.draw(st.integers(1, 6))
        keep = (face,) * (dice.counts[face - 1] + 1)
        if len(keep) <= 5 and rolls < 3:
            self.refuse(Roll(self.name(p), Dice.of([face] * 5), keep), IllegalMoveError)
        if rolls == 3:
            self.refuse(Roll(self.name(p), dice, dice.faces), IllegalMoveError)

    def enter_without_dice(self, data: st.DataObject) -> None:
        p = self.mover
        assert p is not None
        cell = data.draw(st.sampled_from(self.table.allowed(p)))
        self.refuse(Enter(self.name(p), cell), IllegalMoveError)

    def correct_an_empty_cell(self, data: st.DataObject) -> None:
        p = data.draw(st.integers(0, len(self.table.players) - 1))
        empty = [c for c in self.table.cells() if (p, c.column, c.row) not in self.table.values]
        if empty:
            cell = data.draw(st.sampled_from(empty))
            self.refuse(Clear(self.name(p), cell), IllegalMoveError)
            self.refuse(Edit(self.name(p), cell, 0), IllegalMoveError)

    def edit_with_impossible_points(self, data: st.DataObject) -> None:
        p, column, row = data.draw(st.sampled_from(self.filled_keys()))
        possible = possible_points(row, self.variant.options)
        points = data.draw(st.integers(-5, 60).filter(lambda v: v not in possible))
        self.refuse(Edit(self.name(p), Cell(column, row), points), InvalidPointsError)

    def unknown_player(self, data: st.DataObject) -> None:
        stranger = "Zoe" + "".join(self.table.players)
        self.refuse(Roll(stranger, Dice.parse("12345")), UnknownPlayerError)
        self.refuse(Clear(stranger, self.table.cells()[0]), UnknownPlayerError)

    # ---------------------------------------------------------- invariants

    @invariant()
    def engine_agrees_with_the_model(self) -> None:
        assert state_dict(self.game) == self.table.state()
        assert self.pendings() == [self.table.pending.get(p) for p in range(len(self.pendings()))]
        assert len(self.game.log) == self.log_length
        assert self.game.can_undo == bool(self.history)

    def teardown(self) -> None:
        if not hasattr(self, "game"):
            return
        again = replay(loads(json.dumps(record_of(self.game))))
        assert state_dict(again) == state_dict(self.game)
        assert [again.pending(n) for n in again.players] == self.pendings()


GameMachine.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],  # whole turns per step are slow by design
)
test_game_machine = GameMachine.TestCase
