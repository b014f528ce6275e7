"""The board's form posts as game-record events, refused early by the engine itself.

The engine says before acting why an event would be refused
(:meth:`~kniffel.rules.Game.check`); the board shows that refusal in the
reader's language (:func:`~kniffel.locales.refusals.refusal_text`) and words
none itself. The service and the engine check every event again when it is
applied.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from kniffel.board.service import GameView, check_virtual
from kniffel.board.sheet_view import asks_roll
from kniffel.locales import Translator
from kniffel.record import event_from_json
from kniffel.web.pages import forms

__all__ = ["announce_event", "check", "clear_event", "edit_event", "entry_event"]


def check(view: GameView, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` if the engine would accept it now; else raises the engine's refusal."""
    game = view.game
    parsed = event_from_json(event, game)
    if view.dice_mode == "virtual":
        check_virtual(game, parsed)  # the board's rules for virtual dice come first
    refusal = game.check(parsed)
    if refusal is not None:
        raise refusal
    return event


def entry_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """The ``enter`` event of the player to move, with the typed dice or points if any."""
    game = view.game
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    dice = forms.dice_field(form, t)
    points = forms.points_field(form, t)
    player = game.current_player()
    # Once the game is over, the engine refuses any entry ("game_finished").
    mover = game.players[0 if player is None else player]
    event: dict[str, Any] = {"type": "enter", "player": mover, "cell": str(game.cell(name))}
    if dice is not None:
        event["dice"] = list(dice.faces)
    if points is not None:
        event["points"] = points
    if (dice is not None or points is not None) and asks_roll(game):
        # Real dice: the player says which roll made them (docs/board.md, "Jamb und Yams").
        roll = forms.number_field(form, t, "rolls")
        if roll is not None:
            event["roll"] = roll
    return check(view, event)


def announce_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """The player to move announces a row of the announce column (Najava, annoncée)."""
    game = view.game
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    player = game.current_player()
    mover = game.players[0 if player is None else player]
    return check(view, {"type": "announce", "player": mover, "cell": str(game.cell(name))})


def edit_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """A correction of a filled cell's points in place."""
    player, cell = _owned_cell(form, view, t)
    points = forms.points_field(form, t)
    if points is None:
        raise forms.FormError(t("Punkte als ganze Zahl eingeben."))
    return check(view, {"type": "edit", "player": player, "cell": cell, "points": points})


def clear_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """Empties a filled cell (in an arrow column it becomes due again)."""
    player, cell = _owned_cell(form, view, t)
    return check(view, {"type": "clear", "player": player, "cell": cell})


def _owned_cell(form: FormData, view: GameView, t: Translator) -> tuple[str, str]:
    # Names are matched as stored: a record may hold names with spaces around them.
    player = form.get("player")
    if not isinstance(player, str) or player not in view.game.players:
        raise forms.FormError(t("Unbekannter Spieler."))
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    return player, str(view.game.cell(name))
