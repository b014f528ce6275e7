"""The board's own errors (not the rules'): each carries the HTTP status it answers with.

Like the engine's errors each carries a stable ``code`` and its ``params``, from which the pages
say the refusal in the reader's language (:mod:`kniffel.locales.refusals`). The web layer
(:mod:`kniffel.web.middleware.errors`) turns them, and the rules' errors, into 4xx answers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BoardError", "Conflict", "Forbidden", "GameNotFound", "GameUnreadable"]


class BoardError(ValueError):
    """An error of the board (not of the rules); ``status`` is its HTTP status."""

    status = 400
    default_code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = params


class GameNotFound(BoardError):
    status = 404
    default_code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game {game_id!r}", game=game_id)


class GameUnreadable(BoardError):
    """A stored game this release cannot read: its variant, an option or an event is of a newer
    release (during a rolling restart, docs/deploy.md §7). Nothing is wrong with the request,
    and the game stays stored as it is for the release that wrote it."""

    status = 409
    default_code = "game_unreadable"

    def __init__(self, game_id: str, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(
            f"this version of the board cannot read game {game_id!r} ({reason}); "
            "a newer version stored it",
            game=game_id,
        )


class Forbidden(BoardError):
    """A change without the game's key, or with a wrong one."""

    status = 403
    default_code = "key_missing"


class Conflict(BoardError):
    """The game changed since the caller's version; nothing was stored."""

    status = 409
    default_code = "version_conflict"
