"""Players across games: their pages, the leaderboard and their JSON.

- ``GET /spieler``: every player and the leaderboard per preset ("Bestenliste");
- ``GET /spieler/{name}``: one player's figures (name matched ignoring case and
  surrounding spaces) with charts ``…/verteilung.svg``, ``…/punkte.svg``,
  ``…/genauigkeit.svg``;
- ``POST /g/{id}/spieler``: a key holder counts a seat as another name;
- ``GET /api/players``, ``GET /api/players/{name}``,
  ``POST /api/games/{id}/players/{seat}/link``: the same as JSON.

All figures come from the summary rows of finished games
through the app's :class:`~kniffel.board.players.service.PlayerService`.
"""

from __future__ import annotations

from fastapi import APIRouter

from kniffel.web.api.player_api import api
from kniffel.web.pages.exports import exports
from kniffel.web.pages.player_pages import leaderboard_context, pages
from kniffel.web.pages.player_svg import charts
from kniffel.web.pages.players import player_href, players_of

__all__ = ["leaderboard_context", "player_href", "players_of", "router"]

router = APIRouter()
router.include_router(api, prefix="/api")
# The charts before the player page: its ``{name:path}`` would take ``…/punkte.svg`` too.
router.include_router(charts)
router.include_router(pages)
router.include_router(exports)
