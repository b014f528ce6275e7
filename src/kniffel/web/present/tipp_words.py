"""The Tipp's reasons and its "Auf Sieg" list in words (German first, English second).

For each choice of the Tipp "Auf Punkte": the chances of the upper bonus (per column) and
of a Kniffel before and after it, in short figures for the eye (``Bonus 77 % → 75 %``) and
in one sentence for a screen reader (docs/board.md, "Tipp"). For "Auf Sieg": each choice's
chance to finish first and the points it costs against the choice worth most points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kniffel.rules import Row, Variant

if TYPE_CHECKING:
    from kniffel.board.advice_values import Chances, Choice, Position, Reasons, WinChoice
    from kniffel.web.present.advice_words import AdviceWords

__all__ = ["choice_reasons", "method_note", "now_line", "win_rows"]

_KNIFFEL = Row.KNIFFEL.value


def _columns(variant: Variant, words: AdviceWords) -> dict[str, str]:
    """Each column's name, or nothing in a one-column game (there is one bonus)."""
    if len(variant.columns) == 1:
        return {variant.columns[0].id: ""}
    return {spec.id: words.t.column(spec) for spec in variant.columns}


def _chance(words: AdviceWords, p: float, decided: bool, rough: bool) -> str:
    """A chance in whole percent; ``≈ 40 %`` where it is a first answer's and not settled."""
    said = words.chance(p, decided)
    return f"≈ {said}" if rough and not decided else said


def now_line(variant: Variant, now: Chances, words: AdviceWords, rough: bool = False) -> str:
    """``Jetzt: Bonus 77 %, Kniffel 36 %`` (per column where there are several); ``rough``:
    a first answer, its open figures marked ``≈``."""
    names = _columns(variant, words)
    bonus = words("Bonus")
    parts = [
        " ".join(
            part for part in (bonus, names[c], _chance(words, p, c in now.decided, rough)) if part
        )
        for c, p in now.bonus.items()
    ]
    if now.kniffel is not None:
        kniffel = words.t.row(Row.KNIFFEL)
        parts.append(f"{kniffel} {_chance(words, now.kniffel, _KNIFFEL in now.decided, rough)}")
    return words("Jetzt: {chances}", chances=", ".join(parts))


def choice_reasons(
    variant: Variant,
    choice: Choice,
    label: str,
    cost: str,
    now: Chances,
    after: Chances | None,
    words: AdviceWords,
    rough: bool = False,
) -> dict[str, Any]:
    """A choice's figures for the eye and its sentence for a screen reader (``rough``: a
    first answer's, the open figures marked ``≈``)."""
    names = _columns(variant, words)
    kniffel = words.t.row(Row.KNIFFEL)
    expected = words("erwartete Endsumme {total}", total=words.decimal(choice.expected))
    costs = words("beste Wahl") if not cost else words("kostet {points} Punkte", points=cost)
    spoken = [f"{expected}, {costs}"]
    bonus: list[dict[str, str]] = []
    kniffel_figures: dict[str, str] | None = None
    if after is not None:
        for column, before in now.bonus.items():
            then = after.bonus[column]
            figures = {
                "before": _chance(words, before, column in now.decided, rough),
                "after": _chance(words, then, column in after.decided, rough),
            }
            bonus.append({"column": names[column], **figures, "trend": _trend(before, then)})
            spoken.append(
                words(
                    "Chance auf den Bonus in {column} von {before} auf {after}",
                    column=names[column],
                    **figures,
                )
                if names[column]
                else words("Chance auf den Bonus von {before} auf {after}", **figures)
            )
        if now.kniffel is not None and after.kniffel is not None:
            kniffel_figures = {
                "before": _chance(words, now.kniffel, _KNIFFEL in now.decided, rough),
                "after": _chance(words, after.kniffel, _KNIFFEL in after.decided, rough),
                "trend": _trend(now.kniffel, after.kniffel),
            }
            spoken.append(
                words(
                    "Chance auf einen {kniffel} von {before} auf {after}",
                    kniffel=kniffel,
                    before=kniffel_figures["before"],
                    after=kniffel_figures["after"],
                )
            )
    return {
        "bonus": bonus,
        "kniffel": kniffel_figures,
        "kniffel_label": kniffel,
        "sentence": f"{label}: " + "; ".join(spoken) + ".",
    }


def _trend(before: float, after: float) -> str:
    """``up``, ``down`` or ``same``, by whole percent points (what the figures show)."""
    diff = round(after * 100) - round(before * 100)
    return "up" if diff > 0 else "down" if diff < 0 else "same"


def method_note(found: Reasons, words: AdviceWords) -> str:
    if found.method == "exact":
        return words("Chancen exakt berechnet, wenn man weiter wie der starke Bot spielt.")
    if found.refining is not None:
        return words(
            "Erste Schätzung: der Zug exakt, der Rest aus {n} Spielen des starken Bots, "
            "auf ±{points} Prozentpunkte genau (95 %).",
            n=found.samples,
            points=words.decimal(100 * found.half_width),
        )
    return words(
        "Chancen geschätzt: der Zug exakt, der Rest aus {n} Spielen des starken Bots, "
        "auf ±{points} Prozentpunkte genau (95 %).",
        n=found.samples,
        points=words.decimal(100 * found.half_width),
    )


def win_rows(
    variant: Variant,
    position: Position,
    choices: Sequence[WinChoice],
    words: AdviceWords,
    top: int,
) -> list[dict[str, Any]]:
    """The "Auf Sieg" list: each choice's win chance and its cost in points, best first."""
    rows = []
    for i, win in enumerate(choices[:top]):
        worth = position.value(win.action)
        label = words.choice(win, variant, position.rolls)
        loss = position.expected - worth
        cost = words.decimal(loss) if loss >= 0.05 else ""
        chance = words.chance(win.win)
        costs = (
            words("so viele Punkte wie die beste Wahl")
            if not cost
            else words("kostet {points} Punkte", points=cost)
        )
        sentence = words(
            "{label}: Gewinnchance {chance}, {costs}.", label=label, chance=chance, costs=costs
        )
        rows.append(
            {"label": label, "win": chance, "cost": cost, "best": i == 0, "sentence": sentence}
        )
    return rows
