"""The turn as the board tells it: who is to move, the rolls, what undo takes back, and a
further Kniffel explained.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kniffel.locales import N_, Translator
from kniffel.locales.refusals import refusal_text
from kniffel.offline import undo_note
from kniffel.rules import (
    MAX_ROLLS,
    Dice,
    Game,
    IllegalMoveError,
    JokerCase,
    Roll,
    Undo,
    extra_kniffel_bonus,
    joker_permits,
    most_points,
)

__all__ = [
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


def _extra_kniffel(game: Game, t: Translator, p: int, dice: Dice | None) -> tuple[str, ...]:
    """The short explanation of docs/rules.md §5 when ``dice`` are a further Kniffel.

    The engine decides (``Game.joker_case``, ``extra_kniffel_bonus``); this only words it.
    """
    case = None if dice is None else game.joker_case(p, dice)
    if dice is None or case is None:
        return ()
    lines = [t("Weiterer Kniffel!")]
    options = game.options
    if options.kniffel_bonus > 0:
        bonus = extra_kniffel_bonus(options, game.holds_fifty(p))
        if bonus:
            lines.append(t("+{n} Kniffel-Bonus in der Spalte, in die du ihn einträgst.", n=bonus))
        else:
            lines.append(t("Kein Kniffel-Bonus: Kein Kniffel-Feld hat 50 Punkte."))
    if case is JokerCase.FREE:
        lines.append(
            t("Joker: Jedes erlaubte Feld; Full House, Kleine und Große Straße zählen voll.")
        )
    elif case is JokerCase.MATCHING:
        matching = [c for c in game.allowed_cells(p) if joker_permits(case, dice.faces[0], c.row)]
        names = " / ".join(t.cell(game.variant, c) for c in matching)
        lines.append(t("Joker (Pflicht): Der Kniffel muss in {cells}.", cells=names))
    elif case is JokerCase.LOWER:
        lines.append(
            t(
                "Joker (Pflicht): Das passende Feld oben ist nicht offen, "
                "also unten mit vollen Punkten."
            )
        )
    elif case is JokerCase.UPPER:
        lines.append(t("Joker (Pflicht): Unten ist nichts offen; oben zählt er 0."))
    else:
        lines.append(t("Kein Joker: Der Wurf zählt überall normal."))
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
