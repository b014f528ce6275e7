"""What the game service answers: a stored game with its engine state, a summary, a preview."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kniffel.rules import Dice, EntryOption, Game, Roll, Variant

__all__ = ["GameSummary", "GameView", "Preview"]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game for lists: everything but its key and its events."""

    id: str
    variant: str
    players: tuple[str, ...]
    dice_mode: str
    bots: dict[str, str]
    created_at: datetime
    updated_at: datetime
    version: int
    finished: bool
    #: From the summary columns: cells filled in all, totals in seat order, winners once finished.
    turns: int = 0
    #: The turns each player has (the game's rounds, docs/rules.md §3), from its variant.
    rounds: int = 0
    totals: tuple[int, ...] = ()
    winners: tuple[str, ...] = ()
    #: Why this release cannot read the game (a variant or option of a newer release), in plain
    #: words; ``None`` for a game it reads.
    unreadable: str | None = None

    @property
    def readable(self) -> bool:
        return self.unreadable is None


@dataclass(frozen=True, slots=True)
class GameView:
    """A stored game with its engine state (the replay of every stored event).

    ``game`` and ``events`` may be shared with the service's replay cache:
    read them, never change them (``game.copy()`` first).
    """

    id: str
    key: str
    variant: Variant
    players: tuple[str, ...]
    dice_mode: str
    bots: dict[str, str]
    created_at: datetime
    updated_at: datetime
    version: int
    game: Game
    events: tuple[dict[str, Any], ...]

    @property
    def finished(self) -> bool:
        return self.game.is_finished

    @property
    def options(self) -> dict[str, Any]:
        return self.variant.options.as_dict()

    @property
    def can_undo(self) -> bool:
        """Whether an undo would be accepted (with virtual dice a roll stands)."""
        if self.dice_mode == "virtual" and isinstance(self.game.last_event, Roll):
            return False
        return self.game.can_undo


@dataclass(frozen=True, slots=True)
class Preview:
    """What each allowed cell would score for the player to move with ``dice``."""

    player: str | None
    dice: Dice | None
    entries: list[EntryOption]
