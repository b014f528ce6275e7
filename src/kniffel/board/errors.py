"""The board's own errors (not the rules'): each carries the HTTP status it answers with.

The web layer (:mod:`kniffel.web.errors`) turns them, and the rules' errors, into 4xx answers.
"""

from __future__ import annotations

__all__ = ["BoardError", "Conflict", "Forbidden", "GameNotFound"]


class BoardError(ValueError):
    """An error of the board (not of the rules); ``status`` is its HTTP status."""

    status = 400


class GameNotFound(BoardError):
    status = 404

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game {game_id!r}")


class Forbidden(BoardError):
    """A change without the game's key, or with a wrong one."""

    status = 403


class Conflict(BoardError):
    """The game changed since the caller's version; nothing was stored."""

    status = 409
