"""``kniffel serve`` says where phones at the table join, with a QR code in the terminal (issue 8).

The server is never started (``uvicorn.run`` is replaced) and the interface discovery is
replaced: nothing here connects anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.web.present import addresses
from kniffel.web.present.qr import qr_matrix

#: The half-block characters back to their two modules (top, bottom); ``True`` is dark.
_MODULES = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def _decoded(lines: list[str]) -> list[list[bool]]:
    """The modules a terminal QR code draws, read back from its characters."""
    matrix: list[list[bool]] = []
    for line in lines:
        pairs = [_MODULES[char] for char in line]
        matrix.append([top for top, _ in pairs])
        matrix.append([bottom for _, bottom in pairs])
    return matrix


def _qr_after(output: str, heading: str) -> list[list[bool]]:
    lines = output.splitlines()
    start = lines.index(heading) + 1
    block = [line for line in lines[start:] if line and set(line) <= set(_MODULES)]
    size = len(block[0])
    return _decoded(block[: (size + 1) // 2])[:size]


class _Served:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, app: Any, **kwargs: Any) -> None:
        self.calls.append({"app": app, **kwargs})


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _Served:
    import uvicorn

    runs = _Served()
    monkeypatch.setattr(uvicorn, "run", runs)
    monkeypatch.setenv("KNIFFEL_DB", f"sqlite:///{tmp_path}/k.db")
    for name in ("KNIFFEL_HOST", "KNIFFEL_PORT", "KNIFFEL_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    return runs


def test_serving_on_every_address_prints_the_network_addresses_and_a_qr_code(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Die Tafel: http://127.0.0.1:8123/  (games in ")
    assert "On the network: http://192.168.1.20:8123/" in lines
    assert "On the network: http://10.0.0.5:8123/" in lines
    heading = "Scan to open http://192.168.1.20:8123/ on a phone:"
    assert _qr_after(result.output, heading) == qr_matrix("http://192.168.1.20:8123/")
    assert "\x1b[" not in result.output  # not a terminal: plain characters
    (call,) = served.calls
    assert (call["host"], call["port"]) == ("0.0.0.0", 8123)


def test_serving_on_loopback_says_phones_cannot_join_and_how_to_change_it(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", lambda: ["192.168.1.20"])
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert "Only this computer can open it" in result.output
    assert "kniffel serve --host 0.0.0.0" in result.output
    assert "192.168.1.20" not in result.output and "Scan" not in result.output


def test_serving_without_a_network_address_says_so(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", list)
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert "No network address of this computer was found" in result.output


def test_the_public_url_is_printed_with_its_qr_code_and_reaches_the_app(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", lambda: ["192.168.1.20"])
    args = ["serve", "--host", "0.0.0.0", "--public-url", "https://kniffel.example.org/"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Phones join at https://kniffel.example.org/ (--public-url)" in result.output
    heading = "Scan to open https://kniffel.example.org/ on a phone:"
    assert _qr_after(result.output, heading) == qr_matrix("https://kniffel.example.org/")
    (call,) = served.calls
    assert call["app"].state.settings.public_url == "https://kniffel.example.org"


def test_the_public_url_from_the_environment_is_used(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNIFFEL_PUBLIC_URL", "https://tafel.example.org")
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert "Phones join at https://tafel.example.org/" in result.output


def test_a_bad_public_url_is_refused_in_one_line(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = CliRunner().invoke(cli, ["serve", "--public-url", "kniffel.example.org"])
    assert result.exit_code == 2
    assert "must start with http:// or https://" in result.output
    monkeypatch.setenv("KNIFFEL_PUBLIC_URL", "ftp://x.org")
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "settings from the environment refused: KNIFFEL_PUBLIC_URL 'ftp://x.org': it must "
        "start with http:// or https:// and name a host, e.g. https://kniffel.example.org"
    ]
    monkeypatch.delenv("KNIFFEL_PUBLIC_URL")
    monkeypatch.setenv("KNIFFEL_PORT", "eighty")
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2
    assert result.output.startswith("settings from the environment refused: KNIFFEL_PORT: ")
    assert served.calls == []


def test_every_worker_process_gets_the_public_url(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kniffel.cli import serve as serve_module

    monkeypatch.setattr(serve_module, "_check_opens", lambda url: None)
    # The command leaves its settings in the environment for the workers: undone afterwards.
    names = ("KNIFFEL_DB", "KNIFFEL_WORKERS", "KNIFFEL_METRICS", "KNIFFEL_MAX_BODY")
    for name in (*names, "KNIFFEL_MAX_ACTIVE"):
        monkeypatch.setenv(name, os.environ.get(name, "unset"))
        monkeypatch.delenv(name)
    url = "postgresql+psycopg://app:secret@127.0.0.1:5999/app"
    args = ["serve", "--db", url, "--workers", "2", "--public-url", "https://k.example.org"]
    result = CliRunner().invoke(cli, [*args, "--max-active", "6"])
    assert result.exit_code == 0, result.output
    assert os.environ["KNIFFEL_PUBLIC_URL"] == "https://k.example.org"
    assert os.environ["KNIFFEL_MAX_ACTIVE"] == "6"
    assert served.calls[0]["workers"] == 2


def test_the_turns_bound_is_an_option(served: _Served) -> None:
    result = CliRunner().invoke(cli, ["serve", "--max-active", "2"])
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert call["app"].state.settings.max_active == 2
    result = CliRunner().invoke(cli, ["serve", "--max-active", "-1"])
    assert result.exit_code == 2 and "--max-active" in result.output


def test_live_messages_are_sent_uncompressed(served: _Served) -> None:
    # A live message is a few bytes; per-message deflate only cost both ends CPU
    # (docs/benchmarks.md, "Live updates").
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert call["ws_per_message_deflate"] is False
    assert call["ws"] == "websockets-sansio"


#: A self-signed certificate for ``tafel.test`` and 127.0.0.1 with its key, made for these tests
#: alone (``openssl req -x509 -newkey rsa:2048 -nodes -days 36500``); it protects nothing.
_TLS = Path(__file__).parent / "data" / "tls"


def test_a_certificate_serves_https_and_the_addresses_say_so(
    served: _Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "network_addresses", lambda: ["192.168.1.20"])
    cert, key = str(_TLS / "tafel.test.pem"), str(_TLS / "tafel.test.key")
    args = ["serve", "--host", "0.0.0.0", "--ssl-certfile", cert, "--ssl-keyfile", key]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Die Tafel: https://127.0.0.1:8000/")
    assert "On the network: https://192.168.1.20:8000/" in result.output.splitlines()
    (call,) = served.calls
    assert (call["ssl_certfile"], call["ssl_keyfile"]) == (cert, key)


def test_a_certificate_that_does_not_load_is_refused_in_one_line(served: _Served) -> None:
    cert = str(_TLS / "tafel.test.pem")
    result = CliRunner().invoke(cli, ["serve", "--ssl-certfile", cert])  # the key is elsewhere
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"--ssl-certfile {cert}: the certificate and its key cannot be loaded")
    key = str(_TLS / "tafel.test.key")
    result = CliRunner().invoke(cli, ["serve", "--ssl-keyfile", key])
    assert result.exit_code == 2
    assert "--ssl-keyfile needs --ssl-certfile" in result.output
    assert served.calls == []
