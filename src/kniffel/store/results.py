"""Summary rows of finished games, one per seat: what the player statistics read.

A finished game gets one ``player_results`` row per seat (its total, place,
upper bonus per column, Kniffels, the player's name and the name it is linked
to) so that statistics over years of games never replay history. The rows are
kept up to date by :meth:`ResultStore.sync`, which summarises every finished game
whose rows are missing or older than the game (a correction after the end
changes the version); only rows at the game's version and of a finished
game count (:meth:`ResultStore.rows`). It runs on writes (a game that ends or reopens, a
link, a review's figures), at the board's start and in its background thread, never in a
read: a read only reads (issue 21). Migration ``0003_player_results``
fills them for the games that were finished before.

A player is recognised across games by name, case and surrounding spaces
ignored (:func:`player_key`); a key holder can link a seat to another name
afterwards (:meth:`ResultStore.link`). The review's figures (accuracy, loss,
rated decisions) are added when a game's review is computed
(:meth:`ResultStore.set_review`): by the board in the background soon after the game
ends (:mod:`kniffel.web.background`), or when somebody opens it first.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Connection,
    RowMapping,
    and_,
    delete,
    exists,
    func,
    select,
    update,
)

from kniffel.record import Record, RecordError, replay
from kniffel.rules import FIVE_OF_A_KIND, Game
from kniffel.rules.names import player_key
from kniffel.store import player_figures, player_totals
from kniffel.store import versus as pairs
from kniffel.store.models import EVENTS, GAMES, PLAYER_RESULTS

if TYPE_CHECKING:
    from kniffel.store.player_figures import RawFigures

_log = logging.getLogger(__name__)

__all__ = ["PLAYER_RESULTS", "PlayerResult", "ResultStore", "player_key", "summarise"]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat of one finished game."""

    game_id: str
    seat: int
    name: str
    player: str
    variant: str
    options: str
    seats: int
    total: int
    place: int
    bonus: str
    kniffels: int
    finished_at: datetime
    accuracy: float | None
    loss: float | None
    decisions: int | None
    bot: bool
    #: The games evening of the game (docs/board.md, "Revanche"), ``None`` for a game alone.
    evening: str | None = None


def summarise(game: Game) -> list[dict[str, Any]]:
    """Per seat of a finished game: total, place, bonus per column, Kniffels.

    Kniffels are the filled five-of-a-kind cells, Jamb's ``jamb`` row as Kniffel's own, and
    the bonuses for a further Kniffel."""
    totals = game.returns()
    rows = []
    for p, name in enumerate(game.players):
        bonus = "".join(
            "1" if game.column_totals(p, spec.id).bonus else "0" for spec in game.variant.columns
        )
        kniffels = 0
        for spec in game.variant.columns:
            for row in game.rows:
                cell = game.cell(f"{spec.id}.{row.value}")
                if row in FIVE_OF_A_KIND and (game.points(p, cell) or 0) > 0:
                    kniffels += 1
                if game.cell_bonus(p, cell) > 0:
                    kniffels += 1
        rows.append(
            {
                "seat": p,
                "name": name,
                "total": totals[p],
                "place": 1 + sum(1 for t in totals if t > totals[p]),
                "bonus": bonus,
                "kniffels": kniffels,
            }
        )
    return rows


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def options_key(options: dict[str, Any]) -> str:
    """The options as one canonical string (for grouping games with the same house rules)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class Changes:
    """What a change to the summary rows touched: the games whose rows changed, and the players
    (keys) whose figures did."""

    games: set[str] = field(default_factory=set)
    players: set[str] = field(default_factory=set)


#: Changes remembered per generation (:meth:`ResultStore.changes_since`); older ones are
#: forgotten, and whoever kept something older makes it anew.
KEPT_CHANGES = 256


def sync_connection(
    connection: Connection,
    limit: int | None = None,
    since: datetime | None = None,
    *,
    versus: bool = False,
    totals: bool = False,
    unfinished: list[int] | None = None,
    changed: Changes | None = None,
    known: Mapping[str, tuple[int, Game]] | None = None,
) -> int:
    """Summarise the finished games whose rows are missing or stale; returns how many.

    ``unfinished``: gets the number of rows set aside because their game is no longer finished.
    ``changed``: gets the games whose rows changed and the players they touch (with ``totals``).

    ``since``: look only at games changed since then (every change moves a game's
    ``updated_at``). ``versus``: rewrite their pairs of seats too
    (:mod:`kniffel.store.versus`, from migration ``0005_player_versus`` on). ``totals``: and
    the sums of the players they touch (:mod:`kniffel.store.player_totals`, from migration
    ``0008_player_totals`` on). Works on a
    plain connection, so migration ``0003_player_results`` runs it too.

    ``known``: games already replayed, by id, with their version (the board's game that was
    just stored): a stale game found there at its stored version is summarised from that
    replay, without reading and replaying its events again (``tests/web/test_players.py``
    holds both ways' rows equal).
    """
    fresh = exists().where(
        and_(
            PLAYER_RESULTS.c.game_id == GAMES.c.id,
            PLAYER_RESULTS.c.version == GAMES.c.version,
        )
    )
    # Named columns only: later migrations may add columns this one does not know.
    query = (
        select(
            GAMES.c.id,
            GAMES.c.variant,
            GAMES.c.options,
            GAMES.c.players,
            GAMES.c.bots,
            GAMES.c.version,
            GAMES.c.updated_at,
        )
        .where(GAMES.c.finished.is_(True), ~fresh)
        .order_by(GAMES.c.id)
    )
    if since is not None:
        query = query.where(GAMES.c.updated_at >= since)
    if limit is not None:
        query = query.limit(limit)
    stale = connection.execute(query).mappings().all()
    summarised: list[str] = []
    touched: set[str] = set()  # the players whose sums change
    for game_row in stale:
        replayed = (known or {}).get(game_row["id"])
        if replayed is not None and replayed[0] == game_row["version"]:
            game = replayed[1]
        else:
            try:
                game = _replayed(connection, game_row)
            except RecordError as error:
                # A stored game that does not replay (written into the database by hand or by
                # another program) stays out of the players' figures; it must not stop the
                # board's start or any other game's figures.
                _log.warning("game %s left out of the players' figures: %s", game_row["id"], error)
                continue
        summarised.append(game_row["id"])
        links = {}
        for seat, linked, player in connection.execute(
            select(PLAYER_RESULTS.c.seat, PLAYER_RESULTS.c.linked, PLAYER_RESULTS.c.player).where(
                PLAYER_RESULTS.c.game_id == game_row["id"]
            )
        ).all():
            links[seat] = linked
            touched.add(player)
        connection.execute(delete(PLAYER_RESULTS).where(PLAYER_RESULTS.c.game_id == game_row["id"]))
        if not game.is_finished:
            continue
        bots = game_row["bots"] or {}
        values = []
        for summary in summarise(game):
            linked = links.get(summary["seat"])
            values.append(
                {
                    **summary,
                    "game_id": game_row["id"],
                    "version": game_row["version"],
                    "linked": linked,
                    "player": player_key(linked or summary["name"]),
                    "variant": game_row["variant"],
                    "options": options_key(game_row["options"]),
                    "seats": len(game.players),
                    "finished_at": _utc(game_row["updated_at"]),
                    "accuracy": None,
                    "loss": None,
                    "decisions": None,
                    "bot": summary["name"] in bots,
                }
            )
        connection.execute(PLAYER_RESULTS.insert(), values)
        touched.update(value["player"] for value in values)
    if versus:
        pairs.fill(connection, summarised)
    # A game that is no longer finished (a cell cleared after the end) does not count;
    # its rows stay (with their links) at version -1 until it is finished again.
    reopened = select(GAMES.c.id).where(GAMES.c.finished.is_(False))
    if since is not None:
        reopened = reopened.where(GAMES.c.updated_at >= since)
    set_aside_games: set[str] = set()
    if totals:
        for game_id, player in connection.execute(
            select(PLAYER_RESULTS.c.game_id, PLAYER_RESULTS.c.player).where(
                PLAYER_RESULTS.c.game_id.in_(reopened), PLAYER_RESULTS.c.version >= 0
            )
        ).all():
            set_aside_games.add(game_id)
            touched.add(player)
    set_aside = connection.execute(
        update(PLAYER_RESULTS)
        .where(PLAYER_RESULTS.c.game_id.in_(reopened), PLAYER_RESULTS.c.version >= 0)
        .values(version=-1)
    )
    if unfinished is not None:
        unfinished.append(max(0, set_aside.rowcount or 0))
    if versus:
        from kniffel.store.versus import PLAYER_VERSUS

        connection.execute(
            update(PLAYER_VERSUS)
            .where(PLAYER_VERSUS.c.game_id.in_(reopened), PLAYER_VERSUS.c.version >= 0)
            .values(version=-1)
        )
    if totals and touched:
        player_totals.refresh(connection, touched)
    if changed is not None:
        changed.games.update(summarised, set_aside_games)
        changed.players.update(touched)
    return len(stale)


def _replayed(connection: Connection, game_row: RowMapping) -> Game:
    """The stored game of ``game_row`` replayed from its events up to the row's version."""
    events = connection.scalars(
        select(EVENTS.c.payload)
        .where(EVENTS.c.game_id == game_row["id"], EVENTS.c.seq <= game_row["version"])
        .order_by(EVENTS.c.seq)
    ).all()
    return replay(
        Record(
            game_row["variant"],
            tuple(game_row["players"]),
            game_row["options"],
            tuple(events),
        )
    )


class ResultStore:
    """The summary rows of a :class:`~kniffel.store.GameStore`'s database."""

    #: Games changed this long before the last check are looked at again (clocks of
    #: several server processes may differ a little).
    SLACK = timedelta(minutes=5)

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._checked: datetime | None = None  # every game changed before this is summarised
        self._lock = threading.Lock()
        #: Games summarised by this store so far (the background review looks for new ones).
        self.summarised = 0
        #: Moves with every change this store makes or finds to the rows (what is kept from
        #: them, the players' CSV, is kept for one generation).
        self.generation = 0
        #: What each of the latest generations changed (generation, changes), oldest first.
        self._changes: list[tuple[int, Changes]] = []
        self._changes_lock = threading.Lock()

    def _changed(self, changes: Changes) -> None:
        """A new generation of the rows, with what it changed."""
        with self._changes_lock:
            self.generation += 1
            self._changes.append((self.generation, changes))
            del self._changes[:-KEPT_CHANGES]

    def changes_since(self, generation: int) -> Changes | None:
        """The games and players whose rows this store changed after ``generation``, or ``None``
        when that is no longer known (too long ago). Another process's changes are not in it."""
        with self._changes_lock:
            if generation == self.generation:
                return Changes()
            if not self._changes or self._changes[0][0] > generation + 1:
                return None
            found = Changes()
            for at, changes in self._changes:
                if at > generation:
                    found.games |= changes.games
                    found.players |= changes.players
            return found

    def _synced_once(self) -> None:
        """A read brings nothing up to date (issue 21: a keyless read wrote): the rows are
        synced when a game is stored (:class:`~kniffel.board.players.service.PlayerService`
        hears of it), at the board's start and by its background thread. Only a store that
        never synced (the command line's, a test's) syncs once at its first read."""
        if self._checked is None:
            self.sync()

    def sync(self, known: Mapping[str, tuple[int, Game]] | None = None) -> int:
        """Bring every finished game's rows up to date.

        The first call looks at every game; later calls only at the games changed
        since the one before (an indexed range of ``games.updated_at``), so a read
        costs one small query when nothing changed. ``known``: see :func:`sync_connection`.
        """
        with self._lock:
            now = datetime.now(UTC)
            since = None if self._checked is None else self._checked - self.SLACK
            set_aside: list[int] = []
            changes = Changes()
            with self.engine.begin() as connection:
                done = sync_connection(
                    connection,
                    since=since,
                    versus=True,
                    totals=True,
                    unfinished=set_aside,
                    changed=changes,
                    known=known,
                )
            self._checked = now
            self.summarised += done
            if done or sum(set_aside):
                self._changed(changes)
            return done

    def figures(self, name: str) -> RawFigures | None:
        """The player page's figures of ``name`` (see :mod:`kniffel.store.player_figures`)."""
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.figures(connection, player_key(name))

    def every_figures(self, keys: Collection[str] | None = None) -> list[RawFigures]:
        """Every player's figures (or those of the players ``keys``) without opponents and
        latest games, by key (the players' CSV): a fixed number of queries however many
        players there are."""
        self._synced_once()
        with self.engine.connect() as connection:
            found = player_figures.every_figures(connection, keys)
            return sorted(found, key=lambda raw: raw.key)

    def series(self, name: str) -> list[tuple[str, int, float | None]]:
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.series(connection, player_key(name))

    def totals(self, name: str, variant: str) -> dict[int, int]:
        """How often ``name`` made each total in ``variant``."""
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.totals(connection, player_key(name), variant)

    def shown_name(self, name: str) -> str | None:
        """The name shown for ``name``'s player, ``None`` without a finished game."""
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.shown_name(connection, player_key(name))

    def leaders(self) -> list[tuple[str, str, str, int, float, int, int]]:
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.leaders(connection)

    def players(self) -> list[tuple[str, str, int, int, int, int, bool]]:
        self._synced_once()
        with self.engine.connect() as connection:
            return player_figures.players(connection)

    def player_count(self) -> int:
        """How many players have a finished game (:mod:`kniffel.store.player_totals`)."""
        self._synced_once()
        with self.engine.connect() as connection:
            return player_totals.count(connection)

    def player_page(
        self, first: int = 0, last: int | None = None
    ) -> list[tuple[str, str, int, int, int, int, bool]]:
        """The players ``first`` … ``last`` (not included), most games first, from the sums kept
        on write: one page read through an index however many players there are."""
        self._synced_once()
        with self.engine.connect() as connection:
            return player_totals.page(connection, first, last)

    def leader_page(
        self, first: int = 0, last: int | None = None
    ) -> dict[str, list[tuple[str, str, str, int, float, int, int]]]:
        """Per preset (the one with most players first) the places ``first`` … ``last`` (not
        included) of its leaderboard: variant, key, name, games, mean, best, wins."""
        self._synced_once()
        with self.engine.connect() as connection:
            counts = player_totals.variants(connection)
            return {
                variant: player_totals.leaders(connection, variant, first, last)
                for variant in sorted(counts, key=lambda v: (-counts[v], v))
            }

    def rows(
        self,
        player: str | None = None,
        *,
        with_player: str | None = None,
        games: Collection[str] | None = None,
    ) -> list[PlayerResult]:
        """The current rows (of ``player``, of every seat of the games ``with_player`` played, or
        of the games ``games``), oldest game first."""
        self._synced_once()
        query = (
            select(PLAYER_RESULTS, GAMES.c.evening)
            .join(GAMES, GAMES.c.id == PLAYER_RESULTS.c.game_id)
            .where(GAMES.c.finished.is_(True), GAMES.c.version == PLAYER_RESULTS.c.version)
            .order_by(PLAYER_RESULTS.c.finished_at, PLAYER_RESULTS.c.game_id, PLAYER_RESULTS.c.seat)
        )
        if player is not None:
            query = query.where(PLAYER_RESULTS.c.player == player_key(player))
        if with_player is not None:
            played = select(PLAYER_RESULTS.c.game_id).where(
                PLAYER_RESULTS.c.player == player_key(with_player)
            )
            query = query.where(PLAYER_RESULTS.c.game_id.in_(played))
        if games is not None:
            query = query.where(PLAYER_RESULTS.c.game_id.in_(sorted(games)))
        with self.engine.connect() as connection:
            return [
                PlayerResult(
                    game_id=r.game_id,
                    seat=r.seat,
                    name=r.linked or r.name,
                    player=r.player,
                    variant=r.variant,
                    options=r.options,
                    seats=r.seats,
                    total=r.total,
                    place=r.place,
                    bonus=r.bonus,
                    kniffels=r.kniffels,
                    finished_at=_utc(r.finished_at),
                    accuracy=r.accuracy,
                    loss=r.loss,
                    decisions=r.decisions,
                    bot=r.bot,
                    evening=r.evening,
                )
                for r in connection.execute(query)
            ]

    def link(self, game_id: str, seat: int, name: str | None) -> bool:
        """Count ``seat`` of a finished game as ``name`` (``None``: its own name again)."""
        self.sync()
        with self.engine.begin() as connection:
            row = connection.execute(
                select(PLAYER_RESULTS.c.name, PLAYER_RESULTS.c.player).where(
                    PLAYER_RESULTS.c.game_id == game_id, PLAYER_RESULTS.c.seat == seat
                )
            ).first()
            if row is None:
                return False
            linked = name.strip() if name and name.strip() else None
            connection.execute(
                update(PLAYER_RESULTS)
                .where(PLAYER_RESULTS.c.game_id == game_id, PLAYER_RESULTS.c.seat == seat)
                .values(linked=linked, player=player_key(linked or row.name))
            )
            pairs.fill(connection, [game_id])
            keys = {row.player, player_key(linked or row.name)}
            player_totals.refresh(connection, keys)
        self._changed(Changes({game_id}, keys))
        return True

    def set_review(
        self, game_id: str, version: int, figures: Sequence[tuple[float | None, float, int]]
    ) -> None:
        """Store each seat's (accuracy, loss, rated decisions) from the game's review."""
        self.sync()
        with self.engine.begin() as connection:
            for seat, (accuracy, loss, decisions) in enumerate(figures):
                connection.execute(
                    update(PLAYER_RESULTS)
                    .where(
                        PLAYER_RESULTS.c.game_id == game_id,
                        PLAYER_RESULTS.c.seat == seat,
                        PLAYER_RESULTS.c.version == version,
                    )
                    .values(accuracy=accuracy, loss=loss, decisions=decisions)
                )
            keys = set(
                connection.scalars(
                    select(PLAYER_RESULTS.c.player).where(PLAYER_RESULTS.c.game_id == game_id)
                ).all()
            )
        self._changed(Changes({game_id}, keys))

    def unreviewed(self, limit: int = 20) -> list[tuple[str, int]]:
        """Finished games (id, version) whose rows have no review figures yet, newest first."""
        self._synced_once()
        with self.engine.connect() as connection:
            found = connection.execute(
                select(PLAYER_RESULTS.c.game_id, PLAYER_RESULTS.c.version)
                .where(PLAYER_RESULTS.c.version >= 0, PLAYER_RESULTS.c.decisions.is_(None))
                .group_by(PLAYER_RESULTS.c.game_id, PLAYER_RESULTS.c.version)
                .order_by(func.max(PLAYER_RESULTS.c.finished_at).desc())
                .limit(limit)
            ).all()
        return [(game_id, version) for game_id, version in found]

    def counted_names(self, game_id: str) -> dict[int, str]:
        """The name each seat of a finished game counts as (its linked name, or its own)."""
        self._synced_once()
        with self.engine.connect() as connection:
            found = connection.execute(
                select(PLAYER_RESULTS.c.seat, PLAYER_RESULTS.c.name, PLAYER_RESULTS.c.linked).where(
                    PLAYER_RESULTS.c.game_id == game_id
                )
            ).all()
        return {seat: linked or name for seat, name, linked in found}

    def names(self) -> dict[str, str]:
        """Every player's key with the name shown for it (the latest spelling)."""
        shown: dict[str, str] = {}
        for row in self.rows():
            shown[row.player] = row.name.strip()
        return shown
