"""QR codes of a game's links: SVG to put straight into the page, text for a terminal."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import segno

__all__ = ["qr_matrix", "qr_svg", "qr_text"]

#: Dark modules on a light ground in a terminal: black on bright white, then reset.
_ANSI_ON = "\x1b[30;107m"
_ANSI_OFF = "\x1b[0m"
#: Two rows of modules in one line of text: (top dark, bottom dark) → character.
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
BORDER = 2


def _code(url: str) -> segno.QRCode:
    # Imported by the first board page, not at start: the start page shows no code
    # (docs/benchmarks.md, "Start").
    import segno

    return segno.make(url, error="m", micro=False)


@lru_cache(maxsize=256)  # every board page shows its game's code: encoded once per link
def qr_svg(url: str, title: str) -> str:
    """An inline ``<svg>`` of ``url`` that scales with its box (no fixed pixel size).

    >>> svg = qr_svg("http://127.0.0.1:8000/g/abc", "QR")
    >>> svg.startswith("<svg") and "<title>QR</title>" in svg
    True
    """
    svg: str = _code(url).svg_inline(
        scale=4,
        border=BORDER,
        dark="#1d2433",
        light="#ffffff",
        title=title,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    return svg


def qr_matrix(url: str) -> list[list[bool]]:
    """The modules of ``url``'s QR code (``True`` is dark), with its quiet zone."""
    return [[bool(m) for m in row] for row in _code(url).matrix_iter(scale=1, border=BORDER)]


def qr_text(url: str, *, ansi: bool) -> str:
    """``url``'s QR code as lines of half-block characters, two rows of modules per line.

    The characters draw the dark modules; ``ansi`` paints them black on white, as a
    terminal with a dark background needs (plain text for a file or a pipe).

    >>> lines = qr_text("http://192.168.1.20:8000/", ansi=False).splitlines()
    >>> len(lines), len(lines[0])
    (15, 29)
    """
    matrix = qr_matrix(url)
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    lines = []
    for top, bottom in zip(matrix[::2], matrix[1::2], strict=True):
        text = "".join(_HALF_BLOCKS[pair] for pair in zip(top, bottom, strict=True))
        lines.append(f"{_ANSI_ON}{text}{_ANSI_OFF}" if ansi else text)
    return "\n".join(lines)
