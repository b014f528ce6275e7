"""The commands answer bad input with one plain line and print nothing a terminal acts on
(issue 9, findings 1 and 8: ``serve --db nonsense`` printed a traceback, a missing file Click's
usage text, ``--plot x.png`` SVG into a .png, and ``replay`` a raw ``ESC[2J``)."""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import cli

HOSTILE_NAMES = ["Eve\x1b[2J", "Bell\x07", "Nul\x00x", "\u202eevE", "An\u200bna", "C1\x9b31m"]


def _record(players: list[str]) -> str:
    events = [{"type": "enter", "player": players[0], "cell": "chance", "dice": [1, 2, 3, 4, 6]}]
    document = {"format": "kniffel-record/1", "variant": "kniffel", "players": players}
    return json.dumps({**document, "events": events}, ensure_ascii=False)


def _raw_controls(text: str) -> list[str]:
    return [
        hex(ord(c))
        for c in text
        if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")
    ]


@pytest.mark.parametrize("as_json", [False, True])
def test_replay_prints_no_raw_control_characters(as_json: bool) -> None:
    args = ["replay", "--json", "-"] if as_json else ["replay", "-"]
    result = CliRunner().invoke(cli, args, input=_record(HOSTILE_NAMES))
    assert result.exit_code == 0, result.output
    assert _raw_controls(result.stdout) == []
    if as_json:
        # The escapes are JSON's: a program reads the names exactly.
        names = [p["name"] for p in json.loads(result.stdout)["players"]]
        assert names == HOSTILE_NAMES
    else:
        assert "Eve\\x1b[2J" in result.stdout and "\\u202eevE" in result.stdout


#: Two players, one rolled turn each: enough for every command that reads a record.
def _two_turns(players: list[str]) -> str:
    events = [
        {"type": "roll", "player": players[0], "dice": [6, 6, 6, 6, 6]},
        {"type": "enter", "player": players[0], "cell": "main.chance"},
        {"type": "roll", "player": players[1], "dice": [1, 2, 3, 3, 4]},
        {"type": "enter", "player": players[1], "cell": "main.small_straight"},
        {"type": "roll", "player": players[0], "dice": [6, 6, 6, 1, 2]},
    ]
    document = {"format": "kniffel-record/1", "variant": "kniffel", "players": players}
    return json.dumps({**document, "events": events}, ensure_ascii=False)


@pytest.mark.parametrize(
    "args",
    [
        ["analyse", "-"],
        ["analyse", "--json", "-"],
        ["chances", "-"],
        ["chances", "--json", "-"],
        ["advise", "--record", "-"],
        ["advise", "--record", "-", "--json"],
    ],
    ids=" ".join,
)
def test_every_command_prints_names_without_raw_control_characters(
    args: list[str], preset_tables: None
) -> None:
    hostile = ["Eve\x1b[2J\x07", "\u202eevE\x9b31m"]
    result = CliRunner().invoke(cli, args, input=_two_turns(hostile))
    assert result.exit_code == 0, result.output
    assert _raw_controls(result.stdout) == []
    if "--json" in args:
        # The escapes are JSON's: a program reads the names exactly.
        assert any(name in result.stdout for name in ("Eve\\u001b[2J\\u0007", "Eve\\u001b"))
        assert set(hostile) & set(_strings(json.loads(result.stdout)))
    else:
        assert "Eve\\x1b[2J\\x07" in result.stdout or "\\u202eevE" in result.stdout


#: Characters that break a line for Python's ``str.splitlines`` (and for many terminals and
#: viewers) besides LF, and the controls a table drew as nothing (issue 33, item 9).
LINE_BREAKERS = ["Nel\x85Fake", "Fs\x1cGs\x1dRs\x1e", "Ls\u2028Ps\u2029", "Lf\nFake: 0"]
SWALLOWED = ["Bel\x07Bs\x08", "Vt\x0bFf\x0c", "Cr\rTab\t"]


@pytest.mark.parametrize(
    "args",
    [["analyse", "-"], ["chances", "-"], ["replay", "-"], ["advise", "--record", "-"]],
    ids=" ".join,
)
@pytest.mark.parametrize(
    "names", [LINE_BREAKERS[:2], LINE_BREAKERS[2:], SWALLOWED[:2], SWALLOWED[1:]]
)
def test_names_break_no_line_and_lose_no_character(
    args: list[str], names: list[str], preset_tables: None
) -> None:
    result = CliRunner().invoke(cli, args, input=_two_turns(names))
    assert result.exit_code == 0, result.output
    # No line break but LF, no line more than with plain names, and every name shown whole,
    # each character as an escape.
    plain = CliRunner().invoke(cli, args, input=_two_turns(["Ann", "Ben"]))
    assert result.stdout.splitlines() == result.stdout.split("\n")[:-1]
    assert result.stdout.count("\n") == plain.stdout.count("\n")
    assert _raw_controls(result.stdout) == []
    shown = names[:1] if args[0] == "advise" else names  # advise names the player to move
    for name in shown:
        escaped = "".join(c if c.isalnum() or c in " :" else ascii(c)[1:-1] for c in name)
        assert escaped in result.stdout


def _strings(value: object) -> list[str]:
    """Every string in a JSON document, keys and values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_replay_errors_quote_names_without_raw_control_characters() -> None:
    text = _record(["Eve\x1b[2J"]).replace('"chance"', '"nowhere"')
    result = CliRunner().invoke(cli, ["replay", "-"], input=text)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and _raw_controls(result.stderr) == []


def test_replay_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.json"
    result = CliRunner().invoke(cli, ["replay", str(missing)])
    assert result.exit_code == 2
    assert result.stderr == f"cannot read {missing}: No such file or directory\n"
    assert "Usage" not in result.output
    directory = CliRunner().invoke(cli, ["replay", str(tmp_path)])
    assert directory.exit_code == 2 and directory.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "url", ["nonsense", "foo://x/y", "postgresql+nodriver://h/db", "sqlite+nope:///k.db"]
)
def test_serve_with_a_bad_database_url_is_one_line(url: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"--db {url}: ")
    assert result.stdout == ""  # it did not start


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////proc/kniffel-nowhere/k.db",  # a folder that cannot be made
        "postgresql+psycopg://app:s3cret@127.0.0.1:1/app",  # nobody listens (loopback)
    ],
)
def test_serve_with_a_database_that_cannot_be_opened_is_one_line(url: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "s3cret" not in result.output
    assert result.stderr.count("\n") == 1 and "cannot be opened" in result.stderr
    assert result.stdout == ""  # it did not start


@pytest.mark.parametrize("url", ["postgresql://app@127.0.0.1:1/app", "postgresql+psycopg://h/db"])
@pytest.mark.parametrize("command", ["serve", "export"])
def test_postgresql_without_psycopg_names_the_extra_in_one_line(
    url: str, command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # psycopg is the postgres extra (pyproject.toml): an installation without it is told so.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    written = ["--csv", str(tmp_path)] if command == "export" else []
    result = CliRunner().invoke(cli, [command, "--db", url, *written])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.count("\n") == 1
    assert "kniffel[postgres]" in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_postgresql_url_without_a_driver_means_psycopg() -> None:
    # SQLAlchemy's default driver for postgresql:// is psycopg2, which the board does not install.
    result = CliRunner().invoke(cli, ["serve", "--db", "postgresql://app:s3cret@127.0.0.1:1/app"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "s3cret" not in result.output
    assert result.stderr.count("\n") == 1 and "cannot be opened" in result.stderr
    assert "psycopg2" not in result.stderr


def test_serve_keeps_a_password_out_of_the_message() -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", "mysql://user:s3cret@host/db"])
    assert result.exit_code == 2 and "s3cret" not in result.output


def test_simulate_plot_writes_svg(tmp_path: Path) -> None:
    plot = tmp_path / "x.svg"
    args = ["simulate", "--bot", "random", "--games", "3", "--plot", str(plot)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("name", ["x.jpg", "x.png", "x.pdf"])
def test_simulate_plot_refuses_another_format_before_playing(tmp_path: Path, name: str) -> None:
    """The plot is SVG (one chart stack): never SVG written under a .png or .pdf name."""
    plot = tmp_path / name
    args = ["simulate", "--bot", "random", "--games", "3", "--plot", str(plot)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "must end in .svg" in result.stderr
    assert "Usage" not in result.output and not plot.exists()


def test_a_board_setting_does_not_stop_the_solver(
    preset_tables: None, private_cache_dir: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kniffel solve`` reads only the table settings, handed to the solver by the command:
    a ``KNIFFEL_PORT`` that is no number is the board's concern (issue 22)."""
    monkeypatch.setenv("KNIFFEL_PORT", "eighty")
    result = CliRunner().invoke(cli, ["solve", "--variant", "kniffel", "--json"])
    assert result.exit_code == 0, result.output
    solved = json.loads(result.stdout)
    assert solved["cached"] is True  # read from the folder the settings name
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("setting", "value"), [("KNIFFEL_CACHE_MAX_BYTES", "lots"), ("KNIFFEL_CACHE_MAX_BYTES", "-1")]
)
@pytest.mark.parametrize("command", [["solve", "--variant", "kniffel"], ["analyse", "-"]])
def test_a_bad_table_setting_stops_a_solver_command_in_one_line(
    setting: str, value: str, command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table setting the solver cannot use is refused before the command starts, in one line
    naming it (it was a pydantic traceback from inside the solver's cache)."""
    monkeypatch.setenv(setting, value)
    result = CliRunner().invoke(cli, command, input=_record(["Anna"]))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("settings from the environment refused: ")
    assert setting in lines[0]
