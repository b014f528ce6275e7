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
from kniffel.web import rendering
from kniffel.web.pages.players import players_of, variant_label
from kniffel.web.present.player_charts import histogram_svg, lines_svg
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
        marks = [(words("Schnitt"), mean)]
        options = request.query_params.get("options")
        bot = yardstick(variant, options)
        if bot is not None:
            marks.append(
                (words("Der starke Bot: {mean} im Schnitt", mean=words.decimal(bot.mean)), bot.mean)
            )
        return histogram_svg(
            binned,
            title=words("Punkteverteilung"),
            xlabel=words("Punkte"),
            ylabel=words("Anzahl"),
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
            (variant_label(words, v), [i for i, _ in games], [t for _, t in games])
            for v, games in ordered
        ]
        return lines_svg(
            series,
            title=words("Punkte über die Zeit"),
            xlabel=words("Spiel"),
            ylabel=words("Punkte"),
        )

    return await _svg(request, draw)


@charts.get("/spieler/{name:path}/genauigkeit.svg")
async def accuracy_chart(request: Request, name: str) -> Response:
    words = ReviewWords(rendering.translator(request))

    def draw() -> str:
        players = players_of(request)
        played = players.played(name)
        points = [(i, a) for i, (_, _, a) in enumerate(played, 1) if a is not None]
        return lines_svg(
            [(players.shown_name(name), [i for i, _ in points], [a for _, a in points])],
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
