"""A player's figures across games, and the leaderboard, from the summary rows.

Built from the database's aggregates over the summary rows (one per seat of a
finished game; :mod:`kniffel.store.player_figures`), so a page over years of
games reads a few numbers, never every game. The
definitions (docs/board.md, "Spieler und Bestenliste"):

- **wins**: games where the player's place is 1 (a tie for first counts for
  everyone tied); the **win rate** counts only games with at least two seats;
- **against an opponent**: in the games both played, how often the player's
  total was higher (ahead), lower (behind) or equal (tied); the rate is
  ``ahead / games together``;
- per preset: mean, best and worst total, a histogram, the **upper-bonus
  rate** of each column (share of games with the bonus in that column), the
  **Kniffel rate** (share of games with at least one Kniffel) and the
  **trend**: the mean of the last 10 games minus the mean of all;
- **accuracy** and **loss per decision**: the mean accuracy over the games
  whose review has been computed (every finished game, in the background), and
  their loss in all divided by their rated decisions;
- per preset, the **options** of most of its games: the best bot's yardstick is
  the one for these rules (:mod:`kniffel.board.players.yardstick`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from kniffel.rules import get_variant
from kniffel.store.player_figures import RawFigures, RawGame, RawPreset

__all__ = [
    "LeaderboardRow",
    "Opponent",
    "PlayerStats",
    "PresetStats",
    "leaderboard",
    "player_stats",
]


@dataclass(frozen=True, slots=True)
class PresetStats:
    variant: str
    games: int
    mean: float
    best: int
    worst: int
    histogram: tuple[tuple[int, int, int], ...]  # (from, below, count)
    columns: tuple[str, ...]
    bonus_rate: tuple[float, ...]  # per column
    kniffel_rate: float  # share of games with at least one Kniffel
    kniffels_per_game: float
    recent_mean: float
    trend: float  # recent_mean - mean
    options: str = "{}"  # the options of most of these games, as canonical JSON

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": json.loads(self.options),
            "games": self.games,
            "mean": self.mean,
            "best": self.best,
            "worst": self.worst,
            "histogram": [{"from": a, "below": b, "count": n} for a, b, n in self.histogram],
            "bonus_rate": dict(zip(self.columns, self.bonus_rate, strict=True)),
            "kniffel_rate": self.kniffel_rate,
            "kniffels_per_game": self.kniffels_per_game,
            "recent_mean": self.recent_mean,
            "trend": self.trend,
        }


@dataclass(frozen=True, slots=True)
class Opponent:
    name: str
    games: int
    ahead: int
    behind: int
    tied: int

    @property
    def rate(self) -> float:
        return self.ahead / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "ahead": self.ahead,
            "behind": self.behind,
            "tied": self.tied,
            "win_rate": self.rate,
        }


@dataclass(frozen=True, slots=True)
class PlayerStats:
    key: str
    name: str
    games: int
    wins: int
    contested: int  # games with at least two seats
    contested_wins: int
    accuracy: float | None
    loss_per_decision: float | None
    reviewed: int  # games whose review gave the accuracy
    presets: tuple[PresetStats, ...]
    opponents: tuple[Opponent, ...]
    latest: tuple[RawGame, ...]  # newest first

    @property
    def win_rate(self) -> float | None:
        return self.contested_wins / self.contested if self.contested else None

    def preset(self, variant: str) -> PresetStats | None:
        return next((p for p in self.presets if p.variant == variant), None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "key": self.key,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "accuracy": self.accuracy,
            "loss_per_decision": self.loss_per_decision,
            "reviewed_games": self.reviewed,
            "presets": [p.as_dict() for p in self.presets],
            "opponents": [o.as_dict() for o in self.opponents],
            "latest_games": [
                {
                    "game": g.game_id,
                    "finished_at": g.finished_at.isoformat(),
                    "variant": g.variant,
                    "total": g.total,
                    "place": g.place,
                    "players": g.seats,
                    "accuracy": g.accuracy,
                }
                for g in self.latest
            ],
        }


@cache
def _columns(variant: str) -> tuple[str, ...]:
    """The column ids of a preset (asked once per preset, not per player and preset): its own
    columns, which open the bonus string of each of its games; the optional ones (Jamb's
    Ručna, Yams' sèche) follow them, different from game to game, and are not counted."""
    return tuple(spec.id for spec in get_variant(variant).columns)


def _preset(raw: RawPreset) -> PresetStats:
    columns = _columns(raw.variant)
    n = raw.games
    recent_mean = sum(raw.recent) / len(raw.recent)
    return PresetStats(
        variant=raw.variant,
        games=n,
        mean=raw.mean,
        best=raw.best,
        worst=raw.worst,
        histogram=raw.histogram,
        columns=columns,
        bonus_rate=tuple(raw.bonus[i] / n for i in range(len(columns))),
        kniffel_rate=raw.kniffel_games / n,
        kniffels_per_game=raw.kniffels / n,
        recent_mean=recent_mean,
        trend=recent_mean - raw.mean,
        options=raw.options[0][0] if raw.options else "{}",
    )


def player_stats(raw: RawFigures) -> PlayerStats:
    """The player page's figures from the database's aggregates."""
    return PlayerStats(
        key=raw.key,
        name=raw.name,
        games=raw.games,
        wins=raw.wins,
        contested=raw.contested,
        contested_wins=raw.contested_wins,
        accuracy=raw.accuracy,
        loss_per_decision=raw.loss / raw.decisions if raw.decisions else None,
        reviewed=raw.reviewed,
        presets=tuple(_preset(p) for p in raw.presets),
        opponents=tuple(Opponent(name, g, a, b, c) for _, name, g, a, b, c in raw.opponents),
        latest=raw.latest,
    )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    name: str
    key: str
    games: int
    mean: float
    best: int
    wins: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "key": self.key,
            "games": self.games,
            "mean": self.mean,
            "best": self.best,
            "wins": self.wins,
        }


def leaderboard(
    leaders: Iterable[tuple[str, str, str, int, float, int, int]],
) -> dict[str, list[LeaderboardRow]]:
    """Per preset, every player by mean total (best first), from the database's aggregates."""
    board: dict[str, list[LeaderboardRow]] = defaultdict(list)
    for variant, key, name, games, mean, best, wins in leaders:
        board[variant].append(LeaderboardRow(name, key, games, mean, best, wins))
    return {
        variant: sorted(rows, key=lambda r: (-r.mean, -r.games, r.name.casefold()))
        for variant, rows in board.items()
    }
