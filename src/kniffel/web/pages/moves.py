"""The board's form posts as game-record events.

Each function reads its form into a record event (a JSON object, docs/record-format.md) and
nothing more: the service reads it as the record reader reads any event
(:func:`~kniffel.record.event_from_json`) and the engine checks it, once, when it is applied
(:meth:`~kniffel.board.service.GameService.apply`); the board shows a refusal in the reader's
language (:func:`~kniffel.locales.refusals.refusal_text`) and words none itself.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from kniffel.board.service import GameView
from kniffel.board.sheet_view import asks_roll
from kniffel.locales import Translator
from kniffel.web.pages import forms

__all__ = ["announce_event", "clear_event", "edit_event", "entry_event"]


def entry_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """The ``enter`` event of the player to move, with the typed dice or points if any."""
    game = view.game
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    dice = forms.dice_field(form, t)
    points = forms.points_field(form, t)
    player = game.current_player()
    # Once the game is over, the engine refuses any entry ("game_finished").
    mover = game.players[0 if player is None else player]
    event: dict[str, Any] = {"type": "enter", "player": mover, "cell": name}
    if dice is not None:
        event["dice"] = list(dice.faces)
    if points is not None:
        event["points"] = points
    if (dice is not None or points is not None) and asks_roll(game):
        # Real dice: the player says which roll made them (docs/board.md, "Jamb und Yams").
        roll = forms.number_field(form, t, "rolls")
        if roll is not None:
            event["roll"] = roll
    return event


def announce_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """The player to move announces a row of the announce column (Najava, annoncée)."""
    game = view.game
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    player = game.current_player()
    mover = game.players[0 if player is None else player]
    return {"type": "announce", "player": mover, "cell": name}


def edit_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """A correction of a filled cell's points in place."""
    player, cell = _owned_cell(form, view, t)
    points = forms.points_field(form, t)
    if points is None:
        raise forms.FormError(t("Punkte als ganze Zahl eingeben."))
    return {"type": "edit", "player": player, "cell": cell, "points": points}


def clear_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """Empties a filled cell (in an arrow column it becomes due again)."""
    player, cell = _owned_cell(form, view, t)
    return {"type": "clear", "player": player, "cell": cell}


def _owned_cell(form: FormData, view: GameView, t: Translator) -> tuple[str, str]:
    # Names are matched as stored: a record may hold names with spaces around them.
    player = form.get("player")
    if not isinstance(player, str) or player not in view.game.players:
        raise forms.FormError(t("Unbekannter Spieler."))
    return player, forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
