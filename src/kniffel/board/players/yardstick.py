"""The best bot as the yardstick of a player page: its mean and spread per preset and options.

- For each preset with its own standard options the figures are the seeded simulations
  documented in docs/bot.md ("All rows", bot ``best``, 100,000 games for Rauf-Runter,
  10,000 for the others); ``kniffel simulate --variant V --bot best`` reproduces them.
- For other house rules the board simulates the best bot itself, in the background
  (:class:`Simulations`, run by :mod:`kniffel.web.background`): :data:`GAMES` seeded games in
  chunks of :data:`CHUNK` (chunk ``k`` plays seed ``k`` of :func:`kniffel.solver.play.simulate`),
  once the solved tables of those rules are ready (it never starts a table build). The result
  is kept on disk beside the solved tables (``yardstick-…json`` in the cache directory), so it
  is simulated once per variant and options.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kniffel.rules import get_variant

__all__ = ["CHUNK", "GAMES", "Simulations", "Yardstick", "standard_options", "yardstick"]

#: Games the background simulates for house rules without documented figures.
GAMES = 1_000
#: Games per piece of background work (a few seconds of CPU).
CHUNK = 100
FORMAT = "kniffel-yardstick/1"


@dataclass(frozen=True, slots=True)
class Yardstick:
    variant: str
    mean: float
    std: float
    p5: int
    p50: int
    p95: int
    games: int
    source: str = "docs/bot.md"

    def as_dict(self) -> dict[str, Any]:
        return {
            "bot": "best",
            "variant": self.variant,
            "mean": self.mean,
            "std": self.std,
            "percentiles": {"5": self.p5, "50": self.p50, "95": self.p95},
            "games": self.games,
            "source": self.source,
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


def _path(variant: str, options: str) -> Path:
    from kniffel.solver.exact.cache import cache_dir

    digest = hashlib.sha256(f"{variant}\n{options}".encode()).hexdigest()[:20]
    return cache_dir() / f"yardstick-{variant}-{digest}.json"


def _load(variant: str, options: str) -> Yardstick | None:
    try:
        data = json.loads(_path(variant, options).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or (data.get("variant"), data.get("options")) != (variant, options)
    ):
        return None
    try:
        return Yardstick(
            variant,
            float(data["mean"]),
            float(data["std"]),
            int(data["p5"]),
            int(data["p50"]),
            int(data["p95"]),
            int(data["games"]),
            "simulated",
        )
    except (KeyError, TypeError, ValueError):
        return None


def yardstick(variant: str, options: str | None = None) -> Yardstick | None:
    """The best bot's figures for ``variant`` with ``options`` (canonical JSON; ``None``: the
    standard options): documented, or simulated before for these rules, else ``None``."""
    standard = standard_options(variant)
    if options is None or options == standard:
        # Jamb and Yams have no documented percentiles: theirs are simulated like house rules.
        return DOCUMENTED.get(variant) or _load(variant, standard)
    return _load(variant, options)


class Simulations:
    """The yardsticks wanted for house rules without one, simulated a chunk at a time.

    A player page that finds none asks with :meth:`want`; the background calls
    :meth:`step` (one chunk of :data:`CHUNK` games of one wanted yardstick whose tables
    are ready) until :data:`GAMES` are played, then writes the figures to disk.
    """

    def __init__(self, ready: Any, games: int | None = None, chunk: int | None = None) -> None:
        self.ready = ready  # (variant name, options JSON) -> whether its tables are ready
        self.games = GAMES if games is None else games
        self.chunk = CHUNK if chunk is None else chunk
        self._lock = threading.Lock()
        self._played: dict[tuple[str, str], list[int]] = {}

    def want(self, variant: str, options: str) -> None:
        """Simulate the yardstick of ``variant`` with ``options`` when its tables are ready."""
        with self._lock:
            self._played.setdefault((variant, options), [])

    def progress(self, variant: str, options: str) -> float | None:
        """How far the simulation is (0 to 1), ``None`` when it is not wanted."""
        with self._lock:
            played = self._played.get((variant, options))
        return None if played is None else len(played) / self.games

    def step(self) -> bool:
        """Plays one chunk of one wanted yardstick whose tables are ready; whether it did."""
        with self._lock:
            wanted = list(self._played.items())
        for (variant, options), played in wanted:
            if yardstick(variant, options) is not None:
                with self._lock:
                    self._played.pop((variant, options), None)
                return True
            if not self.ready(variant, options):
                continue
            totals = self._chunk(variant, options, len(played) // self.chunk)
            with self._lock:
                played = self._played.setdefault((variant, options), [])
                played.extend(totals)
                done = len(played) >= self.games
                if done:
                    self._played.pop((variant, options), None)
            if done:
                _save(variant, options, played[: self.games])
            return True
        return False

    def _chunk(self, variant: str, options: str, seed: int) -> list[int]:
        from kniffel.solver.play.simulate import simulate

        played = simulate(get_variant(variant, json.loads(options)), "best", self.chunk, seed)
        return [int(t) for t in played.totals]


def _save(variant: str, options: str, totals: list[int]) -> None:
    import numpy as np

    values = np.array(totals, dtype=np.float64)
    p5, p50, p95 = (round(float(p)) for p in np.percentile(values, (5, 50, 95)))
    data = {
        "format": FORMAT,
        "variant": variant,
        "options": options,
        "bot": "best",
        "games": len(totals),
        "mean": float(values.mean()),
        "std": float(values.std(ddof=1)) if len(totals) > 1 else 0.0,
        "p5": p5,
        "p50": p50,
        "p95": p95,
    }
    path = _path(variant, options)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        return
