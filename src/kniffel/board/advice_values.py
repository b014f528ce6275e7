"""The solver's values the Tipp's words are made of, as the board hands them to the web.

The web speaks HTTP and words only and imports nothing of the solver
(``tests/test_layers.py``); the words of the Tipp (``web/present/advice_words.py``,
``web/present/tipp_words.py``) name these types through this module. Importing it imports the
solver (numpy): the web does so only for type checking and inside the functions that run
once a Tipp is asked for.
"""

from __future__ import annotations

from kniffel.solver.advice.position import Choice, Position
from kniffel.solver.advice.reasons import Chances, Reasons
from kniffel.solver.chances.winbot import WinChoice

__all__ = ["Chances", "Choice", "Position", "Reasons", "WinChoice"]
