"""kniffel: die Tafel — a Kniffel score board with rules engine, game records and advice."""

from __future__ import annotations

__version__ = "0.1.0"
