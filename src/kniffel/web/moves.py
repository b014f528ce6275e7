"""The board's form posts as game-record events, refused early with a message for the player.

The service and the engine check every event again; the checks here only
say in the player's language what the most common refusals mean (a locked
cell, impossible points), before anything is sent.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from kniffel.board.service import GameView
from kniffel.locales import Translator
from kniffel.rules import Discipline, IllegalMoveError, Row, point_ranges, possible_points
from kniffel.web import forms

__all__ = ["Refused", "clear_event", "edit_event", "entry_event"]


class Refused(IllegalMoveError):
    """A move the rules refuse, said already in the player's language."""


def entry_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """The ``enter`` event of the player to move, with the typed dice or points if any."""
    game = view.game
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    dice = forms.dice_field(form, t)
    points = forms.points_field(form, t)
    if dice is not None and points is not None:
        raise forms.FormError(t("Würfel oder Punkte, nicht beides."))
    player = game.current_player()
    if player is None:
        raise Refused(t("Das Spiel ist beendet; Korrekturen gehen weiter."))
    cell = game.cell(name)
    if game.points(player, cell) is None and cell not in game.allowed_cells(player):
        spec = game.variant.column(cell.column)
        due = game.due_row(player, cell.column)
        if spec.discipline is not Discipline.FREE and due is not None:
            raise Refused(
                t("Gesperrt: In {column} ist {row} dran.", column=t.column(spec), row=t.row(due))
            )
    if points is not None:
        _check_points(view, cell.row, points, t)
    event: dict[str, Any] = {"type": "enter", "player": game.players[player], "cell": str(cell)}
    if dice is not None:
        event["dice"] = list(dice.faces)
    if points is not None:
        event["points"] = points
    return event


def edit_event(form: FormData, view: GameView, t: Translator) -> dict[str, Any]:
    """A correction of a filled cell's points in place."""
    player, cell = _owned_cell(form, view, t)
    points = forms.points_field(form, t)
    if points is None:
        raise forms.FormError(t("Punkte als ganze Zahl eingeben."))
    _check_points(view, view.game.cell(cell).row, points, t)
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
    name = forms.required_text(form, "cell", t("Bitte ein Feld wählen."))
    return player, str(view.game.cell(name))


def _check_points(view: GameView, row: Row, points: int, t: Translator) -> None:
    allowed = possible_points(row, view.game.options)
    if points not in allowed:
        raise Refused(
            t("{n} Punkte sind hier nicht möglich", n=points)
            + "; "
            + t("möglich sind: {values}", values=point_ranges(allowed, dash="–"))
        )
