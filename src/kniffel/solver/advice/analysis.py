"""Analysis of a game: every decision beside the best one, and the points it cost.

A game is replayed event by event. Each decision of a player is valued as
the advice (:mod:`kniffel.solver.advice.position`) values it at that moment: the
expected final total after the choice made and after the best choice; the
difference is the expected loss. Decisions are

- the keep before a second or third roll (the first roll of a turn decides nothing),
- the entry that ends a turn: with rolled dice it competes with rolling on;
  with dice given at the table (physical dice, no roll recorded) only with
  the other entries of those dice;
- in Jamb and Yams, an announcement right after a rolled first roll (it competes with the
  keeps and the entries of that roll); one said at the table without rolled dice shows no
  dice to judge. These sheets are valued by the ``best`` bot's heuristic
  (:mod:`.family`), not by an optimum.

Entries that give points instead of dice show no dice to judge and are not
decisions here. Corrections (edit, clear) change the sheet the later
decisions start from but are not decisions themselves, and an undone event
is as if it never happened: only the events still standing are analysed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kniffel.record import Record, replay
from kniffel.rules import (
    MAX_ROLLS,
    Action,
    Announce,
    AnnounceAction,
    Dice,
    Enter,
    EnterAction,
    Event,
    Game,
    Roll,
    RollAction,
    Variant,
    standing_events,
)
from kniffel.solver.advice.family import SOURCE, is_heuristic
from kniffel.solver.advice.position import Choice, Position, evaluate, is_exact

__all__ = [
    "Analysis",
    "Decision",
    "PlayerLoss",
    "analyse",
    "choice_dict",
    "choice_label",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: the choice made and the best one, each with its expected final total."""

    event: int  # the number of the event that made the choice (1-based, as in the record)
    turn: int  # the player's turn (1-based)
    player: str
    dice: Dice
    rolls: int | None  # rolls made before the decision; None for dice given at the table
    made: Choice
    best: Choice

    @property
    def loss(self) -> float:
        """Expected points lost by the choice made (0 for a best choice)."""
        return max(0.0, self.best.expected - self.made.expected)


@dataclass(frozen=True, slots=True)
class PlayerLoss:
    """A player's expected points lost over all their decisions."""

    loss: float
    decisions: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every decision of a game, in the order they were made, and the loss per player."""

    variant: Variant
    exact: bool  # one-column presets: exact values; otherwise the best bot's estimate
    finished: bool
    decisions: tuple[Decision, ...]
    players: dict[str, PlayerLoss]

    def costliest(self, top: int | None = None) -> tuple[Decision, ...]:
        """The ``top`` decisions that cost the most (all with ``None``), in game order."""
        if top is None:
            return self.decisions
        ranked = sorted(self.decisions, key=lambda d: -d.loss)[:top]
        return tuple(sorted(ranked, key=lambda d: d.event))

    def as_dict(self, top: int | None = None) -> dict[str, Any]:
        """The analysis as JSON-ready data (``decisions`` limited to the ``top`` costliest)."""
        one_column = len(self.variant.columns) == 1
        return {
            "variant": self.variant.name,
            "exact": self.exact,
            "source": source(self.variant),
            "finished": self.finished,
            "decisions": [
                {
                    "event": d.event,
                    "turn": d.turn,
                    "player": d.player,
                    "dice": list(d.dice.faces),
                    "rolls": d.rolls,
                    "choice": choice_dict(d.made, one_column),
                    "best": choice_dict(d.best, one_column),
                    "loss": d.loss,
                }
                for d in self.costliest(top)
            ],
            "players": {
                name: {"loss": total.loss, "decisions": total.decisions}
                for name, total in self.players.items()
            },
        }


def source(variant: Variant) -> str:
    """What the values of ``variant``'s analysis are: ``exact`` (one Kniffel column),
    ``estimate`` (several: the best bot's calibrated estimate) or ``heuristic`` (Jamb and
    Yams: the best family bot's own worth, :mod:`.family`)."""
    if is_heuristic(variant):
        return SOURCE
    return "exact" if is_exact(variant) else "estimate"


def choice_label(choice: Choice, one_column: bool = True) -> str:
    """``keep 6 6``, ``roll all dice``, ``enter sixes (18)``; ``enter down.sixes (18)``."""
    action = choice.action
    if isinstance(action, EnterAction):
        cell = action.cell.row.value if one_column else str(action.cell)
        return f"enter {cell} ({choice.points})"
    if isinstance(action, AnnounceAction):
        return f"announce {action.cell}"
    return choice.label


def choice_dict(choice: Choice, one_column: bool) -> dict[str, Any]:
    """A choice as JSON: ``roll`` with the dice to ``keep``, ``enter`` a ``cell``, or
    ``announce`` a ``cell`` (Jamb's Najava, Yams' annoncée)."""
    action = choice.action
    described: dict[str, Any]
    if isinstance(action, EnterAction):
        described = {"action": "enter", "cell": str(action.cell), "points": choice.points}
    elif isinstance(action, AnnounceAction):
        described = {"action": "announce", "cell": str(action.cell)}
    else:
        described = {"action": "roll", "keep": list(action.keep)}
    return {**described, "label": choice_label(choice, one_column), "expected": choice.expected}


def analyse(source: Record | Game) -> Analysis:
    """Analyse a game record (checked first: a bad event raises ``RecordError``) or a game."""
    played = replay(source) if isinstance(source, Record) else source
    game = Game(played.variant, played.players)
    decisions: list[Decision] = []
    for number, event in standing_events(played.log):
        decision = _decision(game, number, event)
        if decision is not None:
            decisions.append(decision)
        game.push(event)
    players = {
        name: PlayerLoss(
            sum(d.loss for d in decisions if d.player == name),
            sum(1 for d in decisions if d.player == name),
        )
        for name in game.players
    }
    return Analysis(
        game.variant, is_exact(game.variant), game.is_finished, tuple(decisions), players
    )


def _decision(game: Game, number: int, event: Event) -> Decision | None:
    """The decision ``event`` makes in ``game`` (before it is pushed), if it is one."""
    if isinstance(event, Roll):
        if game.pending(event.player) is None:
            return None  # the first roll of a turn: rolling is the only choice
        return _judge(game, number, evaluate(game), RollAction(tuple(sorted(event.keep))))
    if isinstance(event, Announce):
        if game.pending(event.player) is None:
            return None  # announced at the table with real dice: no dice to judge
        return _judge(game, number, evaluate(game), AnnounceAction(event.cell))
    if isinstance(event, Enter):
        if event.dice is not None:
            # the roll that made typed dice counts where the sheet says so (Jamb's Kenta,
            # first-roll columns); elsewhere, as before, they compete with entries only
            given = evaluate(game, event.dice, event.roll or MAX_ROLLS)
            return _judge(game, number, given, EnterAction(event.cell))
        if event.points is None:
            return _judge(game, number, evaluate(game), EnterAction(event.cell))
    return None


def _judge(
    game: Game, number: int, position: Position, action: Action | AnnounceAction
) -> Decision:
    made = next((c for c in position.choices if c.action == action), None)
    if made is None:  # keeping all five dice and rolling them again: legal, never listed
        made = Choice(action, position.value(action))
    assert position.dice is not None
    given = game.pending(position.player) is None
    return Decision(
        event=number,
        turn=game.filled_count(position.player) + 1,
        player=position.player,
        dice=position.dice,
        rolls=None if given else position.rolls,
        made=made,
        best=position.choices[0],
    )
