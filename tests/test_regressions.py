"""Engine bugs found by the differential test, each pinned to the rule it broke.

docs/record-format.md: a file that is not a valid record outside its events exits 2 with one
line that names the problem, and no case prints a Python traceback.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kniffel.cli import cli
from kniffel.record import RecordError, loads


def _replay_cli(text: str, *, as_json: bool = True) -> tuple[int, str, str]:
    args = ["replay", "--json", "-"] if as_json else ["replay", "-"]
    result = CliRunner().invoke(cli, args, input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _record(players: list[str], events: str = "[]") -> str:
    head = json.dumps({"format": "kniffel-record/1", "variant": "kniffel", "players": players})
    return head[:-1] + f', "events": {events}}}'


def test_an_integer_too_long_for_python_is_a_file_error() -> None:
    # Python refuses to read integers of more than 4300 digits with a bare ValueError.
    text = _record(
        ["Anna"], f'[{{"type": "enter", "player": "Anna", "cell": "ones", "points": {"9" * 5000}}}]'
    )
    with pytest.raises(RecordError) as caught:
        loads(text)
    assert caught.value.event is None
    code, out, err = _replay_cli(text)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert not err.startswith("event ")
    assert "set_int_max_str_digits" not in err


@pytest.mark.parametrize("as_json", [True, False])
def test_a_lone_surrogate_is_no_player_name(as_json: bool) -> None:
    # JSON can escape half a UTF-16 pair; printing such a name crashed the CLI.
    text = '{"format": "kniffel-record/1", "variant": "kniffel", "players": ["Anna", "\\ud800"]}'
    with pytest.raises(RecordError) as caught:
        loads(text)
    assert caught.value.event is None
    code, out, err = _replay_cli(text, as_json=as_json)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1


def test_a_whole_surrogate_pair_is_a_fine_player_name() -> None:
    text = '{"format": "kniffel-record/1", "variant": "kniffel", "players": ["\\ud83c\\udfb2"]}'
    assert loads(text).players == ("\U0001f3b2",)
    code, out, _ = _replay_cli(text)
    assert code == 0
    assert json.loads(out)["players"][0]["name"] == "\U0001f3b2"


def test_a_name_with_a_line_break_keeps_the_error_on_one_line() -> None:
    # Names are any non-blank text; a message that quotes one must stay one line.
    text = json.dumps(
        {
            "format": "kniffel-record/1",
            "variant": "kniffel",
            "players": ["An\nna", "Ben"],
            "events": [{"type": "enter", "player": "Ben", "cell": "chance", "points": 20}],
        }
    )
    code, out, err = _replay_cli(text)
    assert (code, out) == (2, "")
    assert err == "event 1: it is not Ben's turn; An\\nna is to move\n"


def test_options_built_directly_take_plain_strings() -> None:
    from kniffel.rules import Joker, Options, Pasch

    options = Options(joker="forced", pasch="matching_dice")  # type: ignore[arg-type]
    assert options.joker is Joker.FORCED and options.pasch is Pasch.MATCHING_DICE
    with pytest.raises(ValueError, match="option chance must be true or false"):
        Options(chance="no")  # type: ignore[arg-type]
