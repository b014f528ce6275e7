"""The players' pages' common ground: the app's players service and a player's address."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import Request

from kniffel.board.players.service import PlayerService, player_key
from kniffel.rules.variants import PRESETS
from kniffel.web.present.review_words import ReviewWords

__all__ = ["player_href", "players_of", "variant_label"]


def players_of(request: Request) -> PlayerService:
    """The app's players (:class:`kniffel.board.players.service.PlayerService`)."""
    found: PlayerService = request.app.state.players
    return found


def player_href(name: str) -> str:
    return "/spieler/" + quote(player_key(name) or "-", safe="")


def variant_label(words: ReviewWords, variant: str) -> str:
    preset = PRESETS.get(variant)
    return words.t(preset.label) if preset else variant
