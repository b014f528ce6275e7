"""``kniffel replay``: the sheets as text or JSON, and one plain line for a broken record."""

from __future__ import annotations

import doctest
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from kniffel.cli import cli
from kniffel.record import FORMAT, loads, replay, state_dict
from kniffel.rules import ROWS as KNIFFEL_ROWS

ROOT = Path(__file__).parent.parent
ROWS = [row.value for row in KNIFFEL_ROWS]

EVENTS: list[dict[str, Any]] = [
    {"type": "enter", "player": "Anna", "cell": "down.ones", "dice": [1, 1, 1, 5, 6]},
    {"type": "enter", "player": "Ben", "cell": "up.chance", "dice": [6, 6, 5, 5, 4]},
    {"type": "enter", "player": "Anna", "cell": "free.sixes", "points": 24},
    {"type": "roll", "player": "Ben", "dice": [2, 3, 3, 5, 6]},
]


def record(*events: Any, **fields: Any) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": "rauf-runter",
        "players": ["Anna", "Ben"],
        "events": list(events),
        **fields,
    }


def run(tmp_path: Path, content: Any, *options: str) -> Result:
    """Replay ``content`` (a record, or raw text or bytes) from a file."""
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["replay", *options, str(path)])


def assert_refused(result: Result, words: str) -> str:
    """Exit status 2, nothing on stdout, one line on stderr naming the problem."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert words in result.stderr
    return result.stderr.rstrip("\n")


def cells_of(sheet_line: str) -> list[str]:
    """``'Dreier   [ ]   ·   ·'`` as ``['Dreier', '[ ]', '·', '·']``."""
    return re.split(r"\s{2,}", sheet_line.strip())


def sheet_of(output: str, player: str) -> list[list[str]]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{player}: "))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Gesamt"))
    return [cells_of(line) for line in lines[start + 1 : end + 1] if not set(line) <= {"-", "="}]


# ------------------------------------------------------------------ the sheets


def test_text_shows_the_sheets_with_due_cells_whose_turn_and_totals(tmp_path: Path) -> None:
    result = run(tmp_path, record(*EVENTS))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("Rauf-Runter-Kniffel (rauf-runter)\n")
    assert "Anna: 27 Punkte\n" in out
    assert "Ben: 26 Punkte  ← am Zug\n" in out
    assert "Am Zug: Ben (Wurf 1 von 3, Würfel 23356)" in out
    header, *lines = sheet_of(out, "Anna")
    assert header == ["↓ Runter", "↑ Rauf", "Frei"]
    anna = {line[0]: line[1:] for line in lines}
    assert anna["Einser"] == ["3", "·", "·"]
    assert anna["Zweier"] == ["[ ]", "·", "·"], "down is due at Zweier"
    assert anna["Chance"] == ["·", "[ ]", "·"], "up is due at Chance"
    assert anna["Sechser"] == ["·", "·", "24"]
    assert anna["Summe oben"] == ["3", "0", "24"]
    assert anna["Gesamt"] == ["3", "0", "24"]
    ben = {row[0]: row[1:] for row in sheet_of(out, "Ben")}
    assert ben["Einser"] == ["[ ]", "·", "·"]
    assert ben["Chance"] == ["·", "26", "·"]
    assert ben["Kniffel"] == ["·", "[ ]", "·"]
    assert ben["Summe unten"] == ["0", "26", "0"]


def test_lang_en_prints_english_sheets(tmp_path: Path) -> None:
    result = run(tmp_path, record(*EVENTS), "--lang", "en")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Rauf-Runter-Kniffel (up and down) (rauf-runter)\n")
    assert "Anna: 27 points\n" in out
    assert "Ben: 26 points  ← to move\n" in out
    assert "To move: Ben (roll 1 of 3, dice 23356)" in out
    assert "Punkte" not in out and "Einser" not in out
    lines = out.splitlines()
    assert lines[3].split() == ["↓", "Down", "↑", "Up", "Free"]
    assert any(line.startswith("Three of a kind ") for line in lines)
    assert any(line.startswith("Upper sum ") for line in lines)


@pytest.mark.parametrize(
    ("lang", "header", "total"),
    [
        ("hr", "↓ Dolje   ↑ Gore   Slobodna", "Anna: 27 bodova"),
        ("sr-Latn", "↓ Na dole   ↑ Na gore   Slobodna", "Anna: 27 poena"),
    ],
)
def test_lang_hr_and_sr_latn_print_the_sheets_as_jamb_players_read_them(
    tmp_path: Path, lang: str, header: str, total: str
) -> None:
    result = run(tmp_path, record(*EVENTS), "--lang", lang)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert total in out and "Einser" not in out and "Punkte" not in out
    rows = [line.split("  ")[0] for line in out.splitlines()]
    assert "Jedinice" in rows and "Šestice" in rows and "Triling" in rows
    assert out.splitlines()[3].split() == header.split()


def test_lang_fr_prints_french_sheets_and_an_unknown_language_is_refused(tmp_path: Path) -> None:
    result = run(tmp_path, record(*EVENTS), "--lang", "fr")
    assert result.exit_code == 0, result.stderr
    rows = [line.split("  ")[0] for line in result.stdout.splitlines()]
    assert "Brelan" in rows and "Carré" in rows and "Petite suite" in rows
    refused = run(tmp_path, record(*EVENTS), "--lang", "sr-Cyrl")
    assert refused.exit_code == 2 and "sr-Latn" in refused.stderr


def test_the_yahtzee_preset_says_yahtzee_in_english(tmp_path: Path) -> None:
    result = run(tmp_path, record(variant="yahtzee"), "--lang", "en")
    assert result.exit_code == 0, result.stderr
    rows = [line.split("  ")[0] for line in result.stdout.splitlines()]
    assert "Yahtzee" in rows and "Yahtzee bonus" in rows
    assert "Kniffel" not in result.stdout


def test_text_of_a_finished_game_names_the_winners(tmp_path: Path) -> None:
    events = [
        {"type": "enter", "player": name, "cell": row, "points": 5 if row == "chance" else 0}
        for row in ROWS
        for name in ("Anna", "Ben")
    ]
    result = run(tmp_path, record(*events, variant="kniffel"))
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith("Spiel beendet. Gewinner (Gleichstand): Anna, Ben")
    assert "am Zug" not in result.stdout and "[ ]" not in result.stdout


def test_json_prints_the_state(tmp_path: Path) -> None:
    document = record(*EVENTS)
    result = run(tmp_path, document, "--json")
    assert result.exit_code == 0
    state = json.loads(result.stdout)
    assert state == state_dict(replay(loads(json.dumps(document))))
    assert state["turn"] == {
        "player": "Ben",
        "rolls": 1,
        "dice": [2, 3, 3, 5, 6],
        "allowed": ["down.ones", "up.kniffel", *(f"free.{r}" for r in ROWS)],
    }
    assert [p["total"] for p in state["players"]] == [27, 26]


ROWS = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "kniffel",
    "chance",
]


def test_a_dash_reads_standard_input() -> None:
    text = json.dumps(record(*EVENTS))
    result = CliRunner().invoke(cli, ["replay", "--json", "-"], input=text)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["turn"]["player"] == "Ben"
    result = CliRunner().invoke(cli, ["replay", "-"], input="{")
    assert_refused(result, "the file is not valid JSON")


def test_the_readme_replay_commands_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line for line in readme.splitlines() if line.startswith("uv run kniffel replay")]
    assert commands
    for command in commands:
        args = shlex.split(command)[3:]
        result = CliRunner().invoke(cli, args, catch_exceptions=False, standalone_mode=True)
        assert result.exit_code == 0, (command, result.stderr)


def fenced_blocks(markdown: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def test_the_example_of_the_record_format_replays_as_documented(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    example, printed = fenced_blocks(page, "json")[0], fenced_blocks(page, "text")[0]
    result = run(tmp_path, example)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == printed


def test_the_python_examples_of_the_record_format_run() -> None:
    path = ROOT / "docs" / "record-format.md"
    outcome = doctest.testfile(str(path), module_relative=False, encoding="utf-8")
    assert outcome.attempted > 0 and outcome.failed == 0


# ------------------------------------------------------------ a broken file


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{", "the file is not valid JSON"),
        ("", "the file is not valid JSON"),
        (b"\xff\xfe\x00", "the file is not valid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ("42", "a record is a JSON object"),
        (record(format="kniffel-record/0"), "the format must be 'kniffel-record/1'"),
        ({"variant": "kniffel", "players": ["Anna"]}, "the format must be 'kniffel-record/1'"),
        (record(variant="kniffel-deluxe"), "unknown variant 'kniffel-deluxe'"),
        (record(variant=None), "unknown variant null"),
        (record(options={"extra_turn": True}), "unknown option 'extra_turn'"),
        (record(options={"chance": "no"}), "option chance must be true or false"),
        (record(options={"kniffel_bonus": -100}), "kniffel_bonus must be 0 or a positive"),
        (record(options={"pasch": "half"}), "option pasch must be one of all_dice, matching_dice"),
        (record(options=[1]), "options must be a JSON object"),
        (record(players=[]), "players must be a list of 1 to 8 names"),
        (record(players=[f"P{i}" for i in range(9)]), "players must be a list of 1 to 8 names"),
        (record(players=["Anna", "Anna"]), "player names must be distinct"),
        (record(players=["Anna", ""]), "every player name must be non-blank text"),
        (record(players=["Anna", "\t "]), "every player name must be non-blank text"),
        (record(players=["Anna", None]), "every player name must be non-blank text"),
        (record(players=["Anna", ["Ben"]]), "every player name must be non-blank text"),
        (record(players=None), "players must be a list of 1 to 8 names"),
        (record(events="none"), "events must be a list"),
        (record(events={"type": "undo"}), "events must be a list"),
    ],
)
def test_a_broken_file_exits_2_with_one_line(tmp_path: Path, content: Any, words: str) -> None:
    line = assert_refused(run(tmp_path, content), words)
    assert not line.startswith("event ")


def test_a_missing_file_exits_2_without_a_traceback(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2
    assert "nowhere.json" in result.stderr
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------ a bad event


GOOD = {"type": "enter", "player": "Anna", "cell": "down.ones", "points": 3}


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "enter", "player": "Ben", "cell": "down.ones", "points": 12.0}, "got 12.0"),
        ({"type": "enter", "player": "Ben", "cell": "down.ones", "points": True}, "got true"),
        ({"type": "enter", "player": "Ben", "cell": "down.ones", "points": "12"}, "got '12'"),
        ({"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 5.0]}, "whole number, got 5.0"),
        ({"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, True]}, "whole number, got true"),
        ({"type": "roll", "player": "Ben", "dice": ["1", 2, 3, 4, 5]}, "whole number, got '1'"),
        ({"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 5], "keep": [1.0]}, "got 1.0"),
        ({"type": "roll", "player": "Ben", "dice": None}, "a roll event needs 'dice'"),
        ({"type": "roll", "player": None, "dice": [1, 2, 3, 4, 5]}, "needs 'player'"),
        ({"type": "enter", "player": "Ben", "cell": None, "points": 1}, "needs 'cell'"),
        ({"type": "edit", "player": "Anna", "cell": "down.ones", "points": None}, "needs 'points'"),
        (
            {"type": "enter", "player": "Ben", "cell": "down.ones", "dice": [1] * 5, "points": 5},
            "dice or points, not both",
        ),
        ({"type": "double", "player": "Ben"}, "unknown event type 'double'"),
        ({"type": None}, "unknown event type null"),
        ({"type": "roll", "player": "Zoe", "dice": [1, 2, 3, 4, 5]}, "unknown player 'Zoe'"),
        ({"type": "roll", "player": "ben", "dice": [1, 2, 3, 4, 5]}, "unknown player 'ben'"),
        ({"type": "enter", "player": "Ben", "cell": "ones", "points": 1}, "unknown cell 'ones'"),
        ({"type": "enter", "player": "Ben", "cell": "main.ones", "points": 1}, "unknown column"),
        ({"type": "enter", "player": "Ben", "cell": "down.sevens", "points": 1}, "unknown row"),
        ({"type": "enter", "player": "Ben", "cell": "down.ones", "points": 6}, "not possible"),
        ({"type": "enter", "player": "Ben", "cell": "down.twos", "points": 2}, "is not due"),
        ({"type": "enter", "player": "Anna", "cell": "down.twos", "points": 2}, "not Anna's turn"),
        ({"type": "clear", "player": "Ben", "cell": "down.ones"}, "down.ones is empty"),
        ("roll", "an event is a JSON object"),
        (None, "an event is a JSON object"),
    ],
)
def test_a_bad_event_exits_2_with_its_number(tmp_path: Path, event: Any, words: str) -> None:
    line = assert_refused(run(tmp_path, record(GOOD, event)), words)
    assert line.startswith("event 2: ")


def test_a_broken_rule_is_explained(tmp_path: Path) -> None:
    events = [GOOD, {"type": "enter", "player": "Ben", "cell": "down.threes", "points": 3}]
    line = assert_refused(run(tmp_path, record(*events)), "event 2:")
    assert line == "event 2: down.threes is not due; the due cell of down is ones"


def test_one_column_messages_use_the_bare_row_id(tmp_path: Path) -> None:
    events = [
        {"type": "enter", "player": "Anna", "cell": "main.sixes", "points": 18},
        {"type": "enter", "player": "Ben", "cell": "sixes", "points": 12},
        {"type": "enter", "player": "Anna", "cell": "main.sixes", "points": 18},
    ]
    line = assert_refused(run(tmp_path, record(*events, variant="kniffel")), "event 3:")
    assert line == "event 3: sixes is already filled"


def test_a_bad_event_after_an_undo_is_counted_with_the_undo(tmp_path: Path) -> None:
    events = [GOOD, {"type": "undo"}, {"type": "undo"}]
    line = assert_refused(run(tmp_path, record(*events)), "nothing to undo")
    assert line == "event 3: there is nothing to undo"
