"""Players across games without HTTP: their figures, the leaderboard, the best bot's
yardsticks, the CSV downloads and a key holder's link of a seat to another name.

All figures come from the summary rows of finished games (:mod:`kniffel.store.results`,
:mod:`kniffel.board.players.stats`); one service per app (``app.state.players``).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from kniffel.board import limits
from kniffel.board.errors import BoardError, Forbidden
from kniffel.board.players.exchange import (
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    game_lines,
    header,
    player_lines,
)
from kniffel.board.players.stats import LeaderboardRow, PlayerStats, player_stats
from kniffel.board.players.yardstick import Simulations, Yardstick, yardstick
from kniffel.board.service import GameService, GameView
from kniffel.rules import Variant, get_variant
from kniffel.rules.names import player_key
from kniffel.store.player_figures import RawFigures, bins
from kniffel.store.results import Changes, ResultStore

__all__ = ["CSV_FRESH", "NotLinkable", "PlayerNotFound", "PlayerService", "player_key"]

#: How long the players' CSV is handed out again while this process changed no summary row
#: (seconds): another process's link or review shows after at most this long, a game change
#: at the next download (docs/benchmarks.md, "Cost per request").
CSV_FRESH = 60.0

#: A change that touched more games or players than this makes a CSV anew from every row.
PATCH_MOST = 2000


@dataclass(frozen=True, slots=True)
class _KeptCsv:
    """A CSV as it was last made: the generation of the rows, when it was last made from every
    row, its lines per game or player, and its bytes."""

    generation: int
    made: float
    parts: dict[str, Any]
    body: bytes


#: Where the best bot's figures for a player page stand: ``None`` when there is nothing to
#: wait for, else ``{"status": "computing", "progress": p}`` or ``"waiting_for_tables"``.
Pending = dict[str, Any] | None


class NotLinkable(BoardError):
    """The seat is not a seat of a finished game."""

    status = 409


class PlayerNotFound(BoardError):
    status = 404

    def __init__(self, name: str) -> None:
        super().__init__(f"there is no player {name!r} with a finished game")


def _simulations(ready: Callable[[Variant], bool]) -> Simulations:
    def tables_ready(variant: str, options: str) -> bool:
        from kniffel.solver.builds import solvable

        rules = get_variant(variant, json.loads(options))
        # Jamb and Yams with its option columns have no tables: their best bot plays by its
        # heuristic (docs/bot.md, "Jamb and Yams"), so nothing is waited for (issue 32).
        return not solvable(rules) or ready(rules)

    return Simulations(tables_ready)


class PlayerService:
    """The players' figures of ``games``' store.

    ``ready`` says whether a variant's solved tables are built (the yardsticks of new house
    rules are simulated only then); ``simulate``: the yardsticks are simulated in the
    background (off: only the documented ones are shown).
    """

    def __init__(
        self, games: GameService, ready: Callable[[Variant], bool], *, simulate: bool
    ) -> None:
        self.games = games
        self.results = ResultStore(games.store.engine)
        # The summary rows follow the games as they are stored, never in a read (issue 21).
        games.on_finished.append(self._stored)
        self.simulations = _simulations(ready) if simulate else None
        #: Called when a page asks for work the background does (it looks at once).
        self.wake: Callable[[], None] = lambda: None
        self._csv: _KeptCsv | None = None
        self._games_csv: _KeptCsv | None = None
        self._csv_lock = threading.Lock()
        #: The background thread makes the CSVs anew from every row after :data:`CSV_FRESH`
        #: (:meth:`refresh_csvs`); without it (``KNIFFEL_BACKGROUND=false``) the download does.
        self.csvs_in_background = False
        self._asked: set[str] = set()  # the CSVs downloaded while older than CSV_FRESH

    # ------------------------------------------------------------------ figures

    def stats(self, name: str) -> PlayerStats:
        raw = self.results.figures(name)
        if raw is None:
            raise PlayerNotFound(name)
        return player_stats(raw)

    def played(self, name: str) -> list[tuple[str, int, float | None]]:
        """Each finished game of ``name`` in order: variant, total, accuracy."""
        played = self.results.series(name)
        if not played:
            raise PlayerNotFound(name)
        return played

    def shown_name(self, name: str) -> str:
        return self.results.shown_name(name) or name

    def histogram(
        self, name: str, variant: str
    ) -> tuple[str, tuple[tuple[int, int, int], ...], float]:
        """The totals of one preset (``variant``, else the most played) as bins, and the mean."""
        counts = self.results.totals(name, variant) if variant else {}
        if not counts:
            variant = self.stats(name).presets[0].variant
            counts = self.results.totals(name, variant)
        mean = sum(t * n for t, n in counts.items()) / sum(counts.values())
        return variant, bins(counts), mean

    def player_count(self) -> int:
        """How many players have a finished game."""
        return self.results.player_count()

    def listed(self, first: int = 0, last: int | None = None) -> list[dict[str, Any]]:
        """The players ``first`` … ``last`` (not included) with a finished game, most games first:
        games, wins, the win rate against others. Read from the sums kept on write
        (:mod:`kniffel.store.player_totals`): a page costs the same with 100 players or 10,000,
        and nothing is grouped again after a change (issue 33)."""
        return [
            {
                "name": name,
                "key": key,
                "games": games,
                "wins": wins,
                "win_rate": contested_wins / contested if contested else None,
                "bot": bot,
            }
            for key, name, games, wins, contested, contested_wins, bot in self.results.player_page(
                first, last
            )
        ]

    def leaderboard(
        self, first: int = 0, last: int | None = None
    ) -> dict[str, list[LeaderboardRow]]:
        """Per preset (the one with most players first) the places ``first`` … ``last`` (not
        included) by mean total, best first (bots left out)."""
        return {
            variant: [LeaderboardRow(n, k, g, m, b, w) for _, k, n, g, m, b, w in rows]
            for variant, rows in self.results.leader_page(first, last).items()
        }

    def counted_names(self, game_id: str) -> dict[int, str]:
        return self.results.counted_names(game_id)

    # --------------------------------------------------------------- yardsticks

    def bot(self, variant: str, options: str) -> tuple[Yardstick | None, Pending]:
        """The best bot's yardstick for these rules, or where its simulation stands (asking
        for it)."""
        found = yardstick(variant, options)
        if found is not None:
            return found, None
        if self.simulations is None:
            return None, None
        self.simulations.want(variant, options)
        self.wake()
        if not self.simulations.ready(variant, options):
            return None, {"status": "waiting_for_tables"}
        return None, {
            "status": "computing",
            "progress": self.simulations.progress(variant, options),
        }

    def stats_json(self, stats: PlayerStats) -> dict[str, Any]:
        data = stats.as_dict()
        for preset, shown in zip(stats.presets, data["presets"], strict=True):
            found, pending = self.bot(preset.variant, preset.options)
            shown["bot"] = None if found is None else found.as_dict()
            shown["bot_pending"] = pending
        return data

    def _stored(self, view: GameView) -> None:
        # The game just stored is summarised from its replay in memory (docs/benchmarks.md,
        # "Where an entry's time goes"): a finished game's sync read and replayed its events.
        self.results.sync(known={view.id: (view.version, view.game)})

    # ---------------------------------------------------------------------- CSV

    def games_csv(self) -> bytes:
        """Every seat of every finished game (the columns of ``kniffel export --csv``).

        Kept per game and made again only for the games a change of this process touched
        (:meth:`ResultStore.changes_since`): the first download after a finished game reads
        that game's rows, not every row, and adds its lines at the end (issue 33: 3.9 CPU-s
        for 100,000 games). Made anew from every row when the change is not known, and after
        :data:`CSV_FRESH` seconds (another process's changes); docs/benchmarks.md, "Keyless
        reads cold after a change"."""
        with self._csv_lock:
            kept = self._games_csv
            changes = self._changes(kept, "games")
            if kept is not None and changes is not None and not changes.games:
                self._games_csv = replace(kept, generation=self.results.generation)
                return kept.body
            if kept is None or changes is None or len(changes.games) > PATCH_MOST:
                self._games_csv = self._whole_games(self.results.generation)
                return self._games_csv.body
            parts = kept.parts
            fresh = _encoded(game_lines(self.results.rows(games=changes.games)))
            last = next(reversed(parts.items()), None)
            # The common change, games finished after every kept one: their lines go at the end.
            appended = (
                not changes.games - fresh.keys()
                and not fresh.keys() & parts.keys()
                and (
                    last is None
                    or all((at, g) > (last[1][0], last[0]) for g, (at, _) in fresh.items())
                )
            )
            for game in changes.games - fresh.keys():
                parts.pop(game, None)  # no longer finished
            for game, (at, lines) in fresh.items():
                if game in parts and parts[game][0] != at:
                    del parts[game]  # finished again later: it moves to the end
                parts[game] = (at, lines)
            if appended:
                body = kept.body + b"".join(lines for _, lines in fresh.values())
            else:
                body = _games_body(parts)
            self._games_csv = _KeptCsv(self.results.generation, kept.made, parts, body)
            return body

    def players_csv(self) -> bytes:
        """Every player's figures per preset, kept per player and made again only for the
        players a change of this process touched (as :meth:`games_csv`)."""
        with self._csv_lock:
            kept = self._csv
            changes = self._changes(kept, "players")
            if kept is not None and changes is not None and not changes.players:
                self._csv = replace(kept, generation=self.results.generation)
                return kept.body
            if kept is None or changes is None or len(changes.players) > PATCH_MOST:
                self._csv = self._whole_players(self.results.generation)
                return self._csv.body
            parts = kept.parts
            fresh = _player_parts(self.results.every_figures(changes.players))
            for key in changes.players:
                if key in fresh:
                    parts[key] = fresh[key]
                else:
                    parts.pop(key, None)  # no finished game counts for the key any more
            self._csv = _KeptCsv(self.results.generation, kept.made, parts, _players_body(parts))
            return self._csv.body

    def _whole_games(self, generation: int) -> _KeptCsv:
        """The games' CSV made anew from every row (``generation``: read before the rows)."""
        parts: dict[str, Any] = _encoded(game_lines(self.results.rows()))
        return _KeptCsv(generation, time.monotonic(), parts, _games_body(parts))

    def _whole_players(self, generation: int) -> _KeptCsv:
        """The players' CSV made anew from every player's figures."""
        parts = _player_parts(self.results.every_figures())
        return _KeptCsv(generation, time.monotonic(), parts, _players_body(parts))

    def _changes(self, kept: _KeptCsv | None, name: str) -> Changes | None:
        """What changed since ``kept`` was made; ``None``: make it anew from every row. After
        :data:`CSV_FRESH` the background thread makes it anew where it runs (the download goes
        on with what this process changed), else the download does."""
        if kept is None:
            return None
        if time.monotonic() - kept.made >= CSV_FRESH:
            if not self.csvs_in_background:
                return None
            self._asked.add(name)
            self.wake()
        return self.results.changes_since(kept.generation)

    def refresh_csvs(self) -> bool:
        """A chore of the background thread (:mod:`kniffel.board.background`, at ``nice`` 10):
        a CSV downloaded while older than :data:`CSV_FRESH` is made anew from every row, so that
        another process's changes and new yardsticks show, outside any request; whether there
        was one. Changes made meanwhile are applied by the next download (from the generation
        read before the rows)."""
        with self._csv_lock:
            asked, self._asked = self._asked, set()
        if not asked:
            return False
        generation = self.results.generation
        if "games" in asked:
            games = self._whole_games(generation)
            with self._csv_lock:
                self._games_csv = games
        if "players" in asked:
            players = self._whole_players(generation)
            with self._csv_lock:
                self._csv = players
        return True

    # --------------------------------------------------------------------- link

    def link(self, game_id: str, seat: int, name: str | None, key: str | None) -> dict[str, Any]:
        """Counts ``seat`` of the finished game as ``name`` (``None`` or blank: its own
        name); needs the game's ``key``."""
        view = self.games.get(game_id)
        if not key or not secrets.compare_digest(key.encode(), view.key.encode()):
            raise Forbidden("this needs the game's key")
        counted = self.results.counted_names(game_id)
        if seat not in counted:
            raise NotLinkable(f"seat {seat} of game {game_id} is not a seat of a finished game")
        # The rules of a new game's names, and no two seats of the game counted as one player.
        linked = limits.player_name(name) if name and name.strip() else None
        counted[seat] = linked or view.players[seat]
        limits.check_distinct([counted[s] for s in sorted(counted)])
        if not self.results.link(game_id, seat, linked):
            raise NotLinkable(f"seat {seat} of game {game_id} is not a seat of a finished game")
        shown = counted[seat]
        return {"game": game_id, "seat": seat, "name": shown, "player": player_key(shown)}


def _encoded(lines: dict[str, tuple[Any, str]]) -> dict[str, tuple[Any, bytes]]:
    return {key: (at, text.encode()) for key, (at, text) in lines.items()}


def _games_body(parts: dict[str, tuple[Any, bytes]]) -> bytes:
    return header(GAME_COLUMNS).encode() + b"".join(lines for _, lines in parts.values())


def _player_parts(figures: Iterable[RawFigures]) -> dict[str, Any]:
    """Each player's lines of the players' CSV, as bytes, by key."""
    return {key: text.encode() for key, text in player_lines(figures).items()}


def _players_body(parts: dict[str, Any]) -> bytes:
    return header(PLAYER_COLUMNS).encode() + b"".join(parts[key] for key in sorted(parts))
