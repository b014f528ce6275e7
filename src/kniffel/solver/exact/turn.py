"""The in-turn optimisation: best keeps over three rolls, given what each final roll is worth.

Every solver and bot states a turn as one array ``final[..., r]``: the value
of ending the turn with roll ``r`` (its best entry plus what follows). Then
:func:`turn_value` gives the expected value at the start of the turn.
Rolling again while keeping all five dice is the same as stopping, so a stop
needs no special case.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.solver.exact.dice_tables import P_FIRST, P_KEEP, ROLL_KEEPS

__all__ = ["keep_values", "stage_values", "turn_value"]

Array = npt.NDArray[np.float64]


def keep_values(roll_values: Array) -> Array:
    """Expected value of each keep when ``roll_values[..., r]`` is what roll ``r`` is worth."""
    return roll_values @ P_KEEP.T


def _best_over_keeps(keep_vals: Array) -> Array:
    return np.asarray(keep_vals[..., ROLL_KEEPS].max(axis=-1))


def stage_values(final: Array) -> tuple[Array, Array]:
    """Value of holding each roll with 2 rolls left and with 1 roll left.

    ``final[..., r]`` is the value with no roll left (must enter now).
    """
    after_two = np.maximum(final, _best_over_keeps(keep_values(final)))
    after_one = np.maximum(final, _best_over_keeps(keep_values(after_two)))
    return after_one, after_two


def turn_value(final: Array) -> Array:
    """Expected value at the start of a turn (before the first roll)."""
    after_one, _ = stage_values(final)
    return np.asarray(after_one @ P_FIRST)
