"""A player's charts as SVG: ``/spieler/{name}/verteilung.svg`` (the totals of one preset),
``…/punkte.svg`` (totals over time) and ``…/genauigkeit.svg`` (accuracy over time).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from kniffel.board.players.service import PlayerNotFound
from kniffel.board.players.yardstick import yardstick
from kniffel.charts.draw import Bar, Labels, Line, Mark, histogram_svg, lines_svg
from kniffel.web import rendering
from kniffel.web.pages.players import players_of, variant_label
from kniffel.web.present.review_words import ReviewWords

__all__ = ["charts"]

charts = APIRouter(include_in_schema=False)


@charts.get("/spieler/{name:path}/verteilung.svg")
async def histogram_chart(request: Request, name: str) -> Response:
    """The totals of one preset (``?variant=``, else the most played) with the mean and the
    best bot's mean; reads only that preset's totals."""
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        asked = request.query_params.get("variant", "")
        variant, binned, mean = players_of(request).histogram(name, asked)
        marks = [Mark(words("Schnitt"), mean)]
        options = request.query_params.get("options")
        bot = yardstick(variant, options)
        if bot is not None:
            said = words("Der starke Bot: {mean} im Schnitt", mean=words.decimal(bot.mean))
            marks.append(Mark(said, bot.mean))
        return histogram_svg(
            [Bar(*bar) for bar in binned],
            Labels(words("Punkteverteilung"), words("Punkte"), words("Anzahl")),
            words.t,
            marks=marks,
        )

    return await _svg(request, draw)


@charts.get("/spieler/{name:path}/punkte.svg")
async def totals_chart(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        played = players_of(request).played(name)
        by_variant: dict[str, list[tuple[int, int]]] = {}
        for i, (variant, total, _) in enumerate(played, 1):
            by_variant.setdefault(variant, []).append((i, total))
        ordered = sorted(by_variant.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        series = [
            Line(variant_label(words, v), tuple(i for i, _ in games), tuple(t for _, t in games))
            for v, games in ordered
        ]
        labels = Labels(words("Punkte über die Zeit"), words("Spiel"), words("Punkte"))
        return lines_svg(series, labels, words.t)

    return await _svg(request, draw)


@charts.get("/spieler/{name:path}/genauigkeit.svg")
async def accuracy_chart(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        players = players_of(request)
        played = players.played(name)
        points = [(i, a) for i, (_, _, a) in enumerate(played, 1) if a is not None]
        shown = players.shown_name(name)
        line = Line(shown, tuple(i for i, _ in points), tuple(a for _, a in points))
        labels = Labels(
            words("Genauigkeit über die Zeit"), words("Spiel"), words("Genauigkeit") + " (%)"
        )
        return lines_svg([line], labels, words.t, ylim=(0, 100))

    return await _svg(request, draw)


async def _svg(request: Request, draw: Any) -> Response:
    try:
        svg = await run_in_threadpool(draw)
    except PlayerNotFound:
        return rendering.not_found(request)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
