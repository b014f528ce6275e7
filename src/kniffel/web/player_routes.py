"""Players across games: their pages, the leaderboard and their JSON.

- ``GET /spieler``: every player and the leaderboard per preset ("Bestenliste");
- ``GET /spieler/{name}``: one player's figures (name matched ignoring case and
  surrounding spaces) with charts ``…/verteilung.svg``, ``…/punkte.svg``,
  ``…/genauigkeit.svg``;
- ``POST /g/{id}/spieler``: a key holder counts a seat as another name;
- ``GET /api/players``, ``GET /api/players/{name}``,
  ``POST /api/games/{id}/players/{seat}/link``: the same as JSON.

All figures come from the summary rows of finished games
(:mod:`kniffel.store.results`, :mod:`kniffel.board.players.stats`).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from kniffel.board import limits
from kniffel.board.errors import BoardError, Forbidden, GameNotFound
from kniffel.board.players.exchange import games_csv, players_csv
from kniffel.board.players.stats import PlayerStats, PresetStats, leaderboard, player_stats
from kniffel.board.players.yardstick import Simulations, Yardstick, yardstick
from kniffel.locales.refusals import refusal_text
from kniffel.rules import get_variant
from kniffel.rules.variants import PRESETS
from kniffel.store.player_figures import bins
from kniffel.store.results import ResultStore, player_key
from kniffel.web import rendering
from kniffel.web.api import Key
from kniffel.web.errors import ErrorBody
from kniffel.web.player_charts import histogram_svg, lines_svg
from kniffel.web.review_words import ReviewWords

__all__ = ["leaderboard_context", "results_of", "results_on", "router"]

api = APIRouter(tags=["players"])
pages = APIRouter(include_in_schema=False)
router = APIRouter()

#: Leaderboard rows shown per preset on the start page.
LEADERS = 5


class NotLinkable(BoardError):
    """The seat is not a seat of a finished game."""

    status = 409


class PlayerNotFound(BoardError):
    status = 404

    def __init__(self, name: str) -> None:
        super().__init__(f"there is no player {name!r} with a finished game")


def results_of(request: Request) -> ResultStore:
    """The summary rows of the app's store."""
    return results_on(request.app)


def results_on(app: Any) -> ResultStore:
    """The summary rows of ``app``'s store (made on first use)."""
    state = app.state
    found = getattr(state, "results", None)
    if found is None:
        found = state.results = ResultStore(state.store.engine)
    assert isinstance(found, ResultStore)
    return found


def player_href(name: str) -> str:
    return "/spieler/" + quote(player_key(name) or "-", safe="")


def _stats(results: ResultStore, name: str) -> PlayerStats:
    raw = results.figures(name)
    if raw is None:
        raise PlayerNotFound(name)
    return player_stats(raw)


def simulations_on(app: Any) -> Simulations | None:
    """The best bot's yardsticks being simulated in the background (``None`` when the
    background is off: then only the documented ones are shown)."""
    state = app.state
    if not state.settings.background:
        return None
    found = getattr(state, "yardsticks", None)
    if found is None:
        tables = state.tables

        def ready(variant: str, options: str) -> bool:
            return bool(tables.readiness(get_variant(variant, json.loads(options))).ready)

        found = state.yardsticks = Simulations(ready)
    assert isinstance(found, Simulations)
    return found


def _bot(request: Request, preset: PresetStats) -> tuple[Yardstick | None, dict[str, Any] | None]:
    """The preset's yardstick for its options, or where its simulation stands (asking for it)."""
    found = yardstick(preset.variant, preset.options)
    if found is not None:
        return found, None
    simulations = simulations_on(request.app)
    if simulations is None:
        return None, None
    simulations.want(preset.variant, preset.options)
    background = getattr(request.app.state, "background", None)
    if background is not None:
        background.wake()
    if not simulations.ready(preset.variant, preset.options):
        return None, {"status": "waiting_for_tables"}
    progress = simulations.progress(preset.variant, preset.options)
    return None, {"status": "computing", "progress": progress}


def _stats_json(request: Request, stats: PlayerStats) -> dict[str, Any]:
    data = stats.as_dict()
    for preset, shown in zip(stats.presets, data["presets"], strict=True):
        found, pending = _bot(request, preset)
        shown["bot"] = None if found is None else found.as_dict()
        shown["bot_pending"] = pending
    return data


# ------------------------------------------------------------------------ JSON


@api.get("/players", summary="Every player with a finished game, and the leaderboard per preset")
def players_json(request: Request) -> dict[str, Any]:
    results = results_of(request)
    return {"players": _player_list(results), "leaderboard": _board_json(results)}


@api.get(
    "/players/{name:path}",
    responses={
        404: {"model": ErrorBody, "description": "no finished game of that player"},
        422: {"model": ErrorBody, "description": "the request is malformed"},
    },
    summary="One player's figures across games (name without regard to case and spaces)",
)
def player_json(name: str, request: Request) -> dict[str, Any]:
    return _stats_json(request, _stats(results_of(request), name))


class LinkBody(BaseModel):
    name: Annotated[
        str | None,
        Field(max_length=200, description="the name to count the seat as; null: its own name"),
    ] = None


@api.post(
    "/games/{game_id}/players/{seat}/link",
    responses={
        400: {"model": ErrorBody, "description": "the body is not JSON"},
        403: {"model": ErrorBody, "description": "the key is missing or wrong"},
        404: {"model": ErrorBody, "description": "there is no such game"},
        409: {"model": ErrorBody, "description": "no such seat, or the game is not over"},
        422: {"model": ErrorBody, "description": "the request is malformed"},
    },
    summary="Count a seat of a finished game as another player (needs the game's key)",
)
def link_json(
    game_id: str,
    seat: Annotated[int, PathParam(ge=0, le=7, description="the seat, 0 for the first")],
    body: LinkBody,
    key: Key,
    request: Request,
) -> dict[str, Any]:
    return _link(request, game_id, seat, body.name, key)


def _link(
    request: Request, game_id: str, seat: int, name: str | None, key: str | None
) -> dict[str, Any]:
    view = rendering.service(request).get(game_id)
    if not key or not secrets.compare_digest(key.encode(), view.key.encode()):
        raise Forbidden("this needs the game's key")
    results = results_of(request)
    counted = results.counted_names(game_id)
    if seat not in counted:
        raise NotLinkable(f"seat {seat} of game {game_id} is not a seat of a finished game")
    # The rules of a new game's names, and no two seats of the game counted as one player.
    linked = limits.player_name(name) if name and name.strip() else None
    counted[seat] = linked or view.players[seat]
    limits.check_distinct([counted[s] for s in sorted(counted)])
    if not results.link(game_id, seat, linked):
        raise NotLinkable(f"seat {seat} of game {game_id} is not a seat of a finished game")
    shown = counted[seat]
    return {"game": game_id, "seat": seat, "name": shown, "player": player_key(shown)}


def _player_list(results: ResultStore) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "key": key,
            "games": games,
            "wins": wins,
            "win_rate": contested_wins / contested if contested else None,
            "bot": bot,
        }
        for key, name, games, wins, contested, contested_wins, bot in results.players()
    ]


def _board_json(results: ResultStore) -> dict[str, list[dict[str, Any]]]:
    return {v: [r.as_dict() for r in rows] for v, rows in leaderboard(results.leaders()).items()}


# ----------------------------------------------------------------------- pages


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    words = ReviewWords(rendering.translator(request))
    context = {**context, "_": words, "words": words, "lang": words.lang}
    response = rendering.templates.TemplateResponse(request, name, context, status_code=status)
    rendering.remember_language(request, response)
    return response


def _variant_label(words: ReviewWords, variant: str) -> str:
    preset = PRESETS.get(variant)
    return words.t(preset.label) if preset else variant


def leaderboard_context(request: Request) -> dict[str, Any]:
    """The start page's leaderboard: per preset the best means (bots left out)."""
    words = ReviewWords(rendering.translator(request))
    board = leaderboard(results_of(request).leaders())
    return {
        "title": words("Bestenliste"),
        "all_players": words("Alle Spieler"),
        "csv": words("Alle Spiele als CSV"),
        "players_csv": words("Alle Spieler als CSV"),
        "empty": words("Noch keine beendeten Spiele."),
        "head": [words("Spieler"), words("Spiele"), words("Schnitt"), words("Bestes")],
        "presets": [
            {
                "label": _variant_label(words, variant),
                "rows": [
                    {
                        "name": r.name,
                        "href": player_href(r.name),
                        "games": r.games,
                        "mean": words.decimal(r.mean),
                        "best": r.best,
                    }
                    for r in rows[:LEADERS]
                ],
            }
            for variant, rows in sorted(board.items(), key=lambda kv: -len(kv[1]))
        ],
    }


@pages.get("/spieler")
async def players_page(request: Request) -> Response:
    listed = await run_in_threadpool(_player_list, results_of(request))
    words = ReviewWords(rendering.translator(request))
    players = [
        {**p, "href": player_href(p["name"]), "win_rate": _rate(words, p["win_rate"])}
        for p in listed
    ]
    board = await run_in_threadpool(leaderboard_context, request)
    return _render(request, "players/index.html", {"players": players, "board": board})


def _rate(words: ReviewWords, value: float | None) -> str:
    return words.share(value)


@pages.get("/spieler/{name:path}/verteilung.svg")
async def histogram_chart(request: Request, name: str) -> Response:
    """The totals of one preset (``?variant=``, else the most played) with the mean and the
    best bot's mean; reads only that preset's totals."""
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        results = results_of(request)
        variant = request.query_params.get("variant", "")
        counts = results.totals(name, variant) if variant else {}
        if not counts:
            stats = _stats(results, name)
            variant = stats.presets[0].variant
            counts = results.totals(name, variant)
        mean = sum(t * n for t, n in counts.items()) / sum(counts.values())
        marks = [(words("Schnitt"), mean)]
        options = request.query_params.get("options")
        bot = yardstick(variant, options)
        if bot is not None:
            marks.append(
                (words("Der starke Bot: {mean} im Schnitt", mean=words.decimal(bot.mean)), bot.mean)
            )
        return histogram_svg(
            bins(counts),
            title=words("Punkteverteilung"),
            xlabel=words("Punkte"),
            ylabel=words("Anzahl"),
            marks=marks,
        )

    return await _svg(request, draw)


def _played(results: ResultStore, name: str) -> list[tuple[str, int, float | None]]:
    played = results.series(name)
    if not played:
        raise PlayerNotFound(name)
    return played


@pages.get("/spieler/{name:path}/punkte.svg")
async def totals_chart(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        played = _played(results_of(request), name)
        by_variant: dict[str, list[tuple[int, int]]] = {}
        for i, (variant, total, _) in enumerate(played, 1):
            by_variant.setdefault(variant, []).append((i, total))
        ordered = sorted(by_variant.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        series = [
            (_variant_label(words, v), [i for i, _ in games], [t for _, t in games])
            for v, games in ordered
        ]
        return lines_svg(
            series,
            title=words("Punkte über die Zeit"),
            xlabel=words("Spiel"),
            ylabel=words("Punkte"),
        )

    return await _svg(request, draw)


@pages.get("/spieler/{name:path}/genauigkeit.svg")
async def accuracy_chart(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        results = results_of(request)
        played = _played(results, name)
        points = [(i, a) for i, (_, _, a) in enumerate(played, 1) if a is not None]
        return lines_svg(
            [(results.shown_name(name) or name, [i for i, _ in points], [a for _, a in points])],
            title=words("Genauigkeit über die Zeit"),
            xlabel=words("Spiel"),
            ylabel=words("Genauigkeit") + " (%)",
            ylim=(0, 100),
        )

    return await _svg(request, draw)


async def _svg(request: Request, draw: Any) -> Response:
    try:
        svg = await run_in_threadpool(draw)
    except PlayerNotFound:
        return rendering.not_found(request)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@pages.get("/spieler/{name:path}")
async def player_page(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def read() -> tuple[PlayerStats, list[tuple[Yardstick | None, dict[str, Any] | None]]]:
        stats = _stats(results_of(request), name)
        return stats, [_bot(request, p) for p in stats.presets]

    try:
        stats, bots = await run_in_threadpool(read)
    except PlayerNotFound:
        message = words("Kein beendetes Spiel von {name}.", name=name)
        return rendering.render(request, "missing.html", {"message": message}, status=404)
    return _render(request, "players/player.html", _player_context(stats, words, bots))


#: How often a player page asks again for the bot's figures it is waiting for: often while they
#: are simulated, seldom while the tables they need wait for a key holder to ask for them.
_POLL_SECONDS = {"computing": 2, "waiting_for_tables": 15}


def _pending_words(words: ReviewWords, pending: dict[str, Any] | None) -> str | None:
    if pending is None:
        return None
    if pending["status"] == "computing":
        percent = round(100 * (pending.get("progress") or 0.0))
        return words(
            "Der starke Bot mit diesen Hausregeln wird berechnet … {percent} %", percent=percent
        )
    return words(
        "Der starke Bot mit diesen Hausregeln wird berechnet, sobald ihre Tabellen berechnet "
        "sind (Tipp oder Analyse eines Spiels mit diesen Regeln, mit dem Schlüssel)."
    )


def _player_context(
    stats: PlayerStats,
    words: ReviewWords,
    bots: list[tuple[Yardstick | None, dict[str, Any] | None]],
) -> dict[str, Any]:
    href = player_href(stats.name)
    presets = []
    for p, (bot, pending) in zip(stats.presets, bots, strict=True):
        presets.append(
            {
                "variant": p.variant,
                "label": _variant_label(words, p.variant),
                "games": p.games,
                "mean": words.decimal(p.mean),
                "best": p.best,
                "worst": p.worst,
                "trend": ("+" if p.trend >= 0 else "−") + words.decimal(abs(p.trend)),
                "recent_mean": words.decimal(p.recent_mean),
                "kniffel_rate": _rate(words, p.kniffel_rate),
                "bonus": [
                    (
                        words.t.column(PRESETS[p.variant].column(c)) if p.variant in PRESETS else c,
                        _rate(words, r),
                    )
                    for c, r in zip(p.columns, p.bonus_rate, strict=True)
                ],
                "histogram": f"{href}/verteilung.svg?"
                + urlencode({"variant": p.variant, "options": p.options, "lang": words.lang}),
                "bot": (
                    None
                    if bot is None
                    else words("Der starke Bot: {mean} im Schnitt", mean=words.decimal(bot.mean))
                    + f" (p5 {bot.p5}, p50 {bot.p50}, p95 {bot.p95})"
                ),
                "vs_bot": None
                if bot is None
                else ("+" if p.mean >= bot.mean else "−") + words.decimal(abs(p.mean - bot.mean)),
                "bot_rules": None
                if bot is None
                else words("mit den Standardregeln der Variante")
                if bot.source == "docs/bot.md"
                else words("mit diesen Hausregeln, {games} simulierte Spiele", games=bot.games),
                "bot_pending": _pending_words(words, pending),
                "bot_poll": _POLL_SECONDS.get(pending["status"]) if pending else None,
            }
        )
    return {
        "name": stats.name,
        "href": href,
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": _rate(words, stats.win_rate),
        "accuracy": words.accuracy(stats.accuracy),
        "loss_per_decision": (
            "–" if stats.loss_per_decision is None else words.decimal(stats.loss_per_decision)
        ),
        "reviewed": stats.reviewed,
        "presets": presets,
        "opponents": [
            {
                "name": o.name,
                "href": player_href(o.name),
                "games": o.games,
                "ahead": o.ahead,
                "behind": o.behind,
                "tied": o.tied,
                "rate": _rate(words, o.rate),
            }
            for o in stats.opponents
        ],
        "recent": [
            {
                "id": g.game_id,
                "variant": _variant_label(words, g.variant),
                "when": words.t.when(g.finished_at),
                "total": g.total,
                "place": g.place,
                "seats": g.seats,
                "accuracy": words.accuracy(g.accuracy),
            }
            for g in stats.latest
        ],
        "lang": words.lang,
    }


@pages.get("/export/spiele.csv")
async def games_csv_download(request: Request) -> Response:
    """Every seat of every finished game as CSV (the columns of ``kniffel export --csv``)."""
    rows = await run_in_threadpool(lambda: results_of(request).rows())
    return _csv(games_csv(rows), "kniffel-spiele.csv")


#: How long the players' CSV is handed out again while this process changed no summary row
#: (seconds): another process's link or review shows after at most this long, a game change
#: at the next download (docs/benchmarks.md, "Cost per request").
CSV_FRESH = 60.0


def _players_csv_kept(request: Request) -> str:
    """The players' CSV, made again only when the summary rows changed (or after
    :data:`CSV_FRESH`): made anew it costs about 0.1 ms a player."""
    results = results_of(request)
    results.sync()
    generation, now = results.generation, time.monotonic()
    kept: tuple[int, float, str] | None = getattr(request.app.state, "players_csv", None)
    if kept is not None and kept[0] == generation and now - kept[1] < CSV_FRESH:
        return kept[2]
    text = players_csv(results)
    request.app.state.players_csv = (generation, now, text)
    return text


@pages.get("/export/spieler.csv")
async def players_csv_download(request: Request) -> Response:
    """Every player's figures per preset as CSV."""
    text = await run_in_threadpool(_players_csv_kept, request)
    return _csv(text, "kniffel-spieler.csv")


def _csv(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@pages.post("/g/{game_id}/spieler")
async def link_page(request: Request, game_id: str) -> Response:
    """The review page's form: count a seat as another name (needs the key on this device)."""
    form = await rendering.text_form(request)
    try:
        view = await run_in_threadpool(rendering.service(request).get, game_id)
    except GameNotFound:
        return rendering.not_found(request)
    seat_text = str(form.get("seat", ""))
    name = str(form.get("name", ""))
    words = ReviewWords(rendering.translator(request))
    # ASCII digits only: "²" is a digit to str.isdigit() but no number to int().
    seat_ok = seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 2
    if not seat_ok or int(seat_text) >= len(view.players) or len(name) > 200:
        return Response(words("Diesen Platz gibt es nicht."), status_code=422)
    try:
        await run_in_threadpool(
            _link, request, game_id, int(seat_text), name, rendering.device_key(request, view)
        )
    except limits.LimitError as refusal:
        return Response(refusal_text(refusal, rendering.translator(request)), status_code=400)
    except Forbidden:
        return Response(words("Dafür braucht es den Schlüssel des Spiels."), status_code=403)
    except NotLinkable:
        return Response(words("Erst ein beendetes Spiel zählt für die Spieler."), status_code=409)
    return RedirectResponse(f"/g/{game_id}/analyse", status_code=303)


router.include_router(api, prefix="/api")
router.include_router(pages)
