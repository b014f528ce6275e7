"""Everything out: the summary rows and the players' figures as CSV.

``games.csv`` has one line per seat of every finished game; ``players.csv`` one
line per player and preset with the figures of the player page
(:mod:`kniffel.board.players.stats`). Both are plain RFC 4180 CSV with a header
line, UTF-8 with a byte order mark, numbers with a decimal point, names that
start like a formula with a leading ``'`` (:mod:`kniffel.board.players.spreadsheet`).
The columns are documented in docs/cli.md (``kniffel export``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from kniffel.board.players.spreadsheet import BOM, SpreadsheetWriter
from kniffel.board.players.stats import player_stats
from kniffel.board.players.yardstick import Yardstick, yardstick
from kniffel.store.results import PlayerResult, ResultStore

if TYPE_CHECKING:
    from kniffel.store.player_figures import RawFigures

__all__ = [
    "GAME_COLUMNS",
    "PLAYER_COLUMNS",
    "game_lines",
    "games_csv",
    "header",
    "player_lines",
    "players_csv",
]

GAME_COLUMNS = (
    "game",
    "finished_at",
    "variant",
    "options",
    "players",
    "seat",
    "name",
    "player",
    "total",
    "place",
    "won",
    "upper_bonus",
    "kniffels",
    "accuracy",
    "loss",
    "decisions",
    "bot",
    "evening",
)

PLAYER_COLUMNS = (
    "player",
    "name",
    "variant",
    "games",
    "wins",
    "win_rate",
    "mean",
    "best",
    "worst",
    "upper_bonus_rate",
    "kniffel_rate",
    "kniffels_per_game",
    "recent_mean",
    "trend",
    "accuracy",
    "loss_per_decision",
    "reviewed_games",
    "bot_mean",
)


def _number(value: float | None, digits: int = 4) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _lines(rows: Iterable[Iterable[object]]) -> str:
    """``rows`` as CSV lines (no byte order mark)."""
    out = io.StringIO()
    writer = SpreadsheetWriter(out)  # no formulas from names
    for row in rows:
        writer.writerow(row)
    return out.getvalue().removeprefix(BOM)


def header(columns: Sequence[str]) -> str:
    """The byte order mark and the header line."""
    return BOM + _lines([columns])


def game_lines(rows: Iterable[PlayerResult]) -> dict[str, tuple[datetime, str]]:
    """Per game of ``rows`` (in their order): when it finished and its lines, one per seat."""
    seats: dict[str, list[PlayerResult]] = {}
    for r in rows:
        seats.setdefault(r.game_id, []).append(r)
    return {
        game: (found[0].finished_at, _lines(_game_row(r) for r in found))
        for game, found in seats.items()
    }


def _game_row(r: PlayerResult) -> list[object]:
    return [
        r.game_id,
        r.finished_at.isoformat(),
        r.variant,
        r.options,
        r.seats,
        r.seat,
        r.name,
        r.player,
        r.total,
        r.place,
        int(r.place == 1),
        "/".join(r.bonus),  # "1/0/1": one per column ("101" read as a number)
        r.kniffels,
        _number(r.accuracy),
        _number(r.loss),
        "" if r.decisions is None else r.decisions,
        int(r.bot),
        r.evening or "",
    ]


def games_csv(rows: Iterable[PlayerResult]) -> str:
    """One line per seat of every finished game (oldest first)."""
    return header(GAME_COLUMNS) + "".join(text for _, text in game_lines(rows).values())


def players_csv(results: ResultStore) -> str:
    """One line per player and preset: the player page's figures.

    Read with a few queries over every summary row (:meth:`ResultStore.every_figures`),
    never per player: a keyless download must not cost more with every player imported
    (docs/benchmarks.md, "Cost per request").
    """
    lines = player_lines(results.every_figures())
    return header(PLAYER_COLUMNS) + "".join(lines[key] for key in sorted(lines))


def player_lines(every: Iterable[RawFigures]) -> dict[str, str]:
    """Per player (by key) the lines of the players' CSV, one per preset."""
    # One yardstick look-up per preset and options (it may read a file), not per player.
    yardsticks: dict[tuple[str, str], Yardstick | None] = {}
    found: dict[str, str] = {}
    for raw in every:
        stats = player_stats(raw)
        key = stats.key
        rows: list[list[object]] = []
        for preset in stats.presets:
            rules = (preset.variant, preset.options)
            if rules not in yardsticks:
                yardsticks[rules] = yardstick(*rules)
            bot = yardsticks[rules]
            rows.append(
                [
                    key,
                    stats.name,
                    preset.variant,
                    preset.games,
                    stats.wins,
                    _number(stats.win_rate),
                    _number(preset.mean, 2),
                    preset.best,
                    preset.worst,
                    "/".join(_number(rate) for rate in preset.bonus_rate),
                    _number(preset.kniffel_rate),
                    _number(preset.kniffels_per_game),
                    _number(preset.recent_mean, 2),
                    _number(preset.trend, 2),
                    _number(stats.accuracy),
                    _number(stats.loss_per_decision),
                    stats.reviewed,
                    "" if bot is None else _number(bot.mean, 2),
                ]
            )
        found[key] = _lines(rows)
    return found
