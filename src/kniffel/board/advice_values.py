"""What the Tipp's words read of the advice, as the board's own types (protocols).

The web speaks HTTP and words only and imports nothing of the solver
(``tests/test_layers.py``); the words of the Tipp (``web/present/advice_words.py``,
``web/present/tipp_words.py``) name these types. Each says only what the words read; the
solver's values (``kniffel.solver.advice.position.Choice``, ``.reasons.Chances`` and
``Reasons``, ``kniffel.solver.chances.winbot.WinChoice``) have these attributes, and mypy checks
that they fit wherever the board hands one to the web. Importing this module imports no solver
and no numpy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from kniffel.rules import Action, AnnounceAction

__all__ = ["Chances", "Choice", "Labelled", "Position", "Reasons", "WinChoice"]


class Labelled(Protocol):
    """A choice the words name: what it does, and what an entry scores now."""

    @property
    def action(self) -> Action | AnnounceAction: ...

    @property
    def points(self) -> int | None: ...


class Choice(Labelled, Protocol):
    """A choice with the final total expected after it."""

    @property
    def expected(self) -> float: ...


class WinChoice(Protocol):
    """A choice of the "Auf Sieg" list: its chance to win."""

    @property
    def action(self) -> Action: ...

    @property
    def points(self) -> int | None: ...

    @property
    def win(self) -> float: ...


class Position(Protocol):
    """The position a Tipp is for: rolls made this turn, the best total expected, each
    action's expected total."""

    @property
    def rolls(self) -> int: ...

    @property
    def expected(self) -> float: ...

    def value(self, action: Action | AnnounceAction) -> float: ...


class Chances(Protocol):
    """The chances of each column's upper bonus and of a Kniffel, and which the sheet settles."""

    @property
    def bonus(self) -> Mapping[str, float]: ...

    @property
    def kniffel(self) -> float | None: ...

    @property
    def decided(self) -> frozenset[str]: ...


class Reasons(Protocol):
    """How the chances were found (exactly or by simulated games) and how precisely."""

    @property
    def method(self) -> str: ...

    @property
    def samples(self) -> int: ...

    @property
    def half_width(self) -> float: ...

    @property
    def refining(self) -> float | None: ...
