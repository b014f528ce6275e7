"""The turn as the board tells it: who is to move, the rolls, what undo takes back, and a
further Kniffel explained.
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import (
    MAX_ROLLS,
    Announce,
    Clear,
    Dice,
    Edit,
    Enter,
    Event,
    Game,
    IllegalMoveError,
    JokerCase,
    Roll,
    Undo,
    extra_kniffel_bonus,
    joker_permits,
    most_points,
)

__all__ = ["TurnView", "UndoView", "turn_view", "undo_view"]


@dataclass(frozen=True, slots=True)
class TurnView:
    player: str
    rolls: int
    rolls_left: int
    dice: tuple[int, ...]  #: the pending roll (virtual dice), else empty
    note: str  #: rolls as words ("Wurf 2 von 3", or the physical-dice hint)
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
    left = MAX_ROLLS - rolls
    if dice_mode == "virtual":
        if rolls == 0:
            note = t.ngettext("noch {n} Wurf", "noch {n} Würfe", left)
        elif left == 0:
            note = t("Wurf {n} von {m}", n=rolls, m=MAX_ROLLS) + " · " + t("keine Würfe mehr")
        else:
            left_words = t.ngettext("noch {n} Wurf", "noch {n} Würfe", left)
            note = t("Wurf {n} von {m}", n=rolls, m=MAX_ROLLS) + " · " + left_words
    else:
        note = t("echte Würfel, bis zu {m} Würfe", m=MAX_ROLLS)
    return TurnView(
        player=game.players[p],
        rolls=rolls,
        rolls_left=left,
        dice=() if pending is None else pending[0].faces,
        note=note,
        extra_kniffel=_extra_kniffel(game, t, p, dice),
        points_max=most_points(game.variant.options),
    )


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
    note = t("Macht rückgängig: {what}.", what=_event_words(game, t, last))
    after = _mover_after_undo(game)
    if after is not None:
        now = game.current_player()
        if after == now:
            note += " " + t("Danach bleibt {name} dran.", name=game.players[after])
        else:
            note += " " + t("Danach ist {name} wieder dran.", name=game.players[after])
    return UndoView(True, note)


def _mover_after_undo(game: Game) -> int | None:
    """Who is to move once the last event is taken back (the order is read from the sheets)."""
    before = Game(game.variant, game.players)
    for event in game.log:
        before.push(event)
    before.push(Undo())
    return before.current_player()


def _event_words(game: Game, t: Translator, event: Event) -> str:
    if isinstance(event, Roll):
        return t("Wurf von {name} ({dice})", name=event.player, dice=" ".join(map(str, event.dice)))
    assert isinstance(event, Announce | Enter | Edit | Clear)
    where = t.cell(game.variant, event.cell)
    if isinstance(event, Announce):
        return t("Ansage von {name}: {cell}", name=event.player, cell=where)
    if isinstance(event, Enter):
        value = game.points(event.player, event.cell)
        if value is not None:
            where = f"{where} ({t.number(value)})"
        return t("Eintrag von {name}: {cell}", name=event.player, cell=where)
    if isinstance(event, Edit):
        return t("Korrektur von {name}: {cell}", name=event.player, cell=where)
    return t("Leeren bei {name}: {cell}", name=event.player, cell=where)
