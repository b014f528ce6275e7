"""The picture a chart drawn off the request shows until it is there (the end screen's
chances, the review's chart): it says why in words, and the page asks again after
``Retry-After`` (static/tafel/chances.js)."""

from __future__ import annotations

from html import escape

from starlette.responses import Response

__all__ = ["pending_chart", "pending_svg"]

#: How a chart looks while it is being drawn (the words filled in).
PLACEHOLDER = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360" '
    'role="img" data-chart-pending="{retry}"><title>{text}</title>'
    '<rect width="640" height="360" fill="#f4f4f4"/>'
    '<text x="320" y="185" text-anchor="middle" font-family="sans-serif" font-size="18" '
    'fill="#444">{text}</text></svg>'
)


def pending_svg(text: str, retry: int) -> str:
    """The placeholder saying ``text``; ``retry``: the seconds after which the page asks again."""
    return PLACEHOLDER.format(text=escape(text), retry=retry)


def pending_chart(text: str, status: int, retry: int) -> Response:
    """The placeholder as the chart's answer: 202 (being drawn) or 503 (the queue is full),
    never cached, with ``Retry-After``."""
    return Response(
        pending_svg(text, retry),
        status_code=status,
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store", "Retry-After": str(retry)},
    )
