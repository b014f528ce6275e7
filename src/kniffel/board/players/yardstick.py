"""The best bot as the yardstick of a player page: its mean and spread per preset.

The figures are the seeded simulations documented in docs/bot.md ("All rows",
bot ``best``, 100,000 games for Rauf-Runter, 10,000 for the others), for each
preset with its own standard options; ``kniffel simulate --variant V --bot best``
reproduces them. For other house rules there is no figure here (the page says
so): simulating them needs the solver's tables for those rules, which can take
minutes to build.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kniffel.rules import get_variant

__all__ = ["Yardstick", "yardstick"]


@dataclass(frozen=True, slots=True)
class Yardstick:
    variant: str
    mean: float
    std: float
    p5: int
    p50: int
    p95: int
    games: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "bot": "best",
            "variant": self.variant,
            "mean": self.mean,
            "std": self.std,
            "percentiles": {"5": self.p5, "50": self.p50, "95": self.p95},
            "games": self.games,
            "source": "docs/bot.md",
        }


#: docs/bot.md, "All rows": bot ``best`` with each preset's standard options.
DOCUMENTED: dict[str, Yardstick] = {
    "rauf-runter": Yardstick("rauf-runter", 687.72, 60.8, 587, 688, 787, 100_000),
    "kniffel": Yardstick("kniffel", 246.10, 39.6, 183, 247, 316, 10_000),
    "yahtzee": Yardstick("yahtzee", 254.90, 60.2, 181, 247, 389, 10_000),
    "dreifach": Yardstick("dreifach", 1682.25, 128.4, 1463, 1694, 1872, 10_000),
}


def standard_options(variant: str) -> str:
    """The preset's standard options as the summary rows write them (canonical JSON)."""
    return json.dumps(get_variant(variant).options.as_dict(), sort_keys=True, separators=(",", ":"))


def yardstick(variant: str, options: str | None = None) -> Yardstick | None:
    """The best bot's figures for ``variant`` (with ``options`` as canonical JSON, if given)."""
    found = DOCUMENTED.get(variant)
    if found is None or (options is not None and options != standard_options(variant)):
        return None
    return found
