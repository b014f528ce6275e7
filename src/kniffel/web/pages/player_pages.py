"""The players' pages: ``GET /spieler`` (every player and the leaderboard per preset,
"Bestenliste"), ``GET /spieler/{name}`` (one player's figures, the name matched ignoring case
and surrounding spaces), the start page's leaderboard, and the review page's form post
``POST /g/{id}/spieler`` (a key holder counts a seat as another name).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from kniffel.board import limits
from kniffel.board.errors import Forbidden
from kniffel.board.evening import Evening
from kniffel.board.players.service import NotLinkable, PlayerNotFound
from kniffel.board.players.stats import PlayerStats
from kniffel.board.players.yardstick import Yardstick
from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules.variants import PRESETS
from kniffel.web import rendering
from kniffel.web.pages.players import player_href, players_of, variant_label
from kniffel.web.present.review_words import ReviewWords

__all__ = ["leaderboard_context", "pages"]

pages = APIRouter(include_in_schema=False)

#: Leaderboard rows shown per preset on the start page.
LEADERS = 5


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    words = ReviewWords(rendering.translator(request))
    context = {**context, "_": words, "words": words, "lang": words.lang}
    response = rendering.templates.TemplateResponse(request, name, context, status_code=status)
    rendering.remember_language(request, response)
    return response


def leaderboard_context(request: Request) -> dict[str, Any]:
    """The start page's leaderboard: per preset (the one with most players first) the best
    means (bots left out)."""
    words = ReviewWords(rendering.translator(request))
    board = players_of(request).leaderboard(0, LEADERS)
    return {
        "title": words("Bestenliste"),
        "all_players": words("Alle Spieler"),
        "csv": words("Alle Spiele als CSV"),
        "players_csv": words("Alle Spieler als CSV"),
        "empty": words("Noch keine beendeten Spiele."),
        "head": [words("Spieler"), words("Spiele"), words("Schnitt"), words("Bestes")],
        "presets": [
            {
                "label": variant_label(words, variant),
                "rows": [
                    {
                        "name": r.name,
                        "href": player_href(r.name),
                        "games": r.games,
                        "mean": words.decimal(r.mean),
                        "best": r.best,
                    }
                    for r in rows
                ],
            }
            for variant, rows in board.items()
        ],
    }


#: Players shown on one page of ``/spieler`` (the list goes on over ``?seite=2``, …) and of
#: ``GET /api/players`` (``?page=2``, …): the page costs the same with 100 players or 10,000
#: (docs/benchmarks.md, "Keyless reads cold after a change").
PAGE = 100


@pages.get("/spieler")
async def players_page(request: Request) -> Response:
    players_service = players_of(request)
    count = await run_in_threadpool(players_service.player_count)
    pages_in_all = max(1, -(-count // PAGE))
    asked = request.query_params.get("seite", "1")
    if not asked.isascii() or not asked.isdigit() or not 1 <= int(asked) <= pages_in_all:
        # A page that is not there (a word, 0, past the last) is a page not found, in words.
        message = rendering.translator(request)(
            "Seite {page} der Spielerliste gibt es nicht (Seiten 1 bis {pages}).",
            page=asked[:20],
            pages=pages_in_all,
        )
        return rendering.render(request, "missing.html", {"message": message}, status=404)
    page = int(asked)
    words = ReviewWords(rendering.translator(request))
    listed = await run_in_threadpool(players_service.listed, (page - 1) * PAGE, page * PAGE)
    players = [
        {**p, "href": player_href(p["name"]), "win_rate": _rate(words, p["win_rate"])}
        for p in listed
    ]
    board = await run_in_threadpool(leaderboard_context, request)
    number = words.t.number
    pager = {
        "previous": page - 1 if page > 1 else None,
        "next": page + 1 if page < pages_in_all else None,
        "shown": words(
            "Spieler {first} bis {last} von {count}",
            first=number((page - 1) * PAGE + 1),
            last=number((page - 1) * PAGE + len(players)),
            count=number(count),
        ),
    }
    context = {"players": players, "board": board, "pager": pager}
    return _render(request, "players/index.html", context)


def _rate(words: ReviewWords, value: float | None) -> str:
    return words.share(value)


@pages.get("/spieler/{name:path}")
async def player_page(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def read() -> tuple[
        PlayerStats, list[tuple[Yardstick | None, dict[str, Any] | None]], list[Evening]
    ]:
        players = players_of(request)
        stats = players.stats(name)
        bots = [players.bot(p.variant, p.options) for p in stats.presets]
        return stats, bots, rendering.service(request).evenings_of(stats.name)

    try:
        stats, bots, evenings = await run_in_threadpool(read)
    except PlayerNotFound:
        message = words("Kein beendetes Spiel von {name}.", name=name)
        return rendering.render(request, "missing.html", {"message": message}, status=404)
    context = {**_player_context(stats, words, bots), "evenings": evenings}
    return _render(request, "players/player.html", context)


#: How often a player page asks again for the bot's figures it is waiting for: often while they
#: are simulated, seldom while the tables they need wait for a key holder to ask for them.
_POLL_SECONDS = {"computing": 2, "waiting_for_tables": 15}


def _pending_words(words: ReviewWords, pending: dict[str, Any] | None) -> str | None:
    if pending is None:
        return None
    if pending["status"] == "computing":
        share = pending.get("progress") or 0.0
        return words(
            "Der starke Bot mit diesen Hausregeln wird berechnet … {percent}",
            percent=words.percent(share),
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
                "label": variant_label(words, p.variant),
                "games": p.games,
                "mean": words.decimal(p.mean),
                "best": p.best,
                "worst": p.worst,
                "trend": ("+" if p.trend >= 0 else "−") + words.decimal(abs(p.trend)),
                "recent_mean": words.decimal(p.recent_mean),
                "kniffel_rate": _rate(words, p.kniffel_rate),
                # Five of a kind in the preset's word: Jamb's "Jamb", Yams's "Yams" (issue 32).
                "kniffel_label": Translator(words.t.lang, p.variant)("Kniffel-Quote"),
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
                "variant": variant_label(words, g.variant),
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


@pages.post("/g/{game_id}/spieler")
async def link_page(request: Request, game_id: str) -> Response:
    """The review page's form: count a seat as another name (needs the key on this device)."""
    form = await rendering.text_form(request)
    view = await run_in_threadpool(rendering.service(request).get, game_id)
    seat_text = str(form.get("seat", ""))
    name = str(form.get("name", ""))
    words = ReviewWords(rendering.translator(request))
    # ASCII digits only: "²" is a digit to str.isdigit() but no number to int().
    seat_ok = seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 2
    if not seat_ok or int(seat_text) >= len(view.players) or len(name) > 200:
        return Response(words("Diesen Platz gibt es nicht."), status_code=422)
    try:
        await run_in_threadpool(
            players_of(request).link,
            game_id,
            int(seat_text),
            name,
            rendering.device_key(request, view),
        )
    except limits.LimitError as refusal:
        return Response(refusal_text(refusal, rendering.translator(request)), status_code=400)
    except Forbidden:
        return Response(words("Dafür braucht es den Schlüssel des Spiels."), status_code=403)
    except NotLinkable:
        return Response(words("Erst ein beendetes Spiel zählt für die Spieler."), status_code=409)
    return RedirectResponse(f"/g/{game_id}/analyse", status_code=303)
