"""Every refusal code reaches a page in the reader's language, and the API names it.

Each code of :data:`~kniffel.locales.refusals.REFUSALS` is walked through a German page (the
import page for the record's and the engine's codes, the board for the board's) and the page
holds the German refusal and none of the engine's English text; the English page the other way
round. The few codes no page can meet are checked at the catalogue: their German and English
texts differ and neither holds the other.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.board.errors import BoardError, Conflict, Forbidden
from kniffel.board.service import MAX_IMPORT_EVENTS
from kniffel.locales import LANGUAGES, Translator, language_of, page_tag
from kniffel.locales.refusals import REFUSALS, refusal_text
from kniffel.record import RecordError, loads, replay
from kniffel.rules import CODES, JAMB_ROWS, IllegalMoveError, KniffelError
from kniffel.rules import ROWS as KNIFFEL_ROWS

#: The thirteen rows in sheet order, from the rules.
ROWS = [row.value for row in KNIFFEL_ROWS]

HX = {"HX-Request": "true"}
DE, EN = Translator("de"), Translator("en")


def doc(*events: Any, **fields: Any) -> dict[str, Any]:
    return {
        "format": "kniffel-record/1",
        "variant": "rauf-runter",
        "players": ["Anna", "Ben"],
        "events": list(events),
        **fields,
    }


def enter(cell: str, player: str = "Anna", **fields: Any) -> dict[str, Any]:
    return {"type": "enter", "player": player, "cell": cell, **fields}


def roll(dice: list[int], keep: list[int] | None = None, player: str = "Anna") -> dict[str, Any]:
    event: dict[str, Any] = {"type": "roll", "player": player, "dice": dice}
    if keep is not None:
        event["keep"] = keep
    return event


SOLO: dict[str, Any] = {"variant": "kniffel", "players": ["Anna"]}
YAHTZEE: dict[str, Any] = {"variant": "yahtzee", "players": ["Anna"]}
FULL_SHEET = [enter(row, points=5 if row == "chance" else 0) for row in ROWS]
JAMB: dict[str, Any] = {"variant": "jamb", "players": ["Anna"]}
HAND: dict[str, Any] = {**JAMB, "options": {"hand": True}}


def announce(cell: str, player: str = "Anna") -> dict[str, Any]:
    return {"type": "announce", "player": player, "cell": cell}


#: Jamb's ↓, free and ↑ columns filled, so that only the announce column is open.
JAMB_THREE_COLUMNS = [
    enter(f"{column}.{row.value}", points=5 if row.value in ("max", "min") else 0)
    for column, rows in (("down", JAMB_ROWS), ("free", JAMB_ROWS), ("up", JAMB_ROWS[::-1]))
    for row in rows
]

#: A record the import refuses with each code (JSON text where the file itself is broken).
RECORDS: dict[str, dict[str, Any] | str] = {
    "not_due": doc(enter("down.threes", points=9)),
    "cell_filled": doc(enter("ones", points=3), enter("ones", points=3), **SOLO),
    "cell_empty": doc({"type": "edit", "player": "Anna", "cell": "ones", "points": 3}, **SOLO),
    "not_your_turn": doc(enter("down.ones", player="Ben", points=3)),
    "nothing_to_undo": doc({"type": "undo"}),
    "game_finished": doc(*FULL_SHEET, enter("ones", points=3), **SOLO),
    "first_roll_keeps": doc(roll([1, 1, 1, 1, 1], keep=[1])),
    "no_rolls_left": doc(*[roll([1, 2, 3, 4, 6])] * 4),
    "keep_not_in_roll": doc(roll([1, 2, 3, 4, 5]), roll([6, 6, 1, 1, 1], keep=[6, 6])),
    "dice_miss_keep": doc(roll([1, 2, 3, 4, 5]), roll([2, 2, 2, 2, 2], keep=[1])),
    "dice_and_points": doc(enter("down.ones", dice=[1, 1, 1, 1, 1], points=5)),
    "dice_pending": doc(roll([1, 2, 3, 4, 5]), enter("down.ones", dice=[6, 6, 6, 6, 6])),
    "no_dice": doc(enter("down.ones")),
    "impossible_points": doc(enter("free.chance", points=99)),
    "joker_forced": doc(enter("kniffel", dice=[5] * 5), enter("threes", dice=[5] * 5), **YAHTZEE),
    "joker_lower": doc(
        enter("kniffel", dice=[5] * 5),
        enter("fives", dice=[5] * 5),
        enter("ones", dice=[5] * 5),
        **YAHTZEE,
    ),
    "zero_only_upper": doc(enter("kniffel", points=0), **SOLO, options={"zero_only_upper": True}),
    "invalid_dice": doc(enter("down.ones", dice=[7, 1, 1, 1, 1])),
    "dice_count": doc(enter("down.ones", dice=[1, 1, 1])),
    "keep_count": doc(roll([1, 1, 1, 1, 1], keep=[1, 1, 1, 1, 1, 1])),
    "unknown_player": doc(enter("down.ones", player="Zoe", points=3)),
    "cell_syntax": doc(enter("threes", points=9)),
    "unknown_column": doc(enter("sideways.ones", points=3)),
    "unknown_row": doc(enter("down.sevens", points=3)),
    "unknown_variant": doc(variant="poker"),
    "unknown_option": doc(options={"wild": True}),
    "invalid_option": doc(options={"joker": "sometimes"}),
    "record_not_json": "{",
    "record_not_object": "[]",
    "record_format": doc(format="kniffel-record/0"),
    "record_field": doc(options=[]),
    "record_players": doc(players=[]),
    "player_name_blank": doc(players=[" "]),
    "player_names_repeat": doc(players=["Anna", "Anna"]),
    "record_events": doc(events={}),
    "event_not_object": doc(1),
    "event_type": doc({"type": "jump"}),
    "event_field": doc({"type": "enter", "player": "Anna"}),
    "event_text": doc({"type": "enter", "player": 5}),
    "event_number": doc(enter("down.ones", points="x")),
    "event_faces": doc(roll("12345")),  # type: ignore[arg-type]
    "record_too_long": doc(*[{"type": "undo"}] * (MAX_IMPORT_EVENTS + 1)),
    # Jamb and Yams (docs/rules.md, "Jamb")
    "first_roll_only": doc(
        roll([1, 1, 2, 3, 4]), roll([1, 1, 1, 3, 4], keep=[1, 1]), enter("hand.ones"), **HAND
    ),
    "announce_first": doc(
        roll([1, 2, 3, 4, 6]),
        roll([1, 2, 3, 4, 5], keep=[1, 2, 3, 4]),
        enter("announce.ones"),
        **JAMB,
    ),
    "roll_needed": doc(enter("announce.ones", dice=[1, 1, 1, 2, 3]), **JAMB),
    "announce_column": doc(roll([1, 1, 2, 3, 4]), announce("free.ones"), **JAMB),
    "announce_twice": doc(
        roll([1, 1, 2, 3, 4]), announce("announce.ones"), announce("announce.twos"), **JAMB
    ),
    "announce_late": doc(
        roll([1, 1, 2, 3, 4]), roll([1, 1, 1, 3, 4], keep=[1, 1]), announce("announce.ones"), **JAMB
    ),
    "announced_elsewhere": doc(
        roll([1, 1, 2, 3, 4]), announce("announce.ones"), enter("free.twos"), **JAMB
    ),
    "middle_order": doc(enter("middle.ones", points=3, roll=1), **JAMB, options={"middle": True}),
    "roll_number": doc(enter("free.ones", dice=[1, 1, 1, 2, 3], roll=4), **JAMB),
    "roll_mismatch": doc(roll([1, 1, 1, 2, 3]), enter("free.ones", roll=2), **JAMB),
    "first_roll_cells_only": doc(
        *JAMB_THREE_COLUMNS, roll([1, 1, 2, 3, 4]), roll([1, 1, 1, 3, 4], keep=[1, 1]), **JAMB
    ),
}


def refused(document: dict[str, Any] | str) -> KniffelError | BoardError:
    """The error the service refuses ``document`` with."""
    text = document if isinstance(document, str) else json.dumps(document)
    if not isinstance(document, str) and len(document.get("events", ())) > MAX_IMPORT_EVENTS:
        return BoardError("too long", code="record_too_long", max=MAX_IMPORT_EVENTS)
    with pytest.raises(RecordError) as caught:
        replay(loads(text))
    return caught.value


def page_text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.text))


def import_page(client: TestClient, document: dict[str, Any] | str, lang: str) -> str:
    text = document if isinstance(document, str) else json.dumps(document)
    files = {"record": ("game.json", text, "application/json")}
    response = client.post(f"/import?lang={lang}", files=files)
    assert response.status_code == 400
    return page_text(response)


@pytest.mark.parametrize("code", sorted(RECORDS))
def test_an_import_refusal_reads_in_the_page_language(client: TestClient, code: str) -> None:
    error = refused(RECORDS[code])
    assert error.code == code
    german, english = refusal_text(error, DE), refusal_text(error, EN)
    assert german != english
    page = import_page(client, RECORDS[code], "de")
    assert f"Import abgelehnt, nichts gespeichert: {german}" in page
    assert english not in page and str(error) not in page
    page = import_page(client, RECORDS[code], "en")
    assert f"Import refused, nothing stored: {english}" in page
    assert german not in page


@pytest.mark.parametrize("code", sorted(RECORDS))
def test_an_import_refusal_reads_in_croatian_serbian_and_french(
    client: TestClient, code: str
) -> None:
    error = refused(RECORDS[code])
    for lang in ("hr", "sr_Latn", "fr"):
        t = Translator(lang)
        said = t("Import abgelehnt, nichts gespeichert: {reason}", reason=refusal_text(error, t))
        page = import_page(client, RECORDS[code], page_tag(lang))
        assert " ".join(said.split()) in page, lang
        assert refusal_text(error, DE) not in page and refusal_text(error, EN) not in page


def test_the_import_refusal_of_the_issue_reads_in_german(client: TestClient) -> None:
    document = doc(enter("down.threes", points=9))
    assert import_page(client, document, "de").count(
        "Import abgelehnt, nichts gespeichert: Ereignis 1: Runter, Dreier ist nicht dran; "
        "dran ist Einser"
    )


# ------------------------------------------------------------------ the board


def new_game(client: TestClient, dice_mode: str = "physical") -> str:
    data = {"variant": "rauf-runter", "player": ["Anna", "Ben"], "dice_mode": dice_mode}
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).removeprefix("/g/")


def notice(response: Any) -> str:
    match = re.search(r'id="notice"[^>]*>([^<]*)<', response.text)
    assert match, "no notice on the page"
    return html.unescape(match.group(1))


def post(client: TestClient, game_id: str, what: str, lang: str, **data: Any) -> Any:
    """A form post as the page sends it: with the version (and turn) it was drawn at."""
    page = client.get(f"/g/{game_id}/board", headers=HX).text
    for field in ("version", "turn"):
        match = re.search(rf'data-{field}="(\d+)"', page)
        if match and field not in data:
            data[field] = match.group(1)
    return client.post(f"/g/{game_id}/{what}?lang={lang}", data=data, headers=HX)


Board = Callable[[TestClient, str], tuple[Any, KniffelError | BoardError]]


def _watch_only(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client)
    client.cookies.clear()
    answer = post(client, game_id, "enter", lang, cell="down.ones", points="3")
    return answer, Forbidden("watch", code="watch_only")


def _conflict(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client)
    post(client, game_id, "enter", lang, cell="down.ones", points="3", version="0")
    answer = post(client, game_id, "enter", lang, cell="down.ones", points="2", version="0")
    return answer, Conflict("changed", version=1, expected=0)


def _not_rolled(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client, "virtual")
    answer = post(client, game_id, "enter", lang, cell="down.ones")
    return answer, IllegalMoveError("not rolled", code="not_rolled", player="Anna")


def _virtual_entry(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client, "virtual")
    answer = post(client, game_id, "enter", lang, cell="down.ones", dice="11111")
    return answer, IllegalMoveError("typed", code="virtual_entry")


def _roll_stands(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client, "virtual")
    post(client, game_id, "roll", lang)
    answer = post(client, game_id, "undo", lang)
    return answer, IllegalMoveError("stands", code="roll_stands")


def _physical_dice(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client)
    answer = post(client, game_id, "roll", lang)
    return answer, IllegalMoveError("physical", code="physical_dice")


def _nothing_to_undo(client: TestClient, lang: str) -> tuple[Any, KniffelError | BoardError]:
    game_id = new_game(client)
    answer = post(client, game_id, "undo", lang)
    return answer, IllegalMoveError("nothing", code="nothing_to_undo")


BOARD_CASES = {
    "watch_only": _watch_only,
    "version_conflict": _conflict,
    "not_rolled": _not_rolled,
    "virtual_entry": _virtual_entry,
    "roll_stands": _roll_stands,
    "physical_dice": _physical_dice,
    "nothing_to_undo": _nothing_to_undo,
}


@pytest.mark.parametrize("code", sorted(BOARD_CASES))
@pytest.mark.parametrize("lang", [page_tag(lang) for lang in LANGUAGES])
def test_a_board_refusal_reads_in_the_page_language(
    client: TestClient, code: str, lang: str
) -> None:
    answer, error = BOARD_CASES[code](client, lang)
    assert answer.status_code in (403, 409, 422), answer.text
    mine = Translator(language_of(lang) or "")
    assert notice(answer) == refusal_text(error, mine)
    for other in LANGUAGES:
        if other != mine.lang:
            theirs = " ".join(refusal_text(error, Translator(other)).split())  # as page_text
            assert theirs not in page_text(answer), other


def test_the_board_says_why_a_cell_is_locked_before_it_is_tapped(client: TestClient) -> None:
    """The locked cells carry the engine's refusal, said from the catalogue."""
    game_id = new_game(client)
    page = page_text(client.get(f"/g/{game_id}/board", headers=HX))
    assert 'data-reason="Runter, Dreier ist nicht dran; dran ist Einser"' in page
    assert 'data-reason="Ben ist nicht am Zug; dran ist Anna"' in page
    english = page_text(client.get(f"/g/{game_id}/board?lang=en", headers=HX))
    assert 'data-reason="Down, Threes is not due; Ones is due"' in english
    assert 'data-reason="Ben is not to move; Anna is"' in english


# ------------------------------------------------------------- the catalogue

#: Codes no page meets (the API's, the engine's own API's, defaults).
UNSEEN = {
    "players_count": {"min": 1, "max": 8, "got": 9},
    "unknown_seat": {"seat": 9, "seats": 2},
    "unknown_cell": {"cell": "down.sevens"},
    "roll_needs_dice": {},
    "unknown_event": {"event": "'jump'"},
    "points_not_whole": {"points": "'x'"},
    "invalid": {},
    "record_invalid": {},
    "bad_request": {},
    "invalid_request": {"reason": "x"},
    "not_found": {},
    "method_not_allowed": {},
    "http_error": {"status": 418},
    "game_not_found": {"game": "abc"},
    "game_unreadable": {"game": "abc"},  # tests/web/test_upgrade.py meets it
    "record_evening": {},  # tests/web/test_revanche.py meets it (a record's evening)
    "revanche_unfinished": {},  # tests/web/test_revanche.py meets it
    "body_too_large": {"max": 1000},
    "request_timeout": {},  # tests/web/test_edges.py meets it
    "cross_origin": {},
    "name_character": {"name": "'A\\u200bB'", "character": "U+200B"},
    "name_too_long": {"max": 40, "got": 41},
    "name_not_normal": {"name": "' Anna'"},
    "kniffel_bonus_range": {"max": 1000, "got": "2000"},
    "key_missing": {},
    "key_wrong": {},
    "too_busy": {},
    "database_unavailable": {},
    "dice_mode": {"value": "wooden"},
    "bot_seat": {"player": "Zoe"},
    "unknown_bot": {"bot": "clever", "bots": ["random", "greedy", "best"]},
    "bots_virtual": {},
    "virtual_roll": {},
    "no_solver": {"variant": "Jamb"},  # tests/web/test_family.py meets it on the pages
    # tests/web/test_family.py meets it on the start page and in the API
    "option_alone": {"option": "sum2_bonus_points", "needs": "sum2_bonus", "points": 40},
}


def test_every_code_is_walked() -> None:
    walked = set(RECORDS) | set(BOARD_CASES) | set(UNSEEN)
    assert walked == set(REFUSALS)
    assert set(CODES) <= set(REFUSALS)


@pytest.mark.parametrize("code", sorted(UNSEEN))
def test_an_unseen_code_reads_in_both_languages(code: str) -> None:
    error = KniffelError("the engine's words", code=code, **UNSEEN[code])
    german, english = refusal_text(error, DE), refusal_text(error, EN)
    assert german != english and "the engine's words" not in german + english
    assert english not in german and german not in english


def test_the_catalogue_names_every_param_of_its_code() -> None:
    """A message's placeholders are the params its code carries (CODES lists the engine's)."""
    import string

    for code, params in CODES.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(REFUSALS[code]) if f}
        assert fields <= set(params), code


def test_a_refusal_worded_once_is_worded_again_for_each_language_game_and_param() -> None:
    # Refusals are kept once worded (the board words the same ones for many cells): the
    # language, the game's words and every param must still make their own text.
    def due(cell: str, due_row: str = "ones") -> IllegalMoveError:
        return IllegalMoveError("x", code="not_due", cell=cell, due_row=due_row)

    german = refusal_text(due("down.twos"), Translator("de"))
    assert german == "Runter, Zweier ist nicht dran; dran ist Einser"
    assert refusal_text(due("down.twos"), Translator("de")) == german
    assert refusal_text(due("down.twos"), Translator("en")) == "Down, Twos is not due; Ones is due"
    assert refusal_text(due("down.threes"), Translator("de")).startswith("Runter, Dreier")
    assert refusal_text(due("down.twos", "fours"), Translator("de")).endswith("Vierer")
    rolled = [
        refusal_text(IllegalMoveError("x", code="not_rolled", player=name), Translator("de"))
        for name in ("Anna", "Ben", "Anna")
    ]
    assert rolled[0] == rolled[2] != rolled[1]
    assert rolled[1].startswith("Ben ")
    kniffel = refusal_text(
        IllegalMoveError("x", code="not_due", cell="down.kniffel"), Translator("en")
    )
    yahtzee = refusal_text(
        IllegalMoveError("x", code="not_due", cell="down.kniffel"), Translator("en", "yahtzee")
    )
    assert "Kniffel" in kniffel and "Yahtzee" in yahtzee
