"""No game key in a log line: the access log shows ``key=[hidden]`` (docs/architecture.md,
"Security").

The board's own links keep the key out of addresses (the play link carries it in the fragment,
which browsers never send), but links of older versions (``/g/ID?key=…``) and API clients
(``?key=`` instead of the ``X-Kniffel-Key`` header) still put it into the request line that
uvicorn's access log writes. A filter on that logger rewrites the line before any handler sees it.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

__all__ = ["ACCESS_LOGGER", "HIDDEN", "HideKeys", "hide_keys", "install"]

ACCESS_LOGGER = "uvicorn.access"
HIDDEN = "[hidden]"
#: A query parameter: its name and its value (up to the next ``&``, ``#``, space or quote).
_PARAMETER = re.compile(r"([?&;])([^=&#;\s\"]*)=([^&#;\s\"]*)")
#: The names the board reads a key from, as the app decodes them (``%6Bey`` is ``key``).
_KEY_NAMES = frozenset({"key", "kniffel_key"})


def hide_keys(text: str) -> str:
    """``text`` with the value of every ``key=`` query parameter hidden.

    The name counts as the app reads it, decoded: ``%6Bey=`` and ``KEY=`` are hidden too.

    >>> hide_keys('GET /g/abc?lang=de&key=s3cr3t HTTP/1.1')
    'GET /g/abc?lang=de&key=[hidden] HTTP/1.1'
    >>> hide_keys('GET /api/games/abc?%6Bey=s3cr3t HTTP/1.1')
    'GET /api/games/abc?%6Bey=[hidden] HTTP/1.1'
    """

    if "=" not in text:  # no parameter with a value: most lines (every request has one)
        return text

    def hidden(found: re.Match[str]) -> str:
        name = unquote_plus(found.group(2)).strip().casefold()
        if name in _KEY_NAMES:
            return f"{found.group(1)}{found.group(2)}={HIDDEN}"
        return found.group(0)

    return _PARAMETER.sub(hidden, text)


class HideKeys(logging.Filter):
    """Hides keys in a record's message and in its arguments (uvicorn passes the path as one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = hide_keys(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide_keys(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Puts the filter on uvicorn's access logger (once; a logging config keeps it)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, HideKeys) for f in logger.filters):
        logger.addFilter(HideKeys())
