"""The page of a game started on a device with no server (issue 31, item 5): what the server puts
into it so that the device draws the board's sheet and words the board's refusals
(kniffel.web.pages.device; the game itself: tests/e2e/test_device_game.py)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from fastapi.testclient import TestClient

from kniffel.locales import Translator
from kniffel.locales.refusals import refusal_text
from kniffel.rules import Enter, Game, get_variant
from kniffel.web.pages.device import DEVICE_PRESETS
from kniffel.web.present.offline_words import offline_words


def _words(page: str) -> dict[str, Any]:
    found = re.search(r"data-words='([^']*)'", page)
    assert found is not None
    words: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return words


def test_the_device_page_carries_each_presets_blank_sheet_and_the_refusals_words(
    client: TestClient,
) -> None:
    answer = client.get("/device?lang=en")
    assert answer.status_code == 200
    page = answer.text
    for preset in DEVICE_PRESETS:
        assert f'<template data-preset="{preset}"' in page
    assert "Jamb" not in re.findall(r'data-preset="([^"]+)"', page)
    # A sheet for each set of columns a preset's house rules give (Yams' hand and announce).
    sheets = re.findall(r'data-preset="yams" data-columns="([^"]+)"', page)
    with_hand = ["down up free hand", "down up free hand announce"]
    assert sheets == ["down up free", "down up free announce", *with_hand]
    # Each in its preset's own words, as its game page: no Kniffel word on a Jamb or Yams sheet.
    german = client.get("/device?lang=de").text
    for family in ("jamb", "yams"):
        for sheet in re.findall(f'<template data-preset="{family}".*?</template>', german, re.S):
            assert "Kniffel" not in sheet and "Kniffel" not in html.unescape(sheet)
    words = _words(page)
    game = Game(get_variant("rauf-runter"), ["Anna"])
    error = game.check(Enter("Anna", game.cell("down.threes"), points=9))
    assert error is not None and error.code == "not_due"
    said = refusal_text(error, Translator("en", "rauf-runter"))
    assert said == "Down, Threes is not due; Ones is due"
    # The pieces the page fills in (static/device/words.js) are these words' own.
    assert words["refusals"]["not_due"] == "{cell} is not due; {due_row} is due"
    assert words["presets"]["rauf-runter"]["cells"]["down.threes"] == "Down, Threes"
    assert words["presets"]["rauf-runter"]["rows"]["ones"] == "Ones"
    assert words["or"]["3"] == "{0}, {1}, or {2}"


def test_the_new_game_forms_script_knows_the_value_of_an_empty_box(client: TestClient) -> None:
    """The device reads the form as the server does: an empty box is the rule's plain value."""
    page = client.get("/").text
    found = re.search(r"data-house-rules='([^']*)'", page)
    assert found is not None
    rules = {rule["name"]: rule for rule in json.loads(html.unescape(found.group(1)))}
    assert (rules["chance"]["on"], rules["chance"]["off"]) == (True, False)
    assert (rules["pasch"]["on"], rules["pasch"]["off"]) == ("matching_dice", "all_dice")
    assert 'src="/static/device/start.js"' in page
    assert f'data-presets="{" ".join(DEVICE_PRESETS)}"' in page


def _device_record(device: object) -> dict[str, Any]:
    return {
        "format": "kniffel-record/1",
        "variant": "kniffel",
        "players": ["Ida"],
        "events": [{"type": "enter", "player": "Ida", "cell": "ones", "points": 3}],
        "device": device,
    }


def test_a_record_started_on_a_device_is_imported_once(client: TestClient) -> None:
    """The device posts its game again when the first answer never came back (the board stored
    it, the network went): the answer is the game stored the first time, with its key."""
    made = {"id": "0b6f3c1e-8d2a-4f57-9c1b-2a7e5d4c3b21", "offline": True, "started": "now"}
    first = client.post("/api/records", json=_device_record(made))
    again = client.post("/api/records", json=_device_record(made))
    assert first.status_code == again.status_code == 201
    assert (again.json()["id"], again.json()["key"]) == (first.json()["id"], first.json()["key"])
    other = client.post("/api/records", json=_device_record({**made, "id": "another-device-1"}))
    assert other.json()["id"] != first.json()["id"]
    # Without a device's id (or with one that is not), every import is a game of its own.
    plain = [client.post("/api/records", json=_device_record(None)).json()["id"] for _ in "ab"]
    odd = [client.post("/api/records", json=_device_record({"id": 7})).json()["id"] for _ in "ab"]
    assert len({*plain, *odd}) == 4
    assert len(client.get("/api/games").json()) == 6


def test_the_device_page_carries_the_boards_correction_dialog_and_notes(client: TestClient) -> None:
    """Corrections and notes on the device (static/device/edit.js, static/tafel/notes.js): the
    board's own dialog, with both notes on a cleared cell and each preset saying which is its,
    and the words of the board's notes for each preset."""
    page = client.get("/device?lang=en").text
    t = Translator("en", "rauf-runter")
    dialog = re.search(r'<dialog id="edit-dialog".*?</dialog>', page, re.S)
    assert dialog is not None
    for words in ("Feld korrigieren", "Speichern", "Feld leeren", "Abbrechen", "Neue Punkte"):
        assert html.escape(t(words)) in dialog.group(0)
    assert "action=" not in dialog.group(0)  # kept on the device, never posted
    on_arrows = t("Ein geleertes Feld einer Pfeil-Spalte ist wieder Pflicht.")
    assert f'data-arrows="{html.escape(on_arrows)}"' in dialog.group(0)
    arrows = dict(re.findall(r'data-preset="([a-z-]+)"[^>]*?data-arrows="(\w+)"', page))
    assert arrows["rauf-runter"] == "true" and arrows["kniffel"] == "false"
    found = re.search(r'data-preset="rauf-runter"[^>]*data-notes=\'([^\']*)\'', page)
    assert found is not None
    notes = json.loads(html.unescape(found.group(1)))
    assert notes == offline_words(get_variant("rauf-runter"), t)["notes"]
    assert notes["bonus"]["reached"] == "{n} reached"
    assert notes["undo"]["clear"] == "clearing of {name}: {cell}"
