"""Solved tables for the board: whether a game's are ready, and who may start a build.

The Tipp, the analysis, the review and the best bot read solved tables
(:mod:`kniffel.solver.builds`); no request builds one. :meth:`TableReadiness.ensure`
answers before one of them runs:

- the tables are ready: go on (reading stays open to everyone, as watching is);
- they are being built (queued or running): :class:`TableBuilding` with the progress;
- they are missing: only the game's key queues them; without it :class:`TableNeedsKey`,
  and nothing is built. The presets' tables are queued for anyone (should they have gone
  from the cache). A new game's creator holds its key: :meth:`TableReadiness.prepare` queues
  its house rules' tables when it is created, before its Tipp is asked;
- the builds of new house rules are full: :class:`BuildsBusy` (docs/deploy.md, "Limits").

A game that was told its tables are being built (or whose creation queued them) is told again
when they are: :meth:`TableReadiness.on_ready` listeners hear its id (the live hub, so that a
Tipp panel that waits asks again at once instead of at its next look; docs/board.md, "Tipp").

One per app, on ``app.state.readiness`` beside the builder it asks (``app.state.tables``);
the web answers these refusals with 202, 403 and 503 (``kniffel.web.api.tables``).
"""

from __future__ import annotations

import importlib
import logging
import secrets
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from typing import TYPE_CHECKING

from kniffel.board.errors import BoardError, Forbidden
from kniffel.kept import Kept
from kniffel.solver.builds import (
    BuildsBusy,
    Readiness,
    Table,
    TableBuilds,
    asking,
    finals_tables,
    preset_tables,
    solvable,
    tables_for,
)

if TYPE_CHECKING:
    from kniffel.board.service import GameView
    from kniffel.rules import Variant

__all__ = [
    "BuildsBusy",
    "NoSolver",
    "TableBuilding",
    "TableNeedsKey",
    "TableReadiness",
    "asking",
]

_log = logging.getLogger(__name__)

#: What the Tipp imports when it first answers (numpy and the solver: about 0.4 s of CPU, most of
#: a fresh server's first Tipp beyond the Tipp itself). A game that waits for its tables has
#: them imported meanwhile, in a thread of their own (:func:`_import_the_tipp`).
TIPP_MODULES = (
    "kniffel.solver.advice.position",
    "kniffel.solver.advice.analysis",
    "kniffel.solver.advice.family",
    "kniffel.solver.advice.reasons",
    "kniffel.solver.advice.turn_ends",
    "kniffel.solver.chances.winbot",
    "kniffel.solver.chances.finals_table",
    "kniffel.solver.play.simulate",
    "kniffel.solver.raufrunter.bounds",
)


@cache
def _import_the_tipp() -> None:
    """Imports :data:`TIPP_MODULES` once per process, in a thread of its own, while a game's
    tables are built (the Tipp that follows finds them imported; two threads started at once
    by two first games import nothing twice)."""

    def imports() -> None:
        for name in TIPP_MODULES:
            try:
                importlib.import_module(name)
            except Exception:  # the Tipp imports it again and says what fails
                _log.exception("importing %s ahead of the Tipp failed", name)

    threading.Thread(target=imports, name="tipp-imports", daemon=True).start()


#: Games remembered as waiting for their tables at most (the oldest forgotten first: a game
#: forgotten still gets its Tipp when its panel looks again).
WAITING_KEPT = 1024


class NoSolver(BoardError):
    """The solver has no tables for the game's variant (Jamb, Yams with its extra columns),
    and what was asked needs them ("Auf Sieg"): it says so instead of failing (docs/rules.md,
    "Jamb"). The Tipp, the review and the chances of these sheets are the ``best`` bot's
    (docs/solver.md, "Jamb and Yams: the bot's heuristic") and need none."""

    status = 409
    default_code = "no_solver"

    def __init__(self, variant: Variant) -> None:
        super().__init__(
            f"the Tipp, the analysis and the chances are not available for {variant.label} yet",
            variant=variant.label,
        )


class TableNeedsKey(Forbidden):
    """The game's tables are not built, and the request cannot start it (no key)."""

    def __init__(self) -> None:
        super().__init__(
            "the solver table for this game's house rules is not built yet; "
            "only a request with the game's key can start building it"
        )


class TableBuilding(Exception):
    """The game's tables are being built: ``progress`` from 0 to 1."""

    def __init__(self, progress: float) -> None:
        self.progress = progress
        super().__init__("the solver table is being built")


class TableReadiness:
    """Asks ``builds`` whether a game's tables are ready, and queues them for a key holder."""

    def __init__(self, builds: TableBuilds) -> None:
        self.builds = builds
        self._presets = frozenset(preset_tables())
        self._lock = threading.Lock()
        #: The games told that their tables are being built, by id (the least recent fall out).
        self._waiting: Kept[str, Variant] = Kept(WAITING_KEPT)
        self._listeners: list[Callable[[str], None]] = []
        builds.on_built(self._built)

    def on_ready(self, listener: Callable[[str], None]) -> None:
        """Calls ``listener(game_id)`` (in the builds' worker thread) once a game that waited
        for its tables (:meth:`ensure` said they are being built, or :meth:`prepare` queued
        them) has them all."""
        with self._lock:
            self._listeners.append(listener)

    def _wait_for(self, view: GameView) -> None:
        _import_the_tipp()
        self._waiting.put(view.id, view.variant)

    def _built(self) -> None:
        """After each table the worker finished: tell the listeners of the games now ready."""
        waiting = self._waiting.items()
        with self._lock:
            listeners = list(self._listeners)
        # Each house rule looked at once.
        looked = {v: self.builds.readiness(v).ready for v in {v for _, v in waiting}}
        ready = [game for game, variant in waiting if looked[variant]]
        for game in ready:
            self._waiting.pop(game)
        for game in ready:
            for listener in listeners:
                try:
                    listener(game)
                except Exception:  # the next listener and the builds go on
                    _log.exception("a listener of game %s's tables failed", game)

    @classmethod
    def of(cls, queue: int, per_client: int) -> TableReadiness:
        """With a builder of its own: at most ``queue`` tables of new house rules waiting, and
        ``per_client`` new ones an hour for one client (docs/deploy.md, "Limits")."""
        return cls(TableBuilds(queue, per_client))

    def readiness(self, variant: Variant) -> Readiness:
        return self.builds.readiness(variant)

    def ready(self, variant: Variant) -> bool:
        """Whether what ``variant``'s Tipp, review and chances read is there: its tables,
        or none needed (Jamb and Yams: the ``best`` family bot's heuristic)."""
        return not solvable(variant) or self.builds.readiness(variant).ready

    def is_ready(self, table: Table) -> bool:
        return self.builds.is_ready(table)

    @staticmethod
    def ensure_solver(view: GameView) -> None:
        """:class:`NoSolver` where what is asked needs the solver's tables and the variant
        has none ("Auf Sieg" for Jamb and Yams)."""
        if not solvable(view.variant):
            raise NoSolver(view.variant)

    def start_presets(self, finals: bool = False) -> None:
        """Queues the presets' tables (default options), with ``finals`` then the exact
        win-chance tables of the one-column presets; the worker skips those on disk."""
        self.builds.enqueue(preset_tables())
        if finals:
            self.builds.enqueue(finals_tables())

    def ensure(self, view: GameView, key: str | None, client: str) -> None:
        """Returns when ``view``'s tables are ready; raises :class:`TableBuilding` or
        :class:`TableNeedsKey` otherwise (queueing the build when ``key`` is the game's;
        ``client`` is who asks, for the builds' share per client). A variant the solver has
        no tables for needs none: the ``best`` family bot values it (docs/solver.md)."""
        if not solvable(view.variant):
            return
        state = self.builds.readiness(view.variant)
        if state.ready:
            return
        if state.building:
            # Queued at start or by someone else: a game that asks is served first (issue 35).
            self.builds.first(view.variant)
        else:
            if not self._presets.issuperset(tables_for(view.variant)) and (
                not key
                or not secrets.compare_digest(
                    key.encode("utf-8", "surrogatepass"), view.key.encode()
                )
            ):
                raise TableNeedsKey()
            state = self.builds.request(view.variant, client)
            if state.ready:
                return
        self._wait_for(view)
        raise TableBuilding(state.progress)

    def prepare(self, view: GameView, client: str | None) -> None:
        """At a new game (``GameService.on_created``): queues the tables its first Tipp reads,
        as that Tipp would, so that they are built while its board loads (issue 35). Its
        creator holds the key, and the build counts against ``client``, the creating request's,
        once with the Tipp's (docs/deploy.md, "Limits"). Nothing for the presets' rules (built
        at start; a preset game costs nothing here) or without a client; a full queue or a
        spent share queues nothing, and the Tipp says so when it is asked."""
        variant = view.variant
        if client is None or not solvable(variant) or self._presets.issuperset(tables_for(variant)):
            return
        with suppress(BuildsBusy):
            if not self.builds.request(variant, client).ready:
                self._wait_for(view)
