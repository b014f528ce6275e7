"""Which address the share links carry, so that phones at the table can join (docs/board.md).

A page opened as the README says (http://127.0.0.1:8000) would otherwise hand every phone a link
to 127.0.0.1, which is the phone itself. The rule (:func:`share_base`):

1. ``--public-url`` / ``KNIFFEL_PUBLIC_URL`` wins over everything (a board behind a proxy);
2. a page opened through any other address than loopback keeps that address (it reached the
   board, so the phones can too);
3. a page opened through loopback takes this machine's network address when the server listens
   on one (``--host 0.0.0.0`` or a named address), and otherwise says that phones cannot join.

The network addresses are found without sending anything (:func:`network_addresses`).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

__all__ = [
    "Reach",
    "ShareBase",
    "host_in_url",
    "is_loopback",
    "is_wildcard",
    "network_addresses",
    "share_base",
]

#: Addresses the routing table is asked about: ``connect()`` on a UDP socket picks the outgoing
#: interface and sends no packet. Private ranges, so that no public address is ever named.
_ROUTE_PROBES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")


class Reach(StrEnum):
    """Where the share links point, and so what the share dialog says about it."""

    PUBLIC = "public"  #: the configured public URL
    PAGE = "page"  #: the address the page was opened with (not loopback)
    NETWORK = "network"  #: this machine's network address, for a page opened through loopback
    LOOPBACK_ONLY = "loopback_only"  #: the server listens on loopback: phones cannot join
    NO_NETWORK = "no_network"  #: it listens on every address, but none was found


@dataclass(frozen=True, slots=True)
class ShareBase:
    """The start of every share link (``scheme://host:port``, no slash) and how it was chosen."""

    url: str
    reach: Reach


def is_loopback(host: str | None) -> bool:
    """``localhost``, 127.0.0.0/8 and ``::1`` (with or without brackets).

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "[::1]", "192.168.1.20", "0.0.0.0")]
    [True, True, True, False, False]
    """
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str | None) -> bool:
    """An address that means every interface: ``0.0.0.0``, ``::`` or empty.

    >>> [is_wildcard(h) for h in ("0.0.0.0", "::", "", "127.0.0.1")]
    [True, True, True, False]
    """
    if not host:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def host_in_url(host: str) -> str:
    """A host as it stands in a URL: IPv6 addresses in brackets.

    >>> host_in_url("192.168.1.20"), host_in_url("fd00::7")
    ('192.168.1.20', '[fd00::7]')
    """
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _reachable(address: str) -> bool:
    """An address another device may reach: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses that phones on its network can reach, best first.

    Asks the routing table which interface would carry a packet to a private address
    (``connect()`` on a UDP socket sends nothing), so it never touches the network and
    needs no name lookup. Empty when the machine has no such route.
    """
    found: list[str] = []
    for probe in _ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = str(sock.getsockname()[0])
        except OSError:
            continue
        if _reachable(address) and address not in found:
            found.append(address)
    return found


def share_base(page_base: str, listen_host: str, public_url: str | None) -> ShareBase:
    """The base of the share links for a page opened at ``page_base``.

    ``listen_host`` is the address the server listens on (``KNIFFEL_HOST``). The port stays
    the page's: a page opened through loopback reached the server itself.

    >>> share_base("http://127.0.0.1:8000", "127.0.0.1", None)
    ShareBase(url='http://127.0.0.1:8000', reach=<Reach.LOOPBACK_ONLY: 'loopback_only'>)
    >>> share_base("http://127.0.0.1:8000", "192.168.1.20", None).url
    'http://192.168.1.20:8000'
    >>> share_base("http://127.0.0.1:8000", "0.0.0.0", "https://kniffel.example.org/").url
    'https://kniffel.example.org'
    """
    if public_url:
        return ShareBase(public_url.rstrip("/"), Reach.PUBLIC)
    page_base = page_base.rstrip("/")
    parts = urlsplit(page_base)
    if not is_loopback(parts.hostname):
        return ShareBase(page_base, Reach.PAGE)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if is_loopback(listen_host):
        return ShareBase(page_base, Reach.LOOPBACK_ONLY)
    if is_wildcard(listen_host):
        addresses = network_addresses()
        if not addresses:
            return ShareBase(page_base, Reach.NO_NETWORK)
        host = addresses[0]
    else:
        host = listen_host
    return ShareBase(f"{parts.scheme}://{host_in_url(host)}:{port}", Reach.NETWORK)
