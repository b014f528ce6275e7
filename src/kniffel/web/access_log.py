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

__all__ = ["ACCESS_LOGGER", "HIDDEN", "HideKeys", "hide_keys", "install"]

ACCESS_LOGGER = "uvicorn.access"
HIDDEN = "[hidden]"
_KEY = re.compile(r"([?&](?:key|kniffel_key)=)[^&#\s\"]*", re.IGNORECASE)


def hide_keys(text: str) -> str:
    """``text`` with the value of every ``key=`` query parameter hidden.

    >>> hide_keys('GET /g/abc?lang=de&key=s3cr3t HTTP/1.1')
    'GET /g/abc?lang=de&key=[hidden] HTTP/1.1'
    """
    return _KEY.sub(rf"\g<1>{HIDDEN}", text)


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
