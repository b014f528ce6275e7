"""Bot seats: the bots take their turns through the game service, one stored event at a time.

:class:`BotSeats` is the service's bot driver. After every stored change it
looks whether a bot sits at the seat to move; if so, that bot plays through
the same path as a person (``GameService.roll`` and ``apply``), so every roll
and entry is an event in the record and reaches every device live. The
service lets bots sit only in games with virtual dice: the board rolls for
them as for everyone.

With a ``delay`` the moves run in a worker thread per game, one event every
``delay`` seconds, so that people can follow them; the request that made a
bot the player to move returns at once. With ``delay=0`` (the tests) the bot
moves inside that request, before it returns.
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from kniffel.board.errors import BoardError, Conflict, GameNotFound
from kniffel.board.service import GameService, GameView
from kniffel.rules import AnnounceAction, EnterAction, Game, KniffelError, Variant
from kniffel.solver.builds import BuildsBusy, TableBuilds, asking, solvable

if TYPE_CHECKING:  # the bots (numpy) are imported when a bot first plays
    from kniffel.solver.play.bots import Bot
    from kniffel.solver.play.family import FamilyBot

__all__ = ["DEFAULT_DELAY", "BotSeats", "bot_to_move"]

#: Seconds between two bot events: long enough to see each roll, short enough not to wait.
DEFAULT_DELAY = 0.4
#: Games whose last changing client the bot seats remember (the oldest are forgotten).
_ASKERS_KEPT = 10_000

_log = logging.getLogger(__name__)


@lru_cache(maxsize=16)
def _bot(name: str, variant: Variant) -> Bot | FamilyBot:
    """One bot per name and variant, kept: the best bot's tables load once. Jamb (and Yams
    with sèche or annoncée) has no tables: its bots play through the rules engine."""
    if not solvable(variant):
        from kniffel.solver.play.family import make_family_bot

        return make_family_bot(name, variant)
    from kniffel.solver.play.bots import make_bot

    return make_bot(name, variant)


def bot_to_move(view: GameView) -> str | None:
    """The bot (``greedy``, ``best``) at the seat to move, if a bot sits there."""
    name = view.game.current_name
    if name is None or view.dice_mode != "virtual":
        return None
    return view.bots.get(name)


class BotSeats:
    """Plays the bot seats of every game (the service's :class:`BotDriver`)."""

    def __init__(self, delay: float = DEFAULT_DELAY) -> None:
        self.delay = delay
        self._lock = threading.Lock()
        self._workers: dict[str, threading.Thread] = {}  # games with a worker thread
        self._changed: set[str] = set()  # games changed since their worker last looked
        self._stopped = threading.Event()
        self._local = threading.local()
        self._tables: TableBuilds | None = None
        self._waiting: dict[str, GameService] = {}  # games whose best bot waits for its tables
        #: Who last changed each game with a bot to move (a request's client): the builds its
        #: best bot starts count against that client (docs/deploy.md, "Limits").
        self._askers: dict[str, str] = {}

    def use_tables(self, tables: TableBuilds) -> None:
        """The best bot plays only once its tables are built (by ``tables``, never in a move)."""
        self._tables = tables
        tables.on_built(self._tables_built)

    def _ready(self, service: GameService, view: GameView, bot: str) -> bool:
        """Whether ``bot`` can move in ``view`` now; if not, its tables are queued (the game's
        bot seats were set by a key holder) and the game waits for them."""
        if bot != "best" or self._tables is None or not solvable(view.game.variant):
            return True
        with self._lock:
            client = self._askers.get(view.id)
        try:
            if self._tables.request(view.game.variant, client).ready:
                return True
        except BuildsBusy:
            pass  # the queue or the client's share is full: the seat waits, and asks again
            # after the next build
        with self._lock:
            self._waiting[view.id] = service
        return False

    def _tables_built(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, {}
        for game_id, service in waiting.items():
            if not self._stopped.is_set():
                self._wake(service, game_id)

    def after_change(self, service: GameService, view: GameView) -> None:
        if bot_to_move(view) is None or self._stopped.is_set():
            return
        client = asking.get()
        if client is not None:
            with self._lock:
                self._askers.pop(view.id, None)
                self._askers[view.id] = client  # the newest last: the oldest go first
                while len(self._askers) > _ASKERS_KEPT:
                    del self._askers[next(iter(self._askers))]
        if self.delay <= 0:
            self._play_now(service, view)
        else:
            self._wake(service, view.id)

    def close(self) -> None:
        """Stop every worker (the app's shutdown); a move in progress is finished first."""
        self._stopped.set()
        with self._lock:
            workers = list(self._workers.values())
        for worker in workers:
            worker.join(timeout=10)

    # ------------------------------------------------------------------ moves

    def _move(self, service: GameService, view: GameView, bot: str) -> GameView:
        """One action of ``bot`` for the player to move, stored through the service."""
        game: Game = view.game
        name = game.current_name
        assert name is not None
        action = _bot(bot, game.variant).choose(game)
        if isinstance(action, EnterAction | AnnounceAction):
            kind = "enter" if isinstance(action, EnterAction) else "announce"
            event = {"type": kind, "player": name, "cell": str(action.cell)}
            return service.apply(view.id, view.key, event, expected_version=view.version)
        return service.roll(
            view.id, view.key, name, list(action.keep), expected_version=view.version
        )

    def _play_now(self, service: GameService, view: GameView) -> None:
        # Each move calls after_change again; the outermost call plays on, so the
        # stack stays flat however many bot turns follow each other.
        if getattr(self._local, "playing", False):
            return
        self._local.playing = True
        try:
            while (bot := bot_to_move(view)) is not None and self._ready(service, view, bot):
                try:
                    view = self._move(service, view, bot)
                except Conflict:
                    view = service.get(view.id)  # someone else changed the game: look again
        except (GameNotFound, KniffelError, BoardError) as exc:
            # The change that woke the bot is stored; its request must not fail for the bot.
            _log.warning("bot seats of game %s stopped: %s", view.id, exc)
        finally:
            self._local.playing = False

    # ---------------------------------------------------------------- workers

    def _wake(self, service: GameService, game_id: str) -> None:
        with self._lock:
            if game_id in self._workers:
                self._changed.add(game_id)
                return
            worker = threading.Thread(
                target=self._work, args=(service, game_id), name=f"bot-seats-{game_id}", daemon=True
            )
            self._workers[game_id] = worker
            worker.start()

    def _work(self, service: GameService, game_id: str) -> None:
        try:
            while not self._stopped.wait(self.delay):
                with self._lock:
                    self._changed.discard(game_id)
                view = service.get(game_id)
                bot = bot_to_move(view)
                if bot is not None and not self._ready(service, view, bot):
                    bot = None  # woken again when its tables are built
                if bot is None:
                    with self._lock:
                        if game_id in self._changed:
                            continue  # a change came in while we looked: look again
                        del self._workers[game_id]
                        return
                try:
                    self._move(service, view, bot)
                except Conflict:
                    continue
        except (GameNotFound, KniffelError, BoardError) as exc:
            _log.warning("bot seats of game %s stopped: %s", game_id, exc)
        except Exception:  # a worker thread must not die silently nor take the server down
            _log.exception("bot seats of game %s failed", game_id)
        with self._lock:
            self._workers.pop(game_id, None)
