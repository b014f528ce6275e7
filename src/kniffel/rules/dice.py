"""Dice: five faces, rolls and keeps, and the probabilities of rolling them."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from kniffel.rules.errors import InvalidDiceError, shown

__all__ = [
    "ALL_ROLLS",
    "FACES",
    "Dice",
    "is_submultiset",
    "keeps_of",
    "outcome_probabilities",
    "parse_faces",
]

FACES = (1, 2, 3, 4, 5, 6)
N_DICE = 5


def _check_faces(faces: Iterable[object], *, what: str) -> tuple[int, ...]:
    values: list[int] = []
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int):
            raise InvalidDiceError(
                f"{what} must be whole numbers from 1 to 6, got {shown(face)}", value=shown(face)
            )
        if not 1 <= face <= 6:
            raise InvalidDiceError(f"{what} must be faces from 1 to 6, got {face}", value=str(face))
        values.append(face)
    return tuple(values)


@dataclass(frozen=True, slots=True, order=True)
class Dice:
    """Five dice as a sorted multiset of faces (the order they fell in does not matter).

    >>> Dice.of([6, 2, 6, 3, 1])
    Dice(1, 2, 3, 6, 6)
    >>> Dice.parse("66655").counts
    (0, 0, 0, 0, 2, 3)
    """

    faces: tuple[int, ...]

    @classmethod
    def of(cls, faces: Iterable[object]) -> Dice:
        values = _check_faces(faces, what="dice")
        if len(values) != N_DICE:
            raise InvalidDiceError(
                f"a roll has exactly 5 dice, got {len(values)}", code="dice_count", got=len(values)
            )
        return _dice_cache(tuple(sorted(values)))

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read dice typed as digits, e.g. ``"66655"`` or ``"6 6 6 5 5"``."""
        return cls.of(parse_faces(text))

    @property
    def counts(self) -> tuple[int, ...]:
        """How many dice show each face 1..6."""
        return _counts(self.faces)

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def is_kniffel(self) -> bool:
        return self.faces[0] == self.faces[4]

    def __iter__(self) -> Iterator[int]:
        return iter(self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __repr__(self) -> str:
        return f"Dice({', '.join(map(str, self.faces))})"

    def __str__(self) -> str:
        return "".join(map(str, self.faces))


@cache
def _dice_cache(faces: tuple[int, ...]) -> Dice:
    return Dice(faces)


@cache
def _counts(faces: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * 6
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


def parse_faces(text: str) -> list[int]:
    """Faces typed as digits; spaces, commas and dashes between them are ignored."""
    faces: list[int] = []
    for char in text:
        if char in " ,-;\t":
            continue
        if char not in "123456":
            raise InvalidDiceError(
                f"dice are digits from 1 to 6, got {shown(char)}", value=shown(char)
            )
        faces.append(int(char))
    return faces


def check_keep(keep: Iterable[object]) -> tuple[int, ...]:
    values = _check_faces(keep, what="kept dice")
    if len(values) > N_DICE:
        raise InvalidDiceError(
            f"at most 5 dice can be kept, got {len(values)}", code="keep_count", got=len(values)
        )
    return tuple(sorted(values))


def is_submultiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    """Whether every face of ``part`` occurs in ``whole`` at least as often."""
    need = Counter(part)
    have = Counter(whole)
    return all(have[face] >= n for face, n in need.items())


#: The 252 distinct rolls of five dice, in sorted order.
ALL_ROLLS: tuple[Dice, ...] = tuple(
    Dice.of(c) for c in itertools.combinations_with_replacement(FACES, N_DICE)
)


@cache
def keeps_of(dice: Dice) -> tuple[tuple[int, ...], ...]:
    """Every distinct multiset of faces that can be kept from ``dice`` (all 0..5 dice)."""
    found: set[tuple[int, ...]] = set()
    for size in range(N_DICE + 1):
        found.update(itertools.combinations(dice.faces, size))
    return tuple(sorted(found, key=lambda k: (len(k), k)))


@cache
def outcome_probabilities(keep: tuple[int, ...]) -> tuple[tuple[Dice, float], ...]:
    """The rolls that can follow keeping ``keep`` and rerolling the rest, with probabilities."""
    free = N_DICE - len(keep)
    total = 6**free
    outcomes: list[tuple[Dice, float]] = []
    for rest in itertools.combinations_with_replacement(FACES, free):
        counts = Counter(rest)
        ways = math.factorial(free)
        for n in counts.values():
            ways //= math.factorial(n)
        outcomes.append((Dice.of(keep + rest), ways / total))
    return tuple(outcomes)
