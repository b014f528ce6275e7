"""QR codes of a game's links, as SVG to put straight into the page."""

from __future__ import annotations

import segno

__all__ = ["qr_svg"]


def qr_svg(url: str, title: str) -> str:
    """An inline ``<svg>`` of ``url`` that scales with its box (no fixed pixel size).

    >>> svg = qr_svg("http://127.0.0.1:8000/g/abc", "QR")
    >>> svg.startswith("<svg") and "<title>QR</title>" in svg
    True
    """
    code = segno.make(url, error="m", micro=False)
    svg: str = code.svg_inline(
        scale=4,
        border=2,
        dark="#1d2433",
        light="#ffffff",
        title=title,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    return svg
