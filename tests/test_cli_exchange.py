"""``kniffel export --csv/--records`` and ``kniffel import``: everything out and back in."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

from click.testing import CliRunner

from kniffel.board.hub import LocalHub
from kniffel.board.players.exchange import GAME_COLUMNS, PLAYER_COLUMNS
from kniffel.board.players.sample import random_record
from kniffel.board.players.spreadsheet import spreadsheet_cell
from kniffel.board.service import GameService
from kniffel.cli import cli
from kniffel.store import GameStore


def _fill(url: str) -> dict[str, list[int]]:
    """Three finished games and one running; returns each finished game's totals by id.

    The ids are as the CSV writes them: a random id may start with ``-``, which the CSV quotes
    like any text that a spreadsheet program would take for a formula.
    """
    store = GameStore.open(url)
    service = GameService(store, LocalHub())
    totals = {}
    for seed, players in enumerate([["Anna", "Ben"], ["ben", "Cleo"], ["Anna"]]):
        view = service.import_record(random_record("kniffel", players, random.Random(seed)))
        totals[str(spreadsheet_cell(view.id))] = view.game.returns()
    running = random_record("kniffel", ["Anna", "Ben"], random.Random(9))
    running["events"] = running["events"][:4]  # a game still running
    service.import_record(running)
    store.close()
    return totals


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_export_csv_writes_every_seat_and_every_player(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    totals = _fill(url)
    result = CliRunner().invoke(cli, ["export", "--csv", str(tmp_path / "out"), "--db", url])
    assert result.exit_code == 0, result.output
    games = (tmp_path / "out" / "games.csv").read_text(encoding="utf-8-sig")
    assert games.splitlines()[0].split(",") == list(GAME_COLUMNS)
    rows = _rows(games)
    assert len(rows) == 5  # 2 + 2 + 1 seats of the finished games; the running game is not there
    for row in rows:
        assert int(row["total"]) == totals[row["game"]][int(row["seat"])]
    players = _rows((tmp_path / "out" / "players.csv").read_text(encoding="utf-8-sig"))
    assert list(players[0]) == list(PLAYER_COLUMNS)
    by_key = {p["player"]: p for p in players}
    assert set(by_key) == {"anna", "ben", "cleo"}
    anna = [
        t[0] for g, t in totals.items() if g in {r["game"] for r in rows if r["player"] == "anna"}
    ]
    assert int(by_key["anna"]["games"]) == 2
    assert float(by_key["anna"]["mean"]) == round(sum(anna) / 2, 2)
    assert float(by_key["anna"]["bot_mean"]) == 246.10


def test_records_go_out_and_come_back_in_and_bad_files_are_named(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    _fill(url)
    out = tmp_path / "records"
    result = CliRunner().invoke(cli, ["export", "--records", str(out), "--db", url])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("kniffel-*.json"))
    assert len(files) == 4
    broken = json.loads(files[0].read_text(encoding="utf-8"))
    broken["events"] = [{"type": "enter", "player": "Nobody", "cell": "main.ones", "points": 1}]
    (out / "z-broken.json").write_text(json.dumps(broken), encoding="utf-8")
    (out / "z-not-json.json").write_text("{not json", encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    back = CliRunner().invoke(cli, ["import", str(out), "--db", other])
    assert back.exit_code == 1
    assert back.stdout.strip() == "4 stored, 2 refused"
    lines = back.stderr.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("z-broken.json: refused: event 1:")
    assert lines[1].startswith("z-not-json.json: refused: ")
    first = CliRunner().invoke(cli, ["export", "--csv", str(tmp_path / "a"), "--db", url])
    second = CliRunner().invoke(cli, ["export", "--csv", str(tmp_path / "b"), "--db", other])
    assert first.exit_code == second.exit_code == 0

    def totals(folder: str) -> list[tuple[str, str, str]]:
        rows = _rows((tmp_path / folder / "games.csv").read_text(encoding="utf-8-sig"))
        return sorted((r["player"], r["variant"], r["total"]) for r in rows)

    assert totals("a") == totals("b")


def test_export_needs_a_target(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["export", "--db", f"sqlite:///{tmp_path / 'k.db'}"])
    assert result.exit_code == 2 and "--csv DIR" in result.output


#: Names a spreadsheet program would take for formulas (OWASP, "CSV injection").
FORMULAS = ["=cmd|' /C calc'!A0", "+SUM(1+1)", "@SUM(A1:A9)", "-2+3+cmd|' /C calc'!A0"]


def test_export_csv_names_never_become_formulas_and_open_as_utf8(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    store = GameStore.open(url)
    service = GameService(store, LocalHub())
    for seed, name in enumerate(FORMULAS):
        record = random_record("kniffel", [name, "Çağla"], random.Random(seed))
        service.import_record(record)
    store.close()
    result = CliRunner().invoke(cli, ["export", "--csv", str(tmp_path / "out"), "--db", url])
    assert result.exit_code == 0, result.output
    for file in ("games.csv", "players.csv"):
        raw = (tmp_path / "out" / file).read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")  # the UTF-8 byte order mark
        rows = _rows(raw.decode("utf-8-sig"))
        names = {row["name"] for row in rows}
        assert names == {"'" + name for name in FORMULAS} | {"Çağla"}, file
        for row in rows:
            # No cell at all starts like a formula, except numbers such as a negative trend.
            for value in row.values():
                if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    float(value)
    games = _rows((tmp_path / "out" / "games.csv").read_text(encoding="utf-8-sig"))
    for row in games:
        assert len(row["upper_bonus"]) == 1 and row["upper_bonus"] in "01"  # one column
