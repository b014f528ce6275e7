"""A player's figures across games, and the leaderboard, from the summary rows.

Pure functions over :class:`~kniffel.store.results.PlayerResult` rows (one per
seat of a finished game), so they are as fast as reading the rows. The
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
  whose review has been computed, and their loss in all divided by their rated
  decisions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kniffel.rules import get_variant
from kniffel.store.results import PlayerResult

__all__ = [
    "LeaderboardRow",
    "Opponent",
    "PlayerStats",
    "PresetStats",
    "leaderboard",
    "player_stats",
]

#: The trend compares the mean of this many latest games with the mean of all.
RECENT = 10
#: Histogram bins per preset.
BINS = 10


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
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
class GamePoint:
    """One finished game of the player, for the history and the charts."""

    game_id: str
    finished_at: datetime
    variant: str
    total: int
    place: int
    seats: int
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    key: str
    name: str
    games: int
    wins: int
    contested: int  # games with at least two seats
    accuracy: float | None
    loss_per_decision: float | None
    reviewed: int  # games whose review gave the accuracy
    presets: tuple[PresetStats, ...]
    opponents: tuple[Opponent, ...]
    history: tuple[GamePoint, ...]

    @property
    def win_rate(self) -> float | None:
        contested_wins = sum(1 for g in self.history if g.seats > 1 and g.place == 1)
        return contested_wins / self.contested if self.contested else None

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
            "games_played": [
                {
                    "game": g.game_id,
                    "finished_at": g.finished_at.isoformat(),
                    "variant": g.variant,
                    "total": g.total,
                    "place": g.place,
                    "players": g.seats,
                    "accuracy": g.accuracy,
                }
                for g in self.history
            ],
        }


def _histogram(totals: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    """At most :data:`BINS` bins of a round width (1, 2, 5, 10, 20, 25, 50, …)."""
    low, high = min(totals), max(totals)
    width = next(
        w
        for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**6)
        if (high - low + 1) / w <= BINS - 1 or w == 10**6
    )
    start = low - low % width
    counts: dict[int, int] = defaultdict(int)
    for total in totals:
        counts[(total - start) // width] += 1
    last = (high - start) // width
    return tuple((start + i * width, start + (i + 1) * width, counts[i]) for i in range(last + 1))


def _preset(variant: str, rows: Sequence[PlayerResult]) -> PresetStats:
    totals = [r.total for r in rows]
    columns = tuple(spec.id for spec in get_variant(variant).columns)
    n = len(rows)
    mean = sum(totals) / n
    recent = totals[-RECENT:]
    recent_mean = sum(recent) / len(recent)
    return PresetStats(
        variant=variant,
        games=n,
        mean=mean,
        best=max(totals),
        worst=min(totals),
        histogram=_histogram(totals),
        columns=columns,
        bonus_rate=tuple(
            sum(1 for r in rows if i < len(r.bonus) and r.bonus[i] == "1") / n
            for i in range(len(columns))
        ),
        kniffel_rate=sum(1 for r in rows if r.kniffels > 0) / n,
        kniffels_per_game=sum(r.kniffels for r in rows) / n,
        recent_mean=recent_mean,
        trend=recent_mean - mean,
    )


def player_stats(mine: Sequence[PlayerResult], together: Iterable[PlayerResult]) -> PlayerStats:
    """The figures of the player whose rows are ``mine`` (oldest first); ``together``: every
    seat of the games they played (for the opponents)."""
    if not mine:
        raise ValueError("no finished games")
    key = mine[0].player
    by_variant: dict[str, list[PlayerResult]] = defaultdict(list)
    for row in mine:
        by_variant[row.variant].append(row)
    reviewed = [r for r in mine if r.accuracy is not None]
    decisions = sum(r.decisions or 0 for r in reviewed)
    loss = sum(r.loss or 0.0 for r in reviewed)
    my_seats = {(r.game_id, r.seat) for r in mine}
    my_totals = {r.game_id: r.total for r in mine}
    versus: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    shown: dict[str, str] = {}
    for other in together:
        if (other.game_id, other.seat) in my_seats or other.player == key:
            continue
        if other.game_id not in my_totals:
            continue
        mine_total = my_totals[other.game_id]
        tally = versus[other.player]
        tally[0 if mine_total > other.total else 1 if mine_total < other.total else 2] += 1
        shown[other.player] = other.name.strip()
    opponents = tuple(
        sorted(
            (Opponent(shown[k], sum(t), t[0], t[1], t[2]) for k, t in versus.items()),
            key=lambda o: (-o.games, o.name.casefold()),
        )
    )
    return PlayerStats(
        key=key,
        name=mine[-1].name.strip(),
        games=len(mine),
        wins=sum(1 for r in mine if r.place == 1),
        contested=sum(1 for r in mine if r.seats > 1),
        accuracy=sum(r.accuracy or 0.0 for r in reviewed) / len(reviewed) if reviewed else None,
        loss_per_decision=loss / decisions if decisions else None,
        reviewed=len(reviewed),
        presets=tuple(
            _preset(v, rows) for v, rows in sorted(by_variant.items(), key=lambda kv: -len(kv[1]))
        ),
        opponents=opponents,
        history=tuple(
            GamePoint(r.game_id, r.finished_at, r.variant, r.total, r.place, r.seats, r.accuracy)
            for r in mine
        ),
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
    rows: Iterable[PlayerResult], *, bots: bool = False
) -> dict[str, list[LeaderboardRow]]:
    """Per preset, every player by mean total (best first); bots left out unless ``bots``."""
    grouped: dict[str, dict[str, list[PlayerResult]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.bot and not bots:
            continue
        grouped[row.variant][row.player].append(row)
    board: dict[str, list[LeaderboardRow]] = {}
    for variant, players in grouped.items():
        board[variant] = sorted(
            (
                LeaderboardRow(
                    name=games[-1].name.strip(),
                    key=key,
                    games=len(games),
                    mean=sum(g.total for g in games) / len(games),
                    best=max(g.total for g in games),
                    wins=sum(1 for g in games if g.place == 1),
                )
                for key, games in players.items()
            ),
            key=lambda r: (-r.mean, -r.games, r.name.casefold()),
        )
    return board
