"""The share links reach the phones at the table (issue 8): which address they carry, and why.

No test connects anywhere: the interface discovery is replaced, or its sockets are fakes.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from kniffel.settings import Settings
from kniffel.web.app import create_app
from kniffel.web.present import addresses
from kniffel.web.present.addresses import Reach, share_base
from kniffel.web.present.qr import qr_svg

LAN = "192.168.1.20"


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The machine's network addresses, as the discovery would find them."""
    found = [LAN, "10.0.0.5"]
    monkeypatch.setattr(addresses, "network_addresses", lambda: list(found))
    return found


# ------------------------------------------------------------------ the choice


@pytest.mark.parametrize(
    "page", ["http://127.0.0.1:8000", "http://localhost:8000/", "http://[::1]:8000"]
)
def test_a_loopback_page_on_a_loopback_server_keeps_its_address_and_says_so(
    page: str, lan: list[str]
) -> None:
    base = share_base(page, "127.0.0.1", None)
    assert base.reach is Reach.LOOPBACK_ONLY
    assert base.url == page.rstrip("/")


@pytest.mark.parametrize("listen", ["0.0.0.0", "::", ""])
def test_a_loopback_page_on_a_server_listening_everywhere_takes_the_network_address(
    listen: str, lan: list[str]
) -> None:
    assert share_base("http://127.0.0.1:8123/", listen, None) == addresses.ShareBase(
        f"http://{LAN}:8123", Reach.NETWORK
    )


def test_without_a_network_address_the_loopback_link_stays_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", list)
    base = share_base("http://127.0.0.1:8000", "0.0.0.0", None)
    assert (base.url, base.reach) == ("http://127.0.0.1:8000", Reach.NO_NETWORK)


def test_a_named_listen_address_is_the_network_address(lan: list[str]) -> None:
    assert share_base("http://127.0.0.1:8000", "10.0.0.11", None).url == "http://10.0.0.11:8000"
    assert share_base("http://localhost:80", "fd00::7", None).url == "http://[fd00::7]:80"


def test_a_page_opened_through_the_network_keeps_that_address(lan: list[str]) -> None:
    base = share_base("http://kniffel.fritz.box:8000/", "0.0.0.0", None)
    assert (base.url, base.reach) == ("http://kniffel.fritz.box:8000", Reach.PAGE)


def test_the_public_url_wins_over_everything(lan: list[str]) -> None:
    for page, listen in [("http://127.0.0.1:8000", "127.0.0.1"), ("http://10.0.0.3", "0.0.0.0")]:
        base = share_base(page, listen, "https://kniffel.example.org/tafel/")
        assert (base.url, base.reach) == ("https://kniffel.example.org/tafel", Reach.PUBLIC)


# ------------------------------------------------------------------ the discovery


class _FakeSocket:
    """A UDP socket whose ``connect`` answers from a routing table (and sends nothing)."""

    routes: ClassVar[dict[str, str | None]] = {}
    connected: ClassVar[list[str]] = []

    def __init__(self, family: int, kind: int) -> None:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        self.address = ""

    def __enter__(self) -> _FakeSocket:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def connect(self, target: tuple[str, int]) -> None:
        _FakeSocket.connected.append(target[0])
        route = self.routes.get(target[0])
        if route is None:
            raise OSError(101, "Network is unreachable")
        self.address = route

    def getsockname(self) -> tuple[str, int]:
        return (self.address, 40000)


@pytest.fixture
def routes(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str | None]]:
    table: dict[str, str | None] = {}
    monkeypatch.setattr(_FakeSocket, "routes", table)
    monkeypatch.setattr(_FakeSocket, "connected", [])
    monkeypatch.setattr(addresses.socket, "socket", _FakeSocket)
    yield table


def test_the_discovery_asks_the_routing_table_for_private_addresses_only(
    routes: dict[str, str | None],
) -> None:
    routes.update({"10.254.254.254": LAN, "192.168.254.254": LAN, "172.31.254.254": "172.17.0.1"})
    assert addresses.network_addresses() == [LAN, "172.17.0.1"]
    assert all(
        re.match(r"^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)", target)
        for target in _FakeSocket.connected
    )


def test_the_discovery_skips_loopback_link_local_and_unreachable_routes(
    routes: dict[str, str | None],
) -> None:
    routes.update({"10.254.254.254": "127.0.0.1", "192.168.254.254": "169.254.3.4"})
    assert addresses.network_addresses() == []


# ------------------------------------------------------------------ the settings


def test_the_public_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KNIFFEL_PUBLIC_URL", "https://kniffel.example.org/")
    assert Settings().public_url == "https://kniffel.example.org"
    monkeypatch.setenv("KNIFFEL_PUBLIC_URL", "")
    assert Settings().public_url is None


@pytest.mark.parametrize(
    "bad", ["kniffel.example.org", "ftp://x.org", "https://x.org/?a=1", "http://"]
)
def test_a_public_url_that_cannot_start_a_link_is_refused(
    monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.setenv("KNIFFEL_PUBLIC_URL", bad)
    with pytest.raises(ValidationError, match="KNIFFEL_PUBLIC_URL"):
        Settings()


# ------------------------------------------------------------------ the share dialog


def _page(tmp_path: Path, *, host: str, public_url: str | None = None, lang: str = "de") -> str:
    """The board page of a new game, opened through loopback by its creator (who holds the key)."""
    settings = Settings(db=f"sqlite:///{tmp_path / 'k.db'}", host=host, public_url=public_url)
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8000") as client:
        game: dict[str, Any] = client.post(
            "/api/games", json={"variant": "kniffel", "players": ["Anna", "Ben"]}
        ).json()
        # An old key link (the API's url keeps the key in the fragment, which is not sent).
        link = f"/g/{game['id']}?key={game['key']}&lang={lang}"
        page = client.get(link, follow_redirects=True)
        assert page.status_code == 200
        return page.text


def _share(html: str) -> tuple[str, str]:
    play = re.search(r'value="([^"]*)"[^>]*id="play-url"', html)
    watch = re.search(r'value="([^"]*)"[^>]*id="watch-url"', html)
    assert play and watch
    return play.group(1), watch.group(1)


def _qr_paths(html: str) -> list[str]:
    """The drawn modules of every QR code on the page (segno's path)."""
    return re.findall(r'<svg[^>]*class="qr"[^>]*>.*?<path stroke="[^"]*" d="([^"]+)"', html, re.S)


def _expected_path(url: str) -> str:
    found = re.search(r'<path stroke="[^"]*" d="([^"]+)"', qr_svg(url, "x"))
    assert found
    return found.group(1)


def test_a_loopback_board_on_every_address_shares_the_network_address(
    tmp_path: Path, lan: list[str]
) -> None:
    html = _page(tmp_path, host="0.0.0.0")
    play, watch = _share(html)
    assert re.fullmatch(rf"http://{LAN}:8000/g/[\w-]+#key=[\w-]+", play)
    assert watch == play.split("#")[0]
    assert _qr_paths(html) == [_expected_path(play), _expected_path(watch)]
    assert 'data-share-reach="network"' in html
    assert "Handys im selben Netz (WLAN) erreichen die Tafel" in html


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", "Handys können so nicht beitreten: Die Tafel hört nur auf 127.0.0.1"),
        ("en", "Phones cannot join like this: the board listens on 127.0.0.1 only"),
    ],
)
def test_a_loopback_only_board_says_that_phones_cannot_join_and_how_to_change_it(
    tmp_path: Path, lan: list[str], lang: str, words: str
) -> None:
    html = _page(tmp_path, host="127.0.0.1", lang=lang)
    play, _watch = _share(html)
    assert play.startswith("http://127.0.0.1:8000/g/")
    assert words in html
    assert "<code>kniffel serve --host 0.0.0.0</code>" in html


def test_the_public_url_starts_every_share_link_and_qr(tmp_path: Path, lan: list[str]) -> None:
    html = _page(tmp_path, host="0.0.0.0", public_url="https://kniffel.example.org")
    play, watch = _share(html)
    assert play.startswith("https://kniffel.example.org/g/") and "#key=" in play
    assert _qr_paths(html) == [_expected_path(play), _expected_path(watch)]
    assert "data-share-reach" not in html


def test_the_key_stays_in_the_fragment_of_the_network_link(tmp_path: Path, lan: list[str]) -> None:
    """Browsers never send a fragment: the key reaches no request line and so no log."""
    play, _watch = _share(_page(tmp_path, host="0.0.0.0"))
    address, fragment = play.split("#")
    assert "key" not in address and fragment.startswith("key=")
