"""The game review (Spielbericht): how well each player decided, in a few figures.

Built on the analysis (:mod:`kniffel.solver.advice.analysis`), which values every
decision beside the best one. The formulas are documented in docs/solver.md
("The game review"):

- **loss**: the expected points a decision lost against the best choice;
  per player the sum and the mean per rated decision;
- **accuracy** of a decision: ``100 · 2^(−loss / 5)`` percent (a best choice
  scores 100 %, every 5 expected points lost halve it); a player's accuracy
  is the mean over their rated decisions, so 100 % means every decision as
  the best bot would;
- **severity**: a loss of at least 10 points is a *Patzer* (blunder), at
  least 4 a *Fehler* (mistake), at least 1 an *Ungenauigkeit* (inaccuracy);
- the **expected final total after every decision**: the value of the choice
  made (points on the sheet plus the points still to come);
- entries that give points without dice are listed as **not rated**.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kniffel.record import Record, replay
from kniffel.rules import Enter, Game, standing_events
from kniffel.solver.advice.analysis import Analysis, Decision, analyse, choice_label
from kniffel.solver.advice.position import Choice

__all__ = [
    "ACCURACY_HALF_LOSS",
    "COSTLY",
    "SEVERITIES",
    "PlayerReview",
    "Review",
    "Unrated",
    "accuracy",
    "describe",
    "review",
    "review_of",
    "severity",
]

#: Every this many expected points lost halve a decision's accuracy.
ACCURACY_HALF_LOSS = 5.0

#: The severities, worst first, with the smallest loss (expected points) that earns each.
SEVERITIES: tuple[tuple[str, float], ...] = (
    ("patzer", 10.0),
    ("fehler", 4.0),
    ("ungenauigkeit", 1.0),
)

#: A decision that lost at least this much is listed among the costliest.
COSTLY = 0.05

#: How many of the costliest decisions the review shows.
COSTLIEST = 5


def accuracy(loss: float) -> float:
    """A decision's accuracy in percent: 100 for a best choice, halved per 5 points lost.

    >>> accuracy(0.0), accuracy(5.0), round(accuracy(10.0), 1)
    (100.0, 50.0, 25.0)
    """
    return float(100.0 * 2.0 ** (-max(0.0, loss) / ACCURACY_HALF_LOSS))


def severity(loss: float) -> str | None:
    """``patzer``, ``fehler``, ``ungenauigkeit`` or ``None`` for a loss below 1 point.

    >>> severity(12.0), severity(4.0), severity(1.5), severity(0.4)
    ('patzer', 'fehler', 'ungenauigkeit', None)
    """
    for name, threshold in SEVERITIES:
        if loss >= threshold:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Unrated:
    """An entry made with points only: there were no dice to judge."""

    event: int
    turn: int
    player: str
    cell: str
    points: int


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's figures."""

    name: str
    decisions: int  # rated decisions
    loss: float  # expected points lost in all
    accuracy: float | None  # mean accuracy in percent; None without rated decisions
    counts: dict[str, int]  # severity -> number of decisions
    not_rated: int  # entries with points only
    expected: tuple[tuple[int, float], ...]  # (event, expected final total) after each decision

    @property
    def loss_per_decision(self) -> float | None:
        return self.loss / self.decisions if self.decisions else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "loss": self.loss,
            "decisions": self.decisions,
            "loss_per_decision": self.loss_per_decision,
            "accuracy": self.accuracy,
            "counts": dict(self.counts),
            "not_rated": self.not_rated,
            "expected": [{"event": e, "expected": v} for e, v in self.expected],
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The analysis of a game summed up per player."""

    analysis: Analysis
    players: tuple[PlayerReview, ...]
    unrated: tuple[Unrated, ...]

    def player(self, name: str) -> PlayerReview:
        return next(p for p in self.players if p.name == name)

    def costliest(self, top: int = COSTLIEST) -> tuple[Decision, ...]:
        """The ``top`` decisions that cost the most (at least :data:`COSTLY`), costliest first."""
        ranked = sorted(self.analysis.decisions, key=lambda d: (-d.loss, d.event))
        return tuple(d for d in ranked[:top] if d.loss >= COSTLY)

    def as_dict(self, top: int | None = None) -> dict[str, Any]:
        """The analysis's JSON (its keys kept) with the review's figures added.

        ``players[name]`` gains ``accuracy``, ``counts``, ``loss_per_decision``,
        ``not_rated`` and ``expected``; each decision gains ``severity`` and
        ``accuracy``; ``costliest`` lists the event numbers of the costliest
        decisions and ``not_rated`` the entries made with points only.
        """
        data = self.analysis.as_dict(top)
        by_event = {d.event: d for d in self.analysis.decisions}
        for item in data["decisions"]:
            loss = by_event[item["event"]].loss
            item["severity"] = severity(loss)
            item["accuracy"] = accuracy(loss)
        data["players"] = {p.name: p.as_dict() for p in self.players}
        data["costliest"] = [d.event for d in self.costliest()]
        data["not_rated"] = [
            {
                "event": u.event,
                "turn": u.turn,
                "player": u.player,
                "cell": u.cell,
                "points": u.points,
            }
            for u in self.unrated
        ]
        data["formula"] = {
            "accuracy": f"100 * 2 ** (-loss / {ACCURACY_HALF_LOSS:g})",
            "severities": {name: threshold for name, threshold in SEVERITIES},
        }
        return data


def review(source: Record | Game) -> Review:
    """Review a game record (checked first: a bad event raises ``RecordError``) or a game."""
    game = replay(source) if isinstance(source, Record) else source
    return review_of(analyse(game), game)


def review_of(analysis: Analysis, game: Game) -> Review:
    """The review of ``game`` from its ``analysis`` (already computed, e.g. cached)."""
    unrated = _unrated(game)
    players = []
    for name in game.players:
        mine = [d for d in analysis.decisions if d.player == name]
        counts = {label: 0 for label, _ in SEVERITIES}
        for d in mine:
            label = severity(d.loss)
            if label is not None:
                counts[label] += 1
        players.append(
            PlayerReview(
                name=name,
                decisions=len(mine),
                loss=sum(d.loss for d in mine),
                accuracy=sum(accuracy(d.loss) for d in mine) / len(mine) if mine else None,
                counts=counts,
                not_rated=sum(1 for u in unrated if u.player == name),
                expected=tuple((d.event, d.made.expected) for d in mine),
            )
        )
    return Review(analysis, tuple(players), unrated)


def _unrated(game: Game) -> tuple[Unrated, ...]:
    replayed = Game(game.variant, game.players)
    found = []
    for number, event in standing_events(game.log):
        if isinstance(event, Enter) and event.dice is None and event.points is not None:
            found.append(
                Unrated(
                    event=number,
                    turn=replayed.filled_count(event.player) + 1,
                    player=event.player,
                    cell=str(event.cell),
                    points=event.points,
                )
            )
        replayed.push(event)
    return tuple(found)


def describe(
    decision: Decision,
    one_column: bool = True,
    label: Callable[[Choice], str] | None = None,
) -> str:
    """A costly decision in plain English words (``label`` names a choice; default
    :func:`choice_label`).

    ``Anna, turn 3, roll 2, dice 66652: chose enter chance (25), best was keep
    6 6 6; it cost 4.31 points (Fehler).``
    """
    named = label or (lambda choice: choice_label(choice, one_column))
    where = "at the table" if decision.rolls is None else f"roll {decision.rolls}"
    kind = severity(decision.loss)
    return (
        f"{decision.player}, turn {decision.turn}, {where}, dice {decision.dice}: "
        f"chose {named(decision.made)}, "
        f"best was {named(decision.best)}; "
        f"it cost {decision.loss:.2f} points" + (f" ({kind})" if kind else "") + "."
    )
