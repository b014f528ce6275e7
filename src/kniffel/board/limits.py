"""What the board stores: the one check that creation and import share (docs/architecture.md,
"Limits and security").

- **Names**: 1 to :data:`MAX_NAME` characters after NFC normalisation, no leading or trailing
  space, no two in one game that mean the same player (:func:`~kniffel.rules.names.player_key`: case
  and compatibility forms such as ``Ｅｖａ`` for ``Eva`` ignored), and none of the characters
  that make a name show as something else or break a terminal: control characters (ESC, BEL,
  NUL, …), line and paragraph separators, bidirectional controls (overrides, embeddings,
  isolates, marks), invisible zero-width characters (a zero-width joiner only inside an emoji
  sequence), lone surrogates, unassigned code points. A seat linked to another name after the
  game keeps the same rules.
- **House rules**: every option as the new-game form offers it; the extra-Kniffel bonus from 0 to
  :data:`MAX_KNIFFEL_BONUS`.
- **Records**: at most :data:`MAX_EVENTS` events. A full eight-player Dreifach-Kniffel game with
  three rolls every turn has 1,248 events; with an undo and a new entry after every turn, 1,872.
  An import is read and replayed inside its request, without a key (about 0.2 CPU-ms an event):
  the bound keeps one import under a CPU-second (docs/decisions.md).

The record format itself (``kniffel replay``) allows any non-blank name and any bonus; these are
the board's limits, for what it keeps and shows to every visitor.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from kniffel.board.errors import BoardError
from kniffel.rules import Options
from kniffel.rules.errors import printable
from kniffel.rules.names import player_key

__all__ = [
    "MAX_EVENTS",
    "MAX_KNIFFEL_BONUS",
    "MAX_NAME",
    "LimitError",
    "check_distinct",
    "check_options",
    "check_record_names",
    "player_name",
    "player_names",
]

MAX_NAME = 40
MAX_KNIFFEL_BONUS = 1000
MAX_EVENTS = 4_000

_ZWJ = "\u200d"
#: Invisible characters that are not "Cf" in every Unicode version, and the bidi marks.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0\u2800")


class LimitError(BoardError):
    """A name, an option or a record beyond what the board keeps (400, nothing stored)."""


def _shown(name: str) -> str:
    """A name for a message: escaped, and cut short."""
    text = name if len(name) <= MAX_NAME + 10 else name[:MAX_NAME] + "…"
    return ascii(text) if not text.isprintable() else repr(text)


def _bad_character(name: str) -> str | None:
    for i, char in enumerate(name):
        category = unicodedata.category(char)
        if char == _ZWJ:
            # Inside an emoji sequence (👩‍💻) a joiner is part of the picture.
            before = name[i - 1] if i else ""
            after = name[i + 1] if i + 1 < len(name) else ""
            if (
                before
                and after
                and unicodedata.category(after) == "So"
                and (unicodedata.category(before) in ("So", "Sk", "Mn", "Me"))
            ):
                continue
            return char
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or char in _INVISIBLE:
            return char
    return None


def player_name(name: object) -> str:
    """``name`` in NFC if the board can keep it; :class:`LimitError` says why not."""
    if not isinstance(name, str):
        raise LimitError(f"a player name is text, got {name!r}", code="player_name_blank")
    bad = _bad_character(name)
    if bad is not None:
        raise LimitError(
            f"the player name {_shown(name)} holds the invisible or control character "
            f"U+{ord(bad):04X}; names are letters, digits, signs and spaces",
            code="name_character",
            name=_shown(name),
            character=f"U+{ord(bad):04X}",
        )
    normal = unicodedata.normalize("NFC", name).strip()
    if not normal:
        raise LimitError("player names must be non-empty text", code="player_name_blank")
    if len(normal) > MAX_NAME:
        raise LimitError(
            f"a player name has at most {MAX_NAME} characters, got {len(normal):,}",
            code="name_too_long",
            max=MAX_NAME,
            got=len(normal),
        )
    return normal


def player_names(names: Sequence[object]) -> tuple[str, ...]:
    """Every name checked and normalised, no two meaning the same player (the engine checks
    the count)."""
    normal = tuple(player_name(name) for name in names)
    check_distinct(normal)
    return normal


def check_distinct(names: Sequence[str]) -> None:
    """No two names of one game mean the same player: ``Casey`` and ``casey`` would be counted
    as one player twice in every game they share (docs/board.md, "Players")."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(player_key(name), name)
        if other is not name:
            raise LimitError(
                f"player names must be distinct: {_shown(other)} and {_shown(name)} "
                "name the same player",
                code="player_names_repeat",
                name=printable(name),
            )


def check_record_names(names: Sequence[str]) -> None:
    """A record's names must already be as creation would store them (its events name them)."""
    for name in names:
        if player_name(name) != name:
            raise LimitError(
                f"the player name {_shown(name)} is not in normal form "
                "(NFC, no leading or trailing spaces)",
                code="name_not_normal",
                name=_shown(name),
            )
    check_distinct(names)


def check_options(options: Options) -> None:
    """House rules within the ranges the new-game form offers."""
    bonus = options.kniffel_bonus
    if not 0 <= bonus <= MAX_KNIFFEL_BONUS:
        digits = int(bonus.bit_length() * 0.30103) + 1
        shown = f"{bonus:,}" if bonus < 10**12 else f"a number of about {digits:,} digits"
        raise LimitError(
            f"the Kniffel bonus is 0 to {MAX_KNIFFEL_BONUS} points, got {shown}",
            code="kniffel_bonus_range",
            max=MAX_KNIFFEL_BONUS,
            got=shown,
        )
