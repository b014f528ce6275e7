"""The words of Jamb's and Yams's own controls (issue 23): the announce button says the verb
and the row once ("Announce: Straight", not "Announce Announce, Straight"), and the start
page's option for a column names it as the sheet's column head does, in every language
(kniffel.locales.family_words)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.settings import Settings
from kniffel.web.app import create_app

LANGS = ("de", "en", "hr", "sr_Latn", "fr")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'kniffel.db'}"), bots=BotSeats(delay=0))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def started(client: TestClient, variant: str, **columns: str) -> str:
    """A new real-dice game of ``variant`` from the start page's form, with the option columns
    ``columns``; this client holds its key."""
    form = {"variant": variant, "player": ["Ana", "Ivo"], "house_rules": "1", **columns}
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).rsplit("/", 1)[1]


def announce_names(page: str) -> dict[str, str]:
    """Each announce button's accessible name by its cell."""
    buttons = re.findall(r'<button type="submit" class="announce-btn"[^>]*>', page)
    names = {}
    for button in buttons:
        cell = re.search(r'value="([^"]+)"', button)
        label = re.search(r'aria-label="([^"]+)"', button)
        assert cell and label, button
        names[cell.group(1)] = html.unescape(label.group(1))
    return names


@pytest.mark.parametrize(
    ("lang", "jamb", "yams"),
    [
        ("de", "Ansage: Straße", "Ansage: Große Straße"),
        ("en", "Announce: Straight", "Announce: Large straight"),
        ("hr", "Najavi: Kenta", "Najavi: Velika kenta"),
        ("sr_Latn", "Najavi: Kenta", "Najavi: Velika kenta"),
        ("fr", "Annoncer\u00a0: Suite", "Annoncer\u00a0: Grande suite"),
    ],
)
def test_the_announce_button_says_the_verb_and_the_row_once(
    client: TestClient, lang: str, jamb: str, yams: str
) -> None:
    """With real dice the buttons stand before the entry (docs/board.md, "Jamb und Yams")."""
    jamb_game = started(client, "jamb")
    names = announce_names(client.get(f"/g/{jamb_game}", params={"lang": lang}).text)
    assert len(names) == 13
    assert names["announce.straight"] == jamb
    yams_game = started(client, "yams", announce="1")
    names = announce_names(client.get(f"/g/{yams_game}", params={"lang": lang}).text)
    assert names["announce.large_straight"] == yams


def option_name(page: str, field: str) -> str:
    """The name the start page's form gives the house rule ``field``."""
    found = re.search(
        rf'name="{field}"[^>]*>\s*<span class="choice-text">\s*<span class="choice-name">([^<]*)<',
        page,
    )
    assert found, field
    return html.unescape(found.group(1))


def column_head(page: str, discipline: str) -> str:
    """The name in the sheet's head of the column of ``discipline``, without its arrow."""
    found = re.search(rf'<th scope="col" class="col-head {discipline}">([^<]*)</th>', page)
    assert found, discipline
    return re.sub(r"^[↓↑↕] ", "", html.unescape(found.group(1)))


@pytest.mark.parametrize("lang", LANGS)
def test_an_option_column_has_one_name_on_the_form_and_the_sheet(
    client: TestClient, lang: str
) -> None:
    form = client.get("/", params={"lang": lang}).text
    jamb = client.get(f"/g/{started(client, 'jamb', hand='1', middle='1')}", params={"lang": lang})
    yams = client.get(
        f"/g/{started(client, 'yams', hand='1', announce='1')}", params={"lang": lang}
    )
    for field, sheet in (("hand", jamb), ("middle", jamb), ("hand", yams), ("announce", yams)):
        assert option_name(form, field) == column_head(sheet.text, field), (field, lang)
    if lang == "de":
        assert option_name(form, "hand") == "Hand"
