"""How far the best bot's own expectation is from what it then scores, by turns left.

The bots rank entries by a value estimate; only its differences within a turn
matter to the play, not its level. In Rauf-Runter and Dreifach the level is
low (docs/solver.md, "Win chances"). This module measures, from seeded games
of the best bot, at the start of every turn with ``t`` entries left:

- ``offset[t]``: the mean of (points the bot then scored) minus (its own
  expectation of them): add it to the expectation to get an unbiased estimate;
- ``std[t]``: the standard deviation of the same difference: the spread of
  the final total around that estimate.

The figures are shipped for the presets' options in ``data/calibration.json``
(``python -m kniffel.solver.chances.calibration`` refits them). Under other
options :func:`load_calibration` gives ``None``.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import PRESETS, Variant, rows_for
from kniffel.solver.play.bots import make_bot
from kniffel.solver.play.simulate import simulate

__all__ = ["FORMAT", "Calibration", "load_calibration", "measure", "nearest_calibration"]

FORMAT = "kniffel-chances-calibration/1"
DATA = Path(__file__).parent / "data" / "calibration.json"

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Calibration:
    """``offset[t]`` and ``std[t]`` for ``t`` entries left (index 0: the sheet is full)."""

    variant: str
    options: dict[str, Any]
    games: int
    seed: int
    offset: tuple[float, ...]
    std: tuple[float, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "offset": [round(x, 3) for x in self.offset],
            "std": [round(x, 3) for x in self.std],
        }


def _sums(args: tuple[str, int, int]) -> tuple[Array, Array, int]:
    """Sums of residuals and squared residuals per entries left, over seeded games."""
    name, games, seed = args
    sim = simulate(PRESETS[name], "best", games, seed, keep_logs=games)
    turns = len(sim.logs[0])
    total = np.zeros(turns + 1)
    square = np.zeros(turns + 1)
    for batch in sim.logs:
        gains = np.stack([log.gain for log in batch], axis=1).astype(np.float64)  # [B, turns]
        expected = np.stack([log.expected for log in batch], axis=1)
        remaining = np.cumsum(gains[:, ::-1], axis=1)[:, ::-1]  # points from turn t on
        residual = remaining - expected  # turn t has turns - t entries left
        total[turns:0:-1] += residual.sum(axis=0)
        square[turns:0:-1] += (residual**2).sum(axis=0)
    return total, square, sim.games


def measure(name: str, games: int, seed: int, jobs: int = 1) -> Calibration:
    """Play ``games`` games of the best bot (in ``jobs`` processes) and measure.

    Part ``i`` of the run plays the games of ``kniffel simulate --seed`` ``seed * 1000 + i``.
    """
    per = -(-games // jobs)
    parts = [(name, min(per, games - i * per), seed * 1000 + i) for i in range(jobs)]
    parts = [p for p in parts if p[1] > 0]
    if len(parts) == 1:
        results = [_sums(parts[0])]
    else:
        with ProcessPoolExecutor(len(parts)) as pool:
            results = list(pool.map(_sums, parts))
    n = sum(r[2] for r in results)
    mean = sum((r[0] for r in results), np.zeros(1)) / n
    square = sum((r[1] for r in results), np.zeros(1)) / n
    std = np.sqrt(np.maximum(square - mean**2, 0.0))
    return Calibration(
        name,
        PRESETS[name].options.as_dict(),
        n,
        seed,
        tuple(float(x) for x in mean),
        tuple(float(x) for x in std),
    )


@cache
def _stored() -> tuple[Calibration, ...]:
    try:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    if data.get("format") != FORMAT:
        return ()
    return tuple(
        Calibration(
            e["variant"],
            e["options"],
            e["games"],
            e["seed"],
            tuple(e["offset"]),
            tuple(e["std"]),
        )
        for e in data["entries"]
    )


def load_calibration(variant: Variant) -> Calibration | None:
    """The shipped figures for ``variant``, or ``None`` under options they were not measured for."""
    options = variant.options.as_dict()
    for entry in _stored():
        preset = PRESETS.get(entry.variant)
        if preset is not None and preset.columns == variant.columns and entry.options == options:
            return entry
    return None


def nearest_calibration(variant: Variant) -> Calibration | None:
    """The figures for ``variant``, else those of the preset with the same columns (measured
    under the preset's options: an approximation under other house rules)."""
    found = load_calibration(variant)
    if found is not None:
        return found
    for entry in _stored():
        preset = PRESETS.get(entry.variant)
        cells = len(variant.columns) * len(rows_for(variant.options))
        if preset is not None and preset.columns == variant.columns and len(entry.std) == cells + 1:
            return entry
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    try:
        stored = json.loads(args.out.read_text(encoding="utf-8"))["entries"]
    except (OSError, ValueError, KeyError):
        stored = []
    for name in args.variant:
        make_bot("best", PRESETS[name])  # build the tables once, before the workers load them
        found = measure(name, args.games, args.seed, args.jobs)
        print(name, found.games, "offset at start", round(found.offset[-1], 2), flush=True)
        stored = [e for e in stored if e["variant"] != name] + [found.as_dict()]
    text = json.dumps({"format": FORMAT, "entries": stored}, indent=1)
    args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
