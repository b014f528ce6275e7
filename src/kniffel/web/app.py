"""The board's web application: store, service and hub wired into FastAPI."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

import kniffel
from kniffel.board import background
from kniffel.board.advice import AdviceService
from kniffel.board.bot_seats import BotSeats
from kniffel.board.chances import ChancesService
from kniffel.board.hub import Hub
from kniffel.board.opening import open_board
from kniffel.board.players.service import PlayerService
from kniffel.board.reviews import ReviewService
from kniffel.board.service import BotDriver
from kniffel.board.tables import TableReadiness, asking
from kniffel.kept import Kept
from kniffel.priority import set_background_nice
from kniffel.settings import Settings
from kniffel.web import offline
from kniffel.web.api import advice, api, chances, health, live, tables
from kniffel.web.api.hot import HotReads
from kniffel.web.middleware import access_log, outage
from kniffel.web.middleware.body_deadline import BodyDeadline
from kniffel.web.middleware.body_limit import BodyLimit
from kniffel.web.middleware.changes_first import ChangesFirst, Turns
from kniffel.web.middleware.errors import COMMON_ERRORS, document_errors, install_error_handlers
from kniffel.web.middleware.origin import SameOriginForms
from kniffel.web.middleware.security import SecurityHeaders
from kniffel.web.pages import (
    advice_pages,
    board_pages,
    chances_pages,
    player_routes,
    review_routes,
    start,
)
from kniffel.web.rendering import templates
from kniffel.web.template_cache import keep_compiled

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).parent / "static"
#: Allocations between two collections of the youngest generation once the board has started
#: (Python's default is 700; docs/decisions.md, "The collector after start").
YOUNG_THRESHOLD = 20_000


_DESCRIPTION = """
Every game has a public id (in its link) and a secret key. Reading a game needs the id;
changing it needs the key, sent as the `X-Kniffel-Key` header or the `key` query parameter.

Events are `kniffel-record/1` event objects (`roll`, `enter`, `edit`, `clear`, `undo`), checked by
the rules engine: an illegal one answers 400 with the engine's message and changes nothing.
Every error (4xx) answers `{"code": "<stable code>", "params": {...}, "message": "<one plain line>",
"detail": "<the same line>"}`: `code` names the refusal (`not_due`, `not_your_turn`,
`impossible_points`, `version_conflict`, `invalid_request`, `not_found`, …), `params` its details.

**Live updates**: the WebSocket `/api/games/{game_id}/live` (no key needed) sends
`{"type": "state", "version": N}` on connect and after every stored change; fetch the game again
when `N` is newer than the version you show; `{"type": "tables"}` when the solver tables the
game's Tipp waited for are built. Code 4404 closes it for an unknown game.
"""


def create_app(settings: Settings | None = None, *, bots: BotDriver | None = None) -> FastAPI:
    """The board as an ASGI app; the store opens (and migrates) in the lifespan."""
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        set_background_nice(settings.background_nice)  # for every worker thread and build
        if settings.tipp_work is not None:  # the process's bound (docs/cli.md)
            app.state.advice.bound_work(settings.tipp_work)
        app.state.chances.open()  # closed by an earlier lifespan of this app (tests)
        app.state.advice.open()
        driver = bots if bots is not None else BotSeats()
        if isinstance(driver, BotSeats):
            driver.use_tables(readiness.builds)
        board = app.state.board = await open_board(settings.db, driver)
        app.state.store = board.store
        app.state.hub = board.hub
        app.state.service = board.service
        # The services the routes call on (docs/architecture.md): no route keeps a cache.
        players = app.state.players = PlayerService(
            board.service,
            lambda variant: readiness.readiness(variant).ready,
            simulate=settings.background,
        )
        # Synced at start, on writes and in the background; a read never writes (issue 21).
        await run_in_threadpool(players.results.sync)
        advice = app.state.advice
        board.service.on_change.append(advice.after_change)  # the Tipp works ahead
        # An entry stops the narrowing of the chances it leaves behind, asked again or not.
        board.service.on_change.append(app.state.chances.after_change)
        reviews = app.state.reviews = ReviewService(
            players.results, advice.analysis, advice.kept_analysis
        )
        if settings.prebuild_tables:
            # In the background: the worker skips the tables already on disk.
            readiness.start_presets(finals=settings.exact_chances)
        if settings.tables_at_creation:
            # A new game's house rules are built while its board loads, counted against the
            # client that created it (docs/deploy.md, "Limits").
            board.service.on_created.append(lambda view: readiness.prepare(view, asking.get()))
        chores = None
        if settings.background:  # reviews and yardsticks (kniffel.board.background)
            chores = app.state.background = background.start(
                board.service, players, reviews, readiness.builds
            )
        if settings.gc_freeze:
            # What start-up made lives as long as the process: kept out of the collector's full
            # passes, which otherwise walked it all and held every request for 50-200 ms, the
            # live updates' p99 (docs/decisions.md, "The collector after start"). Without a
            # full collection first: it found no garbage here and cost the first answer about
            # 0.1 s of CPU (docs/benchmarks.md, "Start").
            gc.freeze()
            # And the young generation collected after 20,000 allocations, not 700: a request's
            # short-lived objects die before a collection moves them on, so the objects left to
            # the full passes grow slowly enough that none comes in a busy minute.
            _, middle, oldest = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
        try:
            yield
        finally:
            if chores is not None:
                await run_in_threadpool(chores.close)
            await run_in_threadpool(readiness.builds.close)
            await run_in_threadpool(app.state.chances.close)
            await run_in_threadpool(reviews.close)
            await run_in_threadpool(app.state.advice.close)
            if isinstance(driver, BotSeats):
                await run_in_threadpool(driver.close)
            await board.close()

    app = FastAPI(
        title="Die Tafel",
        summary="A Kniffel score board: games, events, records and live updates.",
        description=_DESCRIPTION,
        version=kniffel.__version__,
        lifespan=lifespan,
        responses=COMMON_ERRORS,
    )
    app.state.settings = settings
    # What the routes draw, kept per app by what it shows (docs/architecture.md): two apps in
    # one process never answer with each other's.
    app.state.states = Kept(api.STATES_KEPT)
    app.state.boards = Kept(board_pages.BOARDS_KEPT)
    app.state.fragments = Kept(board_pages.FRAGMENTS_KEPT)
    app.state.charts = Kept(board_pages.CHARTS_KEPT)
    app.state.chances = ChancesService(
        chart_work=settings.chart_work, refine=settings.chances_refine
    )
    app.state.advice = AdviceService()
    readiness = TableReadiness.of(settings.table_queue, settings.table_builds_per_client)

    def tables_built(game_id: str) -> None:
        """A Tipp panel that waits for its game's tables hears when they are built (the
        live socket's ``tables``), from the hub of the lifespan that runs."""
        hub: Hub | None = getattr(app.state, "hub", None)
        if hub is not None:
            hub.tables(game_id)

    readiness.on_ready(tables_built)
    # The start page's templates compiled at an earlier start are read, not compiled again.
    keep_compiled(templates.env, settings.cache_folder / "templates")
    access_log.install()
    install_error_handlers(app)
    # Innermost: the state and preview of a kept version answered without the routing, after
    # every check of the middleware below (docs/benchmarks.md, "Load").
    app.add_middleware(HotReads)
    outage.install(app, settings.db)
    document_errors(app)
    tables.install(app, readiness)
    # The limit inside, the headers outside: a 413 carries the headers too.
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SameOriginForms, public_url=settings.public_url)
    # Outside the work: a request that waits for its turn has cost nothing yet (docs/decisions.md).
    app.state.turns = Turns(settings.max_active)
    app.add_middleware(ChangesFirst, turns=app.state.turns)
    # Before the turns: a body is in (or cut, 408) before its request takes one (issue 33).
    app.add_middleware(
        BodyDeadline,
        limit=settings.max_body,
        seconds=settings.body_timeout,
        min_rate=settings.body_min_rate,
    )
    # Outside everything: every answer carries the headers, the gate's and the deadline's too.
    app.add_middleware(SecurityHeaders)
    app.include_router(health.router)
    if settings.metrics:
        from kniffel.web.middleware.metrics import install_metrics

        install_metrics(app)
    # The start page first: FastAPI prepares each router's routes when a request first passes
    # them, so the start page's first answer does not wait for every API route's models
    # (docs/benchmarks.md, "Start"). Then the API: a request passes every route before its own
    # (twice in FastAPI 0.165: to find its router, then its route), and the games' API routes
    # are most of a table's requests (docs/benchmarks.md, "Load"). No path is two routers'.
    app.include_router(start.front)
    app.include_router(api.router, prefix="/api")
    app.include_router(live.router, prefix="/api")
    app.include_router(start.router)
    offline.install(app, STATIC)  # the service worker at /sw.js (docs/board.md)
    app.include_router(advice.router)
    app.include_router(advice_pages.router)
    app.include_router(review_routes.router)
    app.include_router(chances.router)
    app.include_router(chances_pages.router)
    app.include_router(player_routes.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
