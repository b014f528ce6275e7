"""Random dice for the random records, leaning towards Kniffels, straights and houses."""

from __future__ import annotations

import random


def _five_equal(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6)] * 5


def roll_dice(rng: random.Random, kniffel_bias: float) -> list[int]:
    draw = rng.random()
    if draw < kniffel_bias:
        dice = _five_equal(rng)
    elif draw < kniffel_bias + 0.1:
        a, b = rng.sample(range(1, 7), 2)
        start = rng.randint(1, 2)
        dice = rng.choice(
            (
                [a, a, a, b, b],
                [a, a, a, a, b],
                list(range(start, start + 5)),
                [*range(start, start + 4), rng.randint(1, 6)],
            )
        )
    else:
        dice = [rng.randint(1, 6) for _ in range(5)]
    rng.shuffle(dice)
    return dice
