"""The learned part of the Rauf-Runter value: what interleaving the columns is worth.

The plan value (↓↑ first, then the free column) ignores that every turn may
choose its column after the roll. The correction ``C(d, u, free mask)`` adds
that back: a sum of small tables over the progress ``d`` of ↓, ``u`` of ↑,
the number ``f`` of open free cells and which free rows are filled,

    C = DU[d, u] + DF[d, f] + UF[u, f]
        + sum over filled free rows i of (RD[i, d] + RU[i, u])
        + sum over pairs of filled free rows i, j of RR[i, j]

It looks at no sums and no dice, so within a turn it costs one lookup per
slot. The tables are fitted by :mod:`kniffel.solver.raufrunter.fit` and shipped as
``data/rr_correction.json`` for the options they were fitted under.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.rules import Options

__all__ = ["FORMAT", "Correction", "features", "load_correction"]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.signedinteger[Any]]

FORMAT = "kniffel-rr-correction/1"
_DATA = "rr_correction.json"


def _one_hot(values: Ints, size: int) -> Array:
    return np.asarray(values[..., None] == np.arange(size), dtype=np.float64)


def _outer(a: Array, b: Array) -> Array:
    return np.asarray((a[..., :, None] * b[..., None, :]).reshape(*a.shape[:-1], -1))


def _filled_rows(mask: Ints, n_rows: int) -> Array:
    return ((mask[..., None] >> np.arange(n_rows)) & 1).astype(np.float64)


def features(n_rows: int, d: Ints, u: Ints, mask: Ints) -> Array:
    """``[..., F]``: the indicator features whose weights are the tables' entries.

    In the order DU, DF, UF, RD, RU, RR, each flattened row by row.
    """
    filled = _filled_rows(mask, n_rows)
    free_open = n_rows - filled.sum(axis=-1).astype(np.int64)
    down, up = _one_hot(d, n_rows + 1), _one_hot(u, n_rows + 1)
    open_ = _one_hot(free_open, n_rows + 1)
    parts = [
        _outer(down, up),
        _outer(down, open_),
        _outer(up, open_),
        _outer(filled, down),
        _outer(filled, up),
        _outer(filled, filled),
    ]
    return np.concatenate(parts, axis=-1)


def n_features(n_rows: int) -> int:
    steps = n_rows + 1
    return 3 * steps * steps + 2 * n_rows * steps + n_rows * n_rows


@dataclass(frozen=True)
class Correction:
    """The fitted tables and the options they were fitted under."""

    options: Options
    n_rows: int
    weights: Array  # the flat weights, in the order of :func:`features`
    note: str = ""

    def __post_init__(self) -> None:
        if self.weights.shape != (n_features(self.n_rows),):
            wanted = n_features(self.n_rows)
            raise ValueError(f"a correction for {self.n_rows} rows has {wanted} weights")

    def _tables(self) -> tuple[Array, ...]:
        n, steps = self.n_rows, self.n_rows + 1
        shapes = [(steps, steps)] * 3 + [(n, steps)] * 2 + [(n, n)]
        tables, start = [], 0
        for shape in shapes:
            size = shape[0] * shape[1]
            tables.append(self.weights[start : start + size].reshape(shape))
            start += size
        return tuple(tables)

    def value(self, d: Ints, u: Ints, mask: Ints) -> Array:
        """``C`` of the states ``(d, u, mask)`` (any matching shapes)."""
        du, df, uf, rd, ru, rr = self._tables()
        filled = _filled_rows(mask, self.n_rows)
        free_open = self.n_rows - filled.sum(axis=-1).astype(np.int64)
        rows = du[d, u] + df[d, free_open] + uf[u, free_open]
        rows += np.einsum("...i,...i->...", filled, rd.T[d] + ru.T[u])
        rows += np.einsum("...i,ij,...j->...", filled, rr, filled)
        return np.asarray(rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "options": self.options.as_dict(),
            "n_rows": self.n_rows,
            "note": self.note,
            "weights": [round(float(w), 6) for w in self.weights],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Correction:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        options = Options().updated(data["options"])
        weights = np.array(data["weights"], dtype=np.float64)
        return cls(options, int(data["n_rows"]), weights, str(data.get("note", "")))


def load_correction(options: Options) -> Correction | None:
    """The shipped correction if it was fitted under exactly ``options``, else ``None``."""
    text = (Path(__file__).parent / "data" / _DATA).read_text(encoding="utf-8")
    correction = Correction.from_json(json.loads(text))
    return correction if correction.options == options else None
