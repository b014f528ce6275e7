"""The board's game service: the one way the API and the pages change games.

Every change follows the same path: read the stored game's row, take its
replay at that version from the replay cache (or load the events and replay
them), check the new event against the rules (and the board's own rules for
virtual dice, docs/rules.md), store it with the game's new summary only if
the game has not moved on meanwhile, then tell the hub and the bot driver.
Nothing is shown before it is stored. Lists read the summary columns and
replay nothing (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from random import Random, SystemRandom
from typing import Any, NamedTuple, Protocol

from anyio import to_thread

from kniffel.board import limits
from kniffel.board.errors import BoardError, Conflict, Forbidden, GameNotFound, GameUnreadable
from kniffel.board.evening import Evening, tally
from kniffel.board.hub import Hub
from kniffel.board.views import GameSummary, GameView, Preview
from kniffel.record import (
    Record,
    RecordError,
    event_from_json,
    event_to_json,
    loads,
    parse,
    record_of,
    replay,
)
from kniffel.rules import (
    Announce,
    Dice,
    Enter,
    Event,
    Game,
    IllegalMoveError,
    InvalidDiceError,
    KniffelError,
    Roll,
    Undo,
    check_new_options,
    get_variant,
    turns_of,
)
from kniffel.store import (
    Append,
    Appended,
    GameStore,
    NewGame,
    StoredGame,
    Summary,
    VersionConflict,
    VersionsUnavailable,
    player_key,
    summary_of,
)
from kniffel.store.group_commit import GroupCommit
from kniffel.store.replays import CachedReplay, ReplayCache

_log = logging.getLogger(__name__)

__all__ = [
    "BOT_NAMES",
    "DICE_MODES",
    "MAX_IMPORT_EVENTS",
    "BotDriver",
    "GameService",
    "GameSummary",
    "GameView",
    "NoBots",
    "Preview",
    "check_virtual",
    "preview_of",
]

DICE_MODES = ("physical", "virtual")
BOT_NAMES = ("greedy", "best")
#: The most events a record may hold (kniffel.board.limits says why).
MAX_IMPORT_EVENTS = limits.MAX_EVENTS
# Ids are secrets.token_urlsafe; anything else cannot be a game and is not
# sent to the database.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
# Without an expected version a change is re-checked against the newer state
# this many times before the writer is told to try again.
_RETRIES = 5
#: A kept replay at most this many events behind is caught up on the event loop (PostgreSQL);
#: a longer replay goes to a worker thread.
_LOOP_CATCH_UP = 8


class BotDriver(Protocol):
    """Plays the bot seats: called after every stored change of a game.

    A driver that moves calls back into the service (``roll``/``apply`` with
    ``view.key``) until a human is to move; each of those calls comes back
    here, so a driver must return at once when no bot is to move.
    """

    def after_change(self, service: GameService, view: GameView) -> None: ...


class NoBots:
    """The driver used until bots can play: bot seats wait."""

    def after_change(self, service: GameService, view: GameView) -> None:
        return None


class LoopVersionReader(Protocol):
    """Reads on the event loop (:class:`kniffel.store.loop_versions.LoopVersions`): ``None`` for
    an unknown game, :class:`~kniffel.store.VersionsUnavailable` when it cannot ask now."""

    async def version(self, game_id: str) -> int | None:
        """The game's stored version (``None``: no such game)."""

    async def catch_up(self, game_id: str, after: int) -> StoredGame | None:
        """The game's row with its events after version ``after`` (``None``: no such game)."""


class GameService:
    """Creates, reads and changes games in the store, through the rules engine."""

    def __init__(
        self,
        store: GameStore,
        hub: Hub,
        bots: BotDriver | None = None,
        dice: Random | None = None,
        replays: ReplayCache | None = None,
        writer: GroupCommit | None = None,
        versions: LoopVersionReader | None = None,
    ) -> None:
        self.store = store
        #: Asks a game's version without leaving the event loop where the store's own query
        #: would need a worker thread (PostgreSQL): reads of a kept version stay on the loop.
        self.versions = versions
        #: Stores the changes made through :meth:`apply_async` and :meth:`roll_async` (group
        #: commit); without one they run in a worker thread like :meth:`apply`.
        self.writer = writer
        #: Replays by (game id, version): a read of a known state replays nothing.
        self.replays = replays if replays is not None else ReplayCache()
        self.hub = hub
        self.bots: BotDriver = bots if bots is not None else NoBots()
        self._dice = dice if dice is not None else SystemRandom()
        #: Called with the view after a stored change that ends a game or reopens one, and
        #: after an import of a finished game (the players' summary rows are synced there,
        #: never in a read; docs/architecture.md).
        self.on_finished: list[Callable[[GameView], None]] = []
        #: Called with the view after every stored change (cheap and quick: it may run in the
        #: writer's thread; the Tipp's work ahead, kniffel.board.advice).
        self.on_change: list[Callable[[GameView], None]] = []
        #: Called with the view of each new game still to be played (created, a Revanche, an
        #: import), in the request that made it (cheap and quick: the tables its Tipp reads are
        #: queued, kniffel.board.tables).
        self.on_created: list[Callable[[GameView], None]] = []

    # ----------------------------------------------------------------- create

    def create(
        self,
        variant: str,
        options: Mapping[str, Any] | None,
        players: Sequence[str],
        dice_mode: str = "physical",
        bots: Mapping[str, str] | None = None,
    ) -> GameView:
        """A new game; bad variants, options, players or bot seats raise with a plain message."""
        resolved = get_variant(variant, options or {})
        check_new_options(resolved.options)
        limits.check_options(resolved.options)
        names = limits.player_names(players)
        fresh = Game(resolved, names)  # checks count, blanks and duplicates
        if dice_mode not in DICE_MODES:
            raise BoardError(
                f"dice_mode must be physical or virtual, got {dice_mode!r}",
                code="dice_mode",
                value=str(dice_mode),
            )
        seats = _bot_seats(bots or {}, names, dice_mode)
        stored = self.store.create(
            NewGame(
                id=_new_game_id(),
                key=secrets.token_urlsafe(16),
                variant=resolved.name,
                options=resolved.options.as_dict(),
                players=names,
                dice_mode=dice_mode,
                bots=seats,
            ),
            summary=summary_of(fresh),
        )
        view = self._view(stored, self._remember(stored, fresh, ()))
        self._tell(self.on_created, view)
        self.bots.after_change(self, view)
        return view

    def revanche(self, game_id: str, key: str | None) -> GameView:
        """The Revanche of a finished game: the next game with the same players, rules, dice
        mode and bot seats, the next player starting (the seats turn by one, so the player
        after the one who started ``game_id`` starts), in ``game_id``'s evening.

        Needs the game's key (:class:`Forbidden`). Idempotent: a game has one Revanche, and
        every later call (another tap, another device at the same moment) gets that one. The
        watchers of ``game_id`` are told (:meth:`Hub.revanche`) once it is stored.
        """
        stored, cached = self._state(game_id)
        _check_key(stored, key)
        if not cached.game.is_finished:
            raise BoardError(
                "a Revanche follows a finished game; this one is still being played",
                code="revanche_unfinished",
            )
        players = (*stored.players[1:], *stored.players[:1])
        resolved = get_variant(stored.variant, stored.options)
        new = NewGame(
            id=_new_game_id(),
            key=secrets.token_urlsafe(16),
            variant=resolved.name,
            options=resolved.options.as_dict(),
            players=players,
            dice_mode=stored.dice_mode,
            bots=dict(stored.bots),
        )
        try:
            found = self.store.create_revanche(game_id, new, summary_of(Game(resolved, players)))
        except LookupError:
            raise GameNotFound(game_id) from None
        view = self.get(found)
        if found == new.id:
            self.hub.revanche(game_id, found)
            self._tell(self.on_created, view)
            self.bots.after_change(self, view)
        return view

    def revanche_of(self, game_id: str) -> str | None:
        """The id of ``game_id``'s Revanche, ``None`` before (one read of the game's row)."""
        stored = None
        if _GAME_ID.fullmatch(game_id):
            stored = self.store.load(game_id, with_events=False)
        if stored is None:
            raise GameNotFound(game_id)
        return stored.revanche

    def evening(self, game_id: str) -> tuple[Evening | None, str | None]:
        """The tally of ``game_id``'s evening (``None`` for a game alone) and the id of its
        Revanche (``None`` before), read from the store: a Revanche changes no version, so
        neither is kept with a replay."""
        stored = None
        if _GAME_ID.fullmatch(game_id):
            stored = self.store.load(game_id, with_events=False)
        if stored is None:
            raise GameNotFound(game_id)
        if stored.evening is None:
            return None, stored.revanche
        return tally(stored.evening, self.store.evening(stored.evening)), stored.revanche

    def evenings_of(self, name: str, limit: int = 3) -> list[Evening]:
        """The tallies of the latest evenings in which ``name`` finished a game (the player
        page's), the latest first."""
        return [
            tally(evening, self.store.evening(evening))
            for evening in self.store.evenings_of(player_key(name), limit)
        ]

    def import_record(self, document: Mapping[str, Any] | str | bytes) -> GameView:
        """Store a game record as a new (physical dice) game.

        An illegal record raises :class:`~kniffel.record.RecordError` (``event N: ...``)
        and nothing is stored.
        """
        record = parse(document) if isinstance(document, Mapping) else loads(document)
        made_on = _device_game_id(document)
        if made_on is not None:
            # Started on a device with no server and posted again (its first answer never came
            # back): the game it stored then, not a second one.
            try:
                return self.get(made_on)
            except GameNotFound:
                pass
        # Exactly the checks of creation (kniffel.board.limits), before any event is replayed.
        if len(record.events) > MAX_IMPORT_EVENTS:
            raise limits.LimitError(
                f"a record may hold at most {MAX_IMPORT_EVENTS:,} events, "
                f"this one has {len(record.events):,}",
                code="record_too_long",
                max=MAX_IMPORT_EVENTS,
            )
        limits.check_record_names(record.players)
        limits.check_options(get_variant(record.variant, record.options).options)
        game = replay(record)
        events = [
            {**event_to_json(event), **_offline_mark(raw)}
            for event, raw in zip(game.log, record.events, strict=True)
        ]
        stored = self.store.create(
            NewGame(
                id=made_on or _new_game_id(),
                key=secrets.token_urlsafe(16),
                variant=game.variant.name,
                options=game.options.as_dict(),
                players=game.players,
                dice_mode="physical",
                evening=record.evening,
            ),
            events,
            summary=summary_of(game),
        )
        view = self._view(stored, self._remember(stored, game, tuple(events)))
        if view.game.is_finished:
            self._tell_finished(view)
        else:
            self._tell(self.on_created, view)
        return view

    def _tell_finished(self, view: GameView) -> None:
        self._tell(self.on_finished, view)

    @staticmethod
    def _tell(listeners: list[Callable[[GameView], None]], view: GameView) -> None:
        for hears in listeners:
            try:
                hears(view)
            except Exception:  # the change is stored; a listener's failure must not undo it
                _log.exception("after storing %s", view.id)

    # ------------------------------------------------------------------- read

    def get(self, game_id: str, version: int | None = None) -> GameView:
        """The game as stored; ``version``, when given, is its version just read."""
        return self._view(*self._state(game_id, version))

    @property
    def quick_reads(self) -> bool:
        """Whether :meth:`peek` is quick enough to run on an event loop: the store is an
        SQLite file on this machine, so a game's version is one indexed read without a
        network round trip (PostgreSQL's is not, and its reads stay in worker threads)."""
        return self.store.dialect == "sqlite"

    async def get_async(self, game_id: str) -> GameView:
        """:meth:`get` for a route on the event loop, without a worker thread when that is
        quicker: a game whose version is cached costs one indexed query, which on SQLite
        runs on the loop (:attr:`quick_reads`), since handing it to a worker thread and back
        costs more than the query (docs/benchmarks.md, "Load"). On PostgreSQL the version is
        asked on the loop by :attr:`versions`. A game that must be loaded and replayed goes to
        a worker thread."""
        if self.quick_reads:
            view = self.peek(game_id)
            if view is not None:
                return view
            return await to_thread.run_sync(self.get, game_id)
        state, version = await self._loop_state(game_id)
        if state is not None:
            return self._view(*state)
        return await to_thread.run_sync(self.get, game_id, version)

    async def _loop_state(
        self, game_id: str
    ) -> tuple[tuple[StoredGame, CachedReplay] | None, int | None]:
        """The game's state read by :attr:`versions` on the loop: its version, and the kept
        replay of that version or one a few events behind caught up with them (stored through
        another process). ``(None, version)`` when the state must be loaded in a worker thread
        (``version`` ``None`` when there is no reader or it could not ask);
        :class:`GameNotFound` for an unknown id."""
        if self.versions is None:
            return None, None
        if not _GAME_ID.fullmatch(game_id):
            raise GameNotFound(game_id)
        version: int | None = None
        try:
            version = await self.versions.version(game_id)
            if version is None:
                raise GameNotFound(game_id)
            cached = self.replays.get(game_id, version)
            if cached is not None and cached.row is not None:
                return (cached.row, cached), version
            behind = self.replays.latest(game_id)
            if behind is None or not 0 < version - behind[0] <= _LOOP_CATCH_UP:
                return None, version
            stored = await self.versions.catch_up(game_id, behind[0])
        except VersionsUnavailable:
            return None, version
        if stored is None:
            raise GameNotFound(game_id)
        return self._caught_up(behind[1], stored), version

    def peek(self, game_id: str) -> GameView | None:
        """The game as :meth:`get` gives it when its current version is cached, else ``None``
        (then nothing was loaded or replayed); :class:`GameNotFound` for an unknown id."""
        state = self._cached_state(game_id)
        return None if state is None else self._view(*state)

    def version(self, game_id: str) -> int:
        """The number of stored events of ``game_id`` (cheap: no replay)."""
        version = self.store.version(game_id) if _GAME_ID.fullmatch(game_id) else None
        if version is None:
            raise GameNotFound(game_id)
        return version

    def list_games(self, finished: bool | None = None, limit: int = 200) -> list[GameSummary]:
        """Games most recently changed first (without keys), from the summary columns; a game
        this release cannot read (a newer one's variant or option) is listed as such."""
        return [_summary(s) for s in self.store.summaries(finished, limit)]

    def export_record(self, game_id: str) -> dict[str, Any]:
        """The game as a ``kniffel-record/1`` document (every event, undos included)."""
        stored, cached = self._state(game_id)
        document = record_of(cached.game, options=stored.options)
        for event, payload in zip(document["events"], cached.events, strict=True):
            if "offline" in payload:  # a roll made on a device offline (docs/record-format.md)
                event["offline"] = payload["offline"]
        evening = self.store.load(game_id, with_events=False) if stored.evening is None else stored
        if evening is not None and evening.evening is not None:
            # The cached row may predate the Revanche that opened the evening: read it again.
            document["evening"] = evening.evening
        return document

    # ----------------------------------------------------------------- change

    def apply(
        self,
        game_id: str,
        key: str | None,
        event: Mapping[str, Any],
        expected_version: int | None = None,
    ) -> GameView:
        """Check ``event`` (a record event object) against the rules and store it.

        Raises the engine's :class:`~kniffel.rules.KniffelError` for an illegal
        event, :class:`Forbidden` for a wrong key, :class:`Conflict` when the
        game is no longer at ``expected_version``; nothing is stored then.
        """
        return self._change(game_id, key, expected_version, _applying(event))

    async def apply_async(
        self,
        game_id: str,
        key: str | None,
        event: Mapping[str, Any],
        expected_version: int | None = None,
    ) -> GameView:
        """:meth:`apply` for a route on the event loop (see :meth:`_change_async`)."""
        return await self._change_async(game_id, key, expected_version, _applying(event))

    def roll(
        self,
        game_id: str,
        key: str | None,
        player: str,
        keep: Sequence[int] = (),
        expected_version: int | None = None,
    ) -> GameView:
        """Virtual dice: roll for ``player``, keeping the faces ``keep`` of the last roll."""
        return self._change(game_id, key, expected_version, self._rolling(player, keep))

    async def roll_async(
        self,
        game_id: str,
        key: str | None,
        player: str,
        keep: Sequence[int] = (),
        expected_version: int | None = None,
    ) -> GameView:
        """:meth:`roll` for a route on the event loop (see :meth:`_change_async`)."""
        build = self._rolling(player, keep)
        return await self._change_async(game_id, key, expected_version, build)

    async def roll_made_offline_async(
        self,
        game_id: str,
        key: str | None,
        player: str,
        keep: Sequence[int],
        dice: Dice,
        device: str,
        expected_version: int,
    ) -> GameView:
        """Virtual dice rolled on a device while it could not reach the board (docs/decisions.md,
        "Virtual dice offline"): the device's ``dice``, checked by the rules as any roll, stored
        with the mark ``"offline": device`` that the record and the review show. Only with the
        game's key and on the version the roll was made on (``expected_version``), as any change.
        """
        if not _DEVICE.fullmatch(device):
            raise BoardError(
                "a roll made offline names its device by 8 to 32 letters or digits",
                code="offline_device",
            )

        def build(stored: StoredGame, game: Game) -> Event:
            if stored.dice_mode != "virtual":
                raise IllegalMoveError(
                    "this game is played with physical dice; enter the dice that fell",
                    code="physical_dice",
                )
            return Roll(player, dice, tuple(sorted(keep)))

        mark = {"offline": device}
        return await self._change_async(game_id, key, expected_version, build, mark)

    def _rolling(self, player: str, keep: Sequence[int]) -> Callable[[StoredGame, Game], Event]:
        def build(stored: StoredGame, game: Game) -> Event:
            if stored.dice_mode != "virtual":
                raise IllegalMoveError(
                    "this game is played with physical dice; enter the dice that fell",
                    code="physical_dice",
                )
            kept = list(keep)
            if len(kept) > 5:
                raise InvalidDiceError(
                    f"at most 5 dice can be kept, got {len(kept)}", code="keep_count", got=len(kept)
                )
            fresh = [self._dice.randint(1, 6) for _ in range(5 - len(kept))]
            return Roll(player, Dice.of([*kept, *fresh]), tuple(sorted(kept)))

        return build

    def _change(
        self,
        game_id: str,
        key: str | None,
        expected_version: int | None,
        build: Callable[[StoredGame, Game], Event],
        state: tuple[StoredGame, CachedReplay] | None = None,
        mark: Mapping[str, Any] | None = None,
    ) -> GameView:
        """Check and store a change; ``state``, when given, is the game's state just read (the
        first try starts from it, a retry after a conflict reads the game again); ``mark``: the
        fields stored beside the event (a roll made offline)."""
        for _ in range(_RETRIES):
            if state is None:
                state = self._state(game_id)
            pending = self._prepare(state, key, expected_version, build, mark)
            state = None
            try:
                appended = self.store.append(
                    game_id,
                    pending.stored.version,
                    pending.payload,
                    finished=pending.game.is_finished,
                    summary=pending.summary,
                )
            except VersionConflict as exc:
                if expected_version is not None:
                    raise Conflict(str(exc), expected=expected_version) from None
                continue
            view = self._finish(pending, appended)
            self.hub.publish(game_id, appended.version)
            self.bots.after_change(self, view)
            return view
        raise Conflict("the game is changing too fast; try again", code="too_busy")

    async def _change_async(
        self,
        game_id: str,
        key: str | None,
        expected_version: int | None,
        build: Callable[[StoredGame, Game], Event],
        mark: Mapping[str, Any] | None = None,
    ) -> GameView:
        """:meth:`_change` for a route on the event loop: with a :class:`GroupCommit` the
        event is checked here and stored by the writer thread; without one, all of it runs
        in a worker thread."""
        writer = self.writer
        if writer is None:
            # A state the loop could read spares the worker thread that read.
            state, _ = await self._loop_state(game_id)
            return await to_thread.run_sync(
                self._change, game_id, key, expected_version, build, state, mark
            )
        for attempt in range(_RETRIES):
            # First the newest kept replay, without asking the store for the game's version:
            # the append stores only on the version the change was made on, so a replay behind
            # another process's changes meets a version conflict there, and any refusal made
            # on it is made again on the version read from the store (docs/benchmarks.md,
            # "Kind by kind").
            state = self._newest_kept(game_id) if attempt == 0 and self.quick_reads else None
            checked = state is None
            if state is None:
                state = self._cached_state(game_id) if self.quick_reads else None
            if state is None:  # not cached: loaded and replayed in a worker thread
                state = await to_thread.run_sync(self._state, game_id)
            try:
                pending = self._prepare(state, key, expected_version, build, mark)
            except (BoardError, KniffelError):
                if checked:
                    raise
                continue
            future = writer.submit(
                Append(
                    game_id,
                    pending.stored.version,
                    pending.payload,
                    pending.game.is_finished,
                    pending.summary,
                )
            )
            # Cached and told to the hub by the writer thread the moment it is committed
            # (before this request hears of it), even if this request is cancelled
            # meanwhile (its device went away): watchers still hear of it.
            finished: list[GameView] = []
            future.add_done_callback(partial(self._committed, pending, finished))
            try:
                appended = await asyncio.wrap_future(future)
            except VersionConflict as exc:
                if expected_version is not None:
                    raise Conflict(str(exc), expected=expected_version) from None
                continue
            view = finished[0] if finished else self._finish(pending, appended)
            if view.bots:  # a bot driver may play at once: not on the event loop
                await to_thread.run_sync(self.bots.after_change, self, view)
            return view
        raise Conflict("the game is changing too fast; try again", code="too_busy")

    def _committed(
        self, pending: _Pending, finished: list[GameView], future: Future[Appended]
    ) -> None:
        if future.cancelled() or future.exception() is not None:
            return
        appended = future.result()
        finished.append(self._finish(pending, appended))
        self.hub.publish(pending.stored.id, appended.version)

    def _prepare(
        self,
        state: tuple[StoredGame, CachedReplay],
        key: str | None,
        expected_version: int | None,
        build: Callable[[StoredGame, Game], Event],
        mark: Mapping[str, Any] | None = None,
    ) -> _Pending:
        """The change checked against ``state``: what to store (the event, and ``mark`` beside
        it), or the refusal raised."""
        stored, cached = state
        _check_key(stored, key)
        if expected_version is not None and expected_version != stored.version:
            raise Conflict(
                f"the game has changed meanwhile (version {stored.version}, "
                f"not {expected_version}); reload it",
                version=stored.version,
                expected=expected_version,
            )
        game = cached.game.copy()  # the cached replay stays as it was
        event = build(stored, game)
        game.push(event)
        payload = {**event_to_json(event), **(mark or {})}
        return _Pending(stored, cached, game, payload, summary_of(game))

    def _finish(self, pending: _Pending, appended: Appended) -> GameView:
        """The view after ``pending`` was stored as ``appended`` (cached for the next read)."""
        summary = pending.summary
        after = replace(
            pending.stored,
            version=appended.version,
            updated_at=appended.at,
            finished=summary.finished,
            turns=summary.turns,
            totals=summary.totals,
            winners=summary.winners,
        )
        events = (*pending.cached.events, pending.payload)
        view = self._view(after, self._remember(after, pending.game, events))
        if pending.stored.finished or summary.finished:  # ended, reopened, or changed after
            self._tell_finished(view)
        self._tell(self.on_change, view)
        return view

    # ---------------------------------------------------------------- helpers

    def _state(self, game_id: str, version: int | None = None) -> tuple[StoredGame, CachedReplay]:
        """The stored game's row and its replay at the row's version.

        The version is one indexed read (skipped when the caller just read it); the row comes
        with the cached replay of that version (the row changes only with the version), and
        the row and events are loaded, and the events replayed, only when the cache does not
        hold that version.
        """
        if version is None:
            version = self.store.version(game_id) if _GAME_ID.fullmatch(game_id) else None
        if version is None:
            raise GameNotFound(game_id)
        cached = self.replays.get(game_id, version)
        if cached is not None and cached.row is not None:
            return cached.row, cached
        behind = self.replays.latest(game_id)
        if behind is not None and behind[0] < version:
            # Another process stored the newer events: only they are loaded and applied.
            stored = self.store.load(game_id, after=behind[0])
            if stored is None:
                raise GameNotFound(game_id)
            return self._caught_up(behind[1], stored)
        stored = self.store.load(game_id)
        if stored is None:
            raise GameNotFound(game_id)
        events = stored.events
        return replace(stored, events=()), self._remember(stored, self._replay(stored), events)

    def _caught_up(self, kept: CachedReplay, stored: StoredGame) -> tuple[StoredGame, CachedReplay]:
        """``kept`` with ``stored``'s events (the ones after it) applied, remembered."""
        game = self._replay(stored, kept.game.copy())
        events = (*kept.events, *stored.events)
        return replace(stored, events=()), self._remember(stored, game, events)

    def _newest_kept(self, game_id: str) -> tuple[StoredGame, CachedReplay] | None:
        """The game's newest kept replay with its row, its version not checked with the store
        (a change's first try, :meth:`_change_async`), else ``None``."""
        kept = self.replays.latest(game_id)
        if kept is None or kept[1].row is None:
            return None
        return kept[1].row, kept[1]

    def _cached_state(self, game_id: str) -> tuple[StoredGame, CachedReplay] | None:
        """:meth:`_state` when the game's current version is cached (one indexed read),
        else ``None``."""
        version = self.version(game_id)
        cached = self.replays.get(game_id, version)
        if cached is None or cached.row is None:
            return None
        return cached.row, cached

    def _remember(
        self, stored: StoredGame, game: Game, events: tuple[dict[str, Any], ...]
    ) -> CachedReplay:
        cached = CachedReplay(game, events, replace(stored, events=()))
        self.replays.put(stored.id, stored.version, cached)
        return cached

    @staticmethod
    def _replay(stored: StoredGame, game: Game | None = None) -> Game:
        """``stored``'s events applied to ``game`` (a new game when ``None``);
        :class:`GameUnreadable` when they are not this release's to read (a newer release's
        variant, option or event: stored events were legal when they were stored)."""
        try:
            return replay(
                Record(stored.variant, stored.players, stored.options, stored.events),
                game,
            )
        except (KniffelError, RecordError) as exc:
            raise GameUnreadable(stored.id, str(exc)) from exc

    @staticmethod
    def _view(stored: StoredGame, cached: CachedReplay) -> GameView:
        game = cached.game
        return GameView(
            id=stored.id,
            key=stored.key,
            variant=game.variant,
            players=stored.players,
            dice_mode=stored.dice_mode,
            bots=dict(stored.bots),
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            version=stored.version,
            game=game,
            events=cached.events,
        )


def _summary(stored: StoredGame) -> GameSummary:
    """A game for lists, from its summary columns (nothing replayed)."""
    try:
        rounds, unreadable = turns_of(get_variant(stored.variant, stored.options)), None
    except KniffelError as exc:  # a newer release's variant or option (docs/deploy.md §7)
        rounds, unreadable = 0, f"this version of the board cannot read this game ({exc})"
    return GameSummary(
        id=stored.id,
        variant=stored.variant,
        players=stored.players,
        dice_mode=stored.dice_mode,
        bots=stored.bots,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        version=stored.version,
        finished=stored.finished,
        turns=stored.turns,
        rounds=rounds,
        totals=stored.totals,
        winners=stored.winners,
        unreadable=unreadable,
    )


class _Pending(NamedTuple):
    """A checked change, not yet stored: the state it was checked on and what to store."""

    stored: StoredGame
    cached: CachedReplay
    game: Game
    payload: dict[str, Any]
    summary: Summary


#: A device's own id for a game it started with no server (the record's ``device.id``).
_DEVICE_ID = re.compile(r"[A-Za-z0-9-]{8,64}")


def _device_game_id(document: Mapping[str, Any] | str | bytes) -> str | None:
    """The id of the game that a record started on a device with no server is stored under
    (docs/record-format.md, ``device``): drawn from the device's own id for the game, so that
    the same record posted twice finds the game stored the first time. ``None`` for any other
    record, and for a ``device`` that is not a device's (the field is ignored then, as every
    field the format does not know)."""
    device = document.get("device") if isinstance(document, Mapping) else None
    made_on = device.get("id") if isinstance(device, Mapping) else None
    if not isinstance(made_on, str) or not _DEVICE_ID.fullmatch(made_on):
        return None
    digest = hashlib.sha256(f"kniffel-device/{made_on}".encode()).digest()
    found = base64.urlsafe_b64encode(digest).decode()[:12]
    return "d" + found[1:] if found.startswith("-") else found


def _new_game_id() -> str:
    """A new game's id: 12 characters of ``secrets.token_urlsafe``, drawn again while it starts
    with ``-``, so that no spreadsheet takes it for a formula (the CSV would write it with a
    leading ``'``, kniffel.board.players.spreadsheet) and no command line for an option."""
    while (found := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return found


def _applying(event: Mapping[str, Any]) -> Callable[[StoredGame, Game], Event]:
    def build(stored: StoredGame, game: Game) -> Event:
        parsed = event_from_json(dict(event), game)
        if stored.dice_mode == "virtual":
            check_virtual(game, parsed)
        return parsed

    return build


def preview_of(view: GameView, dice: str | Sequence[int] | None = None) -> Preview:
    """What ``dice`` (default: the pending dice) would score in each allowed cell of ``view``."""
    game = view.game
    player = game.current_player()
    if player is None:
        return Preview(None, None, [])
    if dice is None:
        pending = game.pending(player)
        if pending is None:
            return Preview(game.players[player], None, [])
        rolled = pending[0]
    else:
        rolled = Dice.parse(dice) if isinstance(dice, str) else Dice.of(dice)
    return Preview(game.players[player], rolled, game.entry_options(player, rolled))


def _bot_seats(bots: Mapping[str, str], players: Sequence[str], dice_mode: str) -> dict[str, str]:
    seats: dict[str, str] = {}
    for player, bot in bots.items():
        if player not in players:
            raise BoardError(
                f"a bot can only take a player's seat; {player!r} does not play",
                code="bot_seat",
                player=str(player),
            )
        if bot not in BOT_NAMES:
            raise BoardError(
                f"unknown bot {bot!r}; the bots are {', '.join(BOT_NAMES)}",
                code="unknown_bot",
                bot=str(bot),
                bots=list(BOT_NAMES),
            )
        seats[player] = bot
    if seats and dice_mode != "virtual":
        raise BoardError("bots play with virtual dice only", code="bots_virtual")
    return seats


#: A device's name for the rolls it made offline (``tafel/offline.js`` makes 16 hex digits).
_DEVICE = re.compile(r"[A-Za-z0-9]{8,32}")


def _offline_mark(raw: Any) -> dict[str, Any]:
    """A record's roll made offline keeps its mark on import (an export read back is the same
    game, its review the same); a malformed mark is passed over as any extra field is."""
    device = raw.get("offline") if isinstance(raw, dict) and raw.get("type") == "roll" else None
    return {"offline": device} if isinstance(device, str) and _DEVICE.fullmatch(device) else {}


def _check_key(stored: StoredGame, key: str | None) -> None:
    if not key:
        raise Forbidden("this game can be changed only with its key (the link it was shared with)")
    given = key.encode("utf-8", "surrogatepass")
    if not secrets.compare_digest(stored.key.encode(), given):
        raise Forbidden("the key does not fit this game", code="key_wrong")


def check_virtual(game: Game, event: Event) -> None:
    """The board's rules for virtual dice (docs/rules.md §8.2): a roll stands."""
    if isinstance(event, Roll):
        raise IllegalMoveError(
            "with virtual dice the board rolls; ask it to roll", code="virtual_roll"
        )
    if isinstance(event, Enter):
        if event.dice is not None or event.points is not None:
            raise IllegalMoveError(
                "with virtual dice only the rolled dice can be entered", code="virtual_entry"
            )
        if game.current_name == event.player and game.pending(event.player) is None:
            raise IllegalMoveError(
                f"{event.player} has not rolled yet; roll first",
                code="not_rolled",
                player=event.player,
            )
    if (
        isinstance(event, Announce)
        and game.current_name == event.player
        and game.pending(event.player) is None
    ):
        # With virtual dice the board sees the first roll: an announcement waits for it.
        raise IllegalMoveError(
            f"{event.player} has not rolled yet; roll first",
            code="not_rolled",
            player=event.player,
        )
    if isinstance(event, Undo) and isinstance(game.last_event, Roll):
        raise IllegalMoveError(
            "with virtual dice a roll stands; it cannot be undone", code="roll_stands"
        )
