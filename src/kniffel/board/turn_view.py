"""The turn as the board tells it: who is to move, the rolls, what undo takes back, and a
further Kniffel explained.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kniffel.locales import N_, Translator
from kniffel.locales.refusals import refusal_text
from kniffel.offline import extra_kniffel, undo_note
from kniffel.rules import (
    MAX_ROLLS,
    Dice,
    Game,
    IllegalMoveError,
    Roll,
    Undo,
    most_points,
)

__all__ = [
    "EXTRA_KNIFFEL",
    "UNDONE",
    "TurnView",
    "UndoView",
    "roll_hint",
    "rolls_note",
    "turn_view",
    "undo_view",
]


@dataclass(frozen=True, slots=True)
class TurnView:
    player: str
    rolls: int
    rolls_left: int
    dice: tuple[int, ...]  #: the pending roll (virtual dice), else empty
    note: str  #: rolls as words ("Wurf 2 von 3", or the physical-dice hint)
    hint: str  #: the line under virtual dice: what to tap next (:func:`roll_hint`)
    extra_kniffel: tuple[str, ...]  #: the extra-Kniffel explanation for the given dice
    points_max: int  #: the most points a row holds (the points field's bound)
    roll_numbers: tuple[int, ...] = tuple(range(1, MAX_ROLLS + 1))  #: the roll buttons: 1 … last


@dataclass(frozen=True, slots=True)
class UndoView:
    possible: bool
    note: str


def turn_view(game: Game, t: Translator, p: int, dice_mode: str, dice: Dice | None) -> TurnView:
    """The turn of seat ``p``; ``dice`` are the typed or rolled dice to explain."""
    pending = game.pending(p)
    rolls = 0 if pending is None else pending[1]
    return TurnView(
        player=game.players[p],
        rolls=rolls,
        rolls_left=MAX_ROLLS - rolls,
        dice=() if pending is None else pending[0].faces,
        note=rolls_note(t, dice_mode, rolls),
        hint=roll_hint(t, rolls),
        extra_kniffel=_extra_kniffel(game, t, p, dice),
        points_max=most_points(game.variant.options),
    )


def rolls_note(t: Translator, dice_mode: str, rolls: int) -> str:
    """The rolls of a turn in words (``Wurf 2 von 3 · noch 1 Wurf``); with real dice the
    physical-dice hint. The page drawing the sheet itself offline takes these words for every
    number of rolls (kniffel.web.present.offline_words)."""
    if dice_mode != "virtual":
        return t("echte Würfel, bis zu {m} Würfe", m=MAX_ROLLS)
    left = MAX_ROLLS - rolls
    if rolls == 0:
        return t.ngettext("noch {n} Wurf", "noch {n} Würfe", left)
    if left == 0:
        return t("Wurf {n} von {m}", n=rolls, m=MAX_ROLLS) + " · " + t("keine Würfe mehr")
    left_words = t.ngettext("noch {n} Wurf", "noch {n} Würfe", left)
    return t("Wurf {n} von {m}", n=rolls, m=MAX_ROLLS) + " · " + left_words


def roll_hint(t: Translator, rolls: int) -> str:
    """The line under virtual dice after ``rolls`` rolls: none before the first, "tap to hold"
    while rolls are left, then "tap a cell"."""
    if rolls == 0:
        return ""
    if rolls < MAX_ROLLS:
        return t("Zum Halten antippen.")
    return t("Dann ein Feld antippen: Es zeigt, was der Wurf dort zählt.")


#: The lines above the dice field when the dice are a further Kniffel (:func:`kniffel.offline.
#: extra_kniffel` decides which): the first line, the bonus's, and the joker's by its case. The
#: page drawing the sheet itself offline takes the same messages (web/present/offline_words).
EXTRA_KNIFFEL: dict[str, str] = {
    "title": N_("Weiterer Kniffel!"),
    "bonus": N_("+{n} Kniffel-Bonus in der Spalte, in die du ihn einträgst."),
    "no_bonus": N_("Kein Kniffel-Bonus: Kein Kniffel-Feld hat 50 Punkte."),
    "free": N_("Joker: Jedes erlaubte Feld; Full House, Kleine und Große Straße zählen voll."),
    "matching": N_("Joker (Pflicht): Der Kniffel muss in {cells}."),
    "lower": N_(
        "Joker (Pflicht): Das passende Feld oben ist nicht offen, also unten mit vollen Punkten."
    ),
    "upper": N_("Joker (Pflicht): Unten ist nichts offen; oben zählt er 0."),
    "none": N_("Kein Joker: Der Wurf zählt überall normal."),
}


def _extra_kniffel(game: Game, t: Translator, p: int, dice: Dice | None) -> tuple[str, ...]:
    """The short explanation of docs/rules.md §5 when ``dice`` are a further Kniffel, worded
    from :func:`kniffel.offline.extra_kniffel`."""
    note = extra_kniffel(game, p, dice)
    if note is None:
        return ()
    lines = [t(EXTRA_KNIFFEL["title"])]
    if note["bonus"] is not None:
        bonus = note["bonus"]
        lines.append(t(EXTRA_KNIFFEL["bonus"], n=bonus) if bonus else t(EXTRA_KNIFFEL["no_bonus"]))
    if note["joker"] == "matching":
        names = " / ".join(t.cell(game.variant, game.cell(c)) for c in note["cells"])
        lines.append(t(EXTRA_KNIFFEL["matching"], cells=names))
    else:
        lines.append(t(EXTRA_KNIFFEL[note["joker"]]))
    return tuple(lines)


#: What an undo takes back, by kind of event (:func:`kniffel.offline.undo_note`), and who moves
#: after it: the catalogues' messages the undo note is made of.
UNDONE: dict[str, str] = {
    "roll": N_("Wurf von {name} ({dice})"),
    "announce": N_("Ansage von {name}: {cell}"),
    "enter": N_("Eintrag von {name}: {cell}"),
    "edit": N_("Korrektur von {name}: {cell}"),
    "clear": N_("Leeren bei {name}: {cell}"),
    "note": N_("Macht rückgängig: {what}."),
    "stays": N_("Danach bleibt {name} dran."),
    "again": N_("Danach ist {name} wieder dran."),
}


def undo_view(game: Game, t: Translator, dice_mode: str) -> UndoView:
    """Whether undo is offered, and what it would take back."""
    refusal = game.check(Undo())
    if refusal is not None:
        return UndoView(False, refusal_text(refusal, t))
    last = game.last_event
    assert last is not None  # the engine would undo it
    if dice_mode == "virtual" and isinstance(last, Roll):
        # The board's rule for virtual dice (the service refuses such an undo alike).
        stands = IllegalMoveError("a roll of virtual dice stands", code="roll_stands")
        return UndoView(False, refusal_text(stands, t))
    taken = undo_note(game)
    assert taken is not None
    return UndoView(True, _undo_words(game, t, taken))


def _undo_words(game: Game, t: Translator, taken: dict[str, Any]) -> str:
    if taken["kind"] == "roll":
        what = t(UNDONE["roll"], name=taken["player"], dice=" ".join(map(str, taken["dice"])))
    else:
        where = t.cell(game.variant, game.cell(taken["cell"]))
        if taken["points"] is not None:
            where = f"{where} ({t.number(taken['points'])})"
        what = t(UNDONE[taken["kind"]], name=taken["player"], cell=where)
    note = t(UNDONE["note"], what=what)
    if taken["after"] is not None:
        note += " " + t(UNDONE[taken["after"]], name=taken["next"])
    return note
