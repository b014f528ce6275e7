"""Advice and analysis: each choice of the player to move valued, and a game's decisions reviewed.

:mod:`.position` values every keep and entry (exactly in one-column presets, with the ``best``
bot's estimate in the others); :mod:`.analysis` sets each recorded decision beside the best one.
"""

from __future__ import annotations

from kniffel.solver.advice.position import (
    Advice,
    Choice,
    Position,
    advise,
    column_table,
    evaluate,
    is_exact,
)

__all__ = ["Advice", "Choice", "Position", "advise", "column_table", "evaluate", "is_exact"]
