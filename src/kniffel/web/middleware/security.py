"""The headers every answer of the board carries (docs/architecture.md, "Security").

- ``Content-Security-Policy``: scripts, styles, pictures and connections only from the board
  itself; no inline script or style, no ``eval`` (htmx runs with ``allowEval`` off and without
  its indicator styles), no frames around the board (``frame-ancestors 'none'``), forms post
  only to the board.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, ``X-Frame-Options: DENY``
  (for browsers without ``frame-ancestors``).
- The API's own pages ``/docs`` (Swagger UI) and ``/redoc`` get a policy of their own
  (:data:`DOCS_CSP`): FastAPI builds them from scripts, styles and fonts on public CDNs and an
  inline script or style, which the board's policy refused (the pages stayed blank). They show
  the static OpenAPI description only, never a game, a name or a key.
- Pages (HTML) may hold a game's key (the share box shows the play link): they are never stored
  by a browser or a proxy (``Cache-Control: no-store``) and vary with the cookie that holds the
  key (``Vary: Cookie``).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "DOCS_CSP", "DOCS_PATHS", "SecurityHeaders"]

CSP = "; ".join(
    (
        "default-src 'self'",
        # WebAssembly from the board's own scripts: the rules in the page run in Pyodide when the
        # board is offline (docs/decisions.md, "The board offline"). JavaScript's eval stays off.
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

#: The API's documentation pages (FastAPI's Swagger UI and ReDoc).
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
_CDN = "https://cdn.jsdelivr.net"
DOCS_CSP = "; ".join(
    (
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {_CDN}",
        f"style-src 'self' 'unsafe-inline' {_CDN} https://fonts.googleapis.com",
        "font-src 'self' https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
_DOCS_RAW = (b"content-security-policy", DOCS_CSP.encode("latin-1"))

_ALWAYS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
#: The same as raw ASGI header pairs, encoded once (every answer carries them).
_ALWAYS_RAW = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in _ALWAYS.items()]


class SecurityHeaders:
    """ASGI middleware: adds the headers above to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        docs = scope["path"] in DOCS_PATHS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # On the raw pairs: this runs for every answer (docs/benchmarks.md, "Load").
                raw = list(message.get("headers", ()))
                if docs:
                    raw.append(_DOCS_RAW)
                present = {name.lower() for name, _ in raw}
                raw += [pair for pair in _ALWAYS_RAW if pair[0] not in present]
                message["headers"] = raw
                html = any(
                    name.lower() == b"content-type" and value.startswith(b"text/html")
                    for name, value in raw
                )
                if html:
                    headers = MutableHeaders(scope=message)
                    headers["cache-control"] = "no-store"
                    headers.add_vary_header("Cookie")
            await send(message)

        await self.app(scope, receive, send_with_headers)
