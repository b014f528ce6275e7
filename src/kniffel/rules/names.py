"""Who a player's name means across games (docs/board.md, "Players").

A rule of the board's players, not of the store: the board checks a game's names with it
before anything is stored (``kniffel.board.limits``), and the store keys a player's results by
it. It lives here, below both, so that checking names imports no database code.
"""

from __future__ import annotations

import unicodedata

__all__ = ["player_key"]


def player_key(name: str) -> str:
    """Who a name means across games: case, surrounding spaces and compatibility forms
    ignored (NFKC and case folding, the usual identity of names).

    >>> player_key("  Anna ") == player_key("ANNA")
    True
    >>> player_key("Ｅｖａ") == player_key("eva")
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded).strip()
