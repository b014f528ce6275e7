"""What seeded games of one bot came to (:func:`kniffel.solver.play.simulate.simulate` and its
fast path for Jamb and Yams, :mod:`kniffel.solver.play.family_fast`, both return it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import Variant
from kniffel.solver.play.bots import TurnLog

__all__ = ["PERCENTILES", "Simulation"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


@dataclass
class Simulation:
    """The outcome of ``games`` seeded games of one bot."""

    variant: Variant
    bot: str
    seed: int
    totals: IntArray  # [N]
    column_totals: IntArray  # [N, C]
    bonus: npt.NDArray[np.bool_]  # [N, C]: the column's upper bonus was reached
    fifty: npt.NDArray[np.bool_]  # [N, C]: the column's Kniffel cell holds 50
    extra_kniffels: IntArray  # [N]: extra Kniffels that earned the bonus
    seconds: float
    logs: list[list[TurnLog]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.totals)

    def summary(self) -> dict[str, Any]:
        """The figures ``kniffel simulate --json`` prints."""
        totals = self.totals.astype(np.float64)
        std = float(totals.std(ddof=1)) if self.games > 1 else 0.0
        columns = [spec.id for spec in self.variant.columns]
        return {
            "variant": self.variant.name,
            "options": self.variant.options.as_dict(),
            "bot": self.bot,
            "seed": self.seed,
            "games": self.games,
            "mean": float(totals.mean()),
            "std": std,
            "stderr": std / np.sqrt(self.games),
            "min": int(self.totals.min()),
            "max": int(self.totals.max()),
            "percentiles": _by(PERCENTILES, np.percentile(totals, PERCENTILES)),
            "column_mean": _by(columns, self.column_totals.mean(axis=0)),
            "bonus_rate": _by(columns, self.bonus.mean(axis=0)),
            "kniffel_rate": _by(columns, self.fifty.mean(axis=0)),
            "kniffels_per_game": float(self.fifty.sum(axis=1).mean()),
            "extra_kniffels_per_game": float(self.extra_kniffels.mean()),
            "seconds": self.seconds,
            "seconds_per_game": self.seconds / self.games,
        }


def _by(names: Sequence[object], values: Array) -> dict[str, float]:
    return {str(name): float(v) for name, v in zip(names, values.tolist(), strict=True)}
