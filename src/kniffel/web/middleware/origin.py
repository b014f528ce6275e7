"""Changing form posts come from the board's own pages only (docs/decisions.md, "Same-origin
form posts").

The pages change games with the key cookie, so a page of another site (or of another port on the
same host, which ``SameSite`` does not tell apart) must not be able to post those forms. Every
request that is not ``GET``, ``HEAD`` or ``OPTIONS`` to a page path (everything but ``/api/``) is
checked:

- ``Sec-Fetch-Site`` (sent by every current browser) must be ``same-origin`` (or ``none``: typed
  by the user);
- otherwise ``Origin`` (sent with every ``POST`` by browsers since 2020) must name this scheme,
  host and port (``Origin: null`` never does): ``http://`` pages of the board's host are another
  origin than the board served over ``https://`` (the scheme as uvicorn saw it, or as a trusted
  proxy's ``X-Forwarded-Proto`` says), or the origin of ``--public-url``;
- a request with neither header is let through: it does not come from a browser that could carry
  a visitor's cookie to another site's form (programs such as ``curl`` send neither).

A refusal answers 403 with the usual error JSON and changes nothing. The JSON API (``/api/``)
takes its key only from the ``X-Kniffel-Key`` header or the ``key`` parameter, never from a
cookie, so another site cannot borrow it; it is not checked.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from kniffel.web.middleware.errors import error_response

__all__ = ["CROSS_ORIGIN_MESSAGE", "SameOriginForms", "is_same_origin"]

CROSS_ORIGIN_MESSAGE = (
    "refused: this form was sent from another site; open the game's own page to change it"
)
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
_SAME_SITE = {"same-origin", "none"}


def is_same_origin(headers: Headers, scheme: str = "http") -> bool:
    """Whether a changing request, which came over ``scheme``, may be taken (the rules in the
    module text)."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.strip().lower() in _SAME_SITE
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "").strip().lower()
    try:
        parts = urlsplit(origin.strip())
        netloc = parts.netloc.lower()
        if parts.port is None and parts.scheme in ("http", "https"):
            default = "80" if parts.scheme == "http" else "443"
            host = host.removesuffix(f":{default}")
    except ValueError:
        return False
    return bool(netloc) and parts.scheme == scheme and netloc == host


def _origin_of(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class SameOriginForms:
    """ASGI middleware: refuses changing page requests from another origin with 403."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        #: The public address's origin (``https://tafel.example.org``): the pages' own.
        self.public_origin = _origin_of(public_url)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in _SAFE_METHODS
            and not scope["path"].startswith("/api/")
            and not self._taken(Headers(scope=scope), str(scope.get("scheme", "http")))
        ):
            response = error_response(403, CROSS_ORIGIN_MESSAGE, code="cross_origin")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _taken(self, headers: Headers, scheme: str) -> bool:
        if is_same_origin(headers, scheme):
            return True
        origin = headers.get("origin")
        return (
            self.public_origin is not None
            and "sec-fetch-site" not in headers
            and origin is not None
            and origin.strip().lower() == self.public_origin
        )
