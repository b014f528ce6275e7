"""The words of Jamb's and Yams's own controls (issue 23): the announce button says the verb
and the row once ("Announce: Straight", not "Announce Announce, Straight"), and the start
page's option for a column names it as the sheet's column head does, in every language
(kniffel.locales.family_words)."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from kniffel.board.bot_seats import BotSeats
from kniffel.board.players.sample import random_record
from kniffel.board.service import GameService
from kniffel.locales import po_file
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
    found = re.search(rf'<th scope="col" class="col-head (?:short )?{discipline}">(.*?)</th>', page)
    assert found, discipline
    head = found.group(1)
    # Four or more columns: a mark, and the full name for screen readers.
    name = re.search(r'<span class="sr-only">([^<]*)</span>', head)
    return re.sub(r"^[↓↑↕] ", "", html.unescape(name.group(1) if name else head))


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


# --------------------------------------------------------- every page of a Jamb and a Yams game

#: Elements whose content is never shown (``<template>`` holds words the script shows; they are
#: checked where the script puts them).
_UNSHOWN = {"script", "style", "template", "head"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
_VOID |= {"track", "wbr", "param"}
_READ_ALOUD = ("aria-label", "title", "alt", "placeholder", "value")


class _Shown(HTMLParser):
    """The words a page shows or reads aloud: text and the accessible names, without what is
    ``hidden`` (the start page hides the house rules of the presets not chosen)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skip = 0  # depth inside an element that is not shown

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in _VOID:
            if not self._skip and named.get("type") not in ("hidden", "radio", "checkbox"):
                self.words += [v for k, v in attrs if k in _READ_ALOUD and v]
            return
        if self._skip or tag in _UNSHOWN or "hidden" in named:
            self._skip += 1
            return
        self.words += [v for k, v in attrs if k in _READ_ALOUD and k != "value" and v]

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip(" \t\r\n\f"):
            # ASCII white space only: a no-break space is a character the page means.
            self.words.append(re.sub(r"[ \t\r\n\f]+", " ", data).strip())


def shown(page: str) -> list[str]:
    parser = _Shown()
    parser.feed(page)
    return parser.words


def _german_only(lang: str) -> list[str]:
    """Pieces of German message ids that the catalogue of ``lang`` words otherwise: one shown
    on a page of ``lang`` is a message the page did not take from the catalogue."""
    catalogue = _catalogue(lang)
    pieces = []
    for (_context, message), text in catalogue.items():
        literal = max(re.split(r"\{[^}]*\}", message), key=len).strip(" .:;,")
        if len(literal) >= 12 and " " in literal and literal not in text:
            pieces.append(literal)
    return pieces


def _catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    with po_file(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    return {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]): (
            m.string if isinstance(m.string, str) else " ".join(m.string)
        )
        for m in catalog
        if m.id
    }


#: The record format's name is a contract (docs/record-format.md), not a word of the sheet.
_FORMAT = "kniffel-record/1"


def _faults(lang: str, page: str, german: list[str]) -> list[str]:
    words = [w.replace(_FORMAT, "") for w in shown(page)]
    text = "\n".join(words)
    faults = [w for w in words if "Kniffel" in w]
    faults += [piece for piece in german if piece in text]
    # A sentence starts with a capital letter, also after a full stop.
    faults += re.findall(r"\w\w\. [a-zčćđšžàâçéèêëîïôûù]\w*", text)
    if lang == "fr":  # a no-break space before : ; ! ? (and none of them glued to a word)
        faults += re.findall(r"\S*(?:[ \w)][;!?]|\w ?:)(?=\s|$)", text)
    return faults


def _play(
    service: GameService, game: str, key: str, player: str, events: list[dict[str, object]]
) -> None:
    for event in events:
        service.apply(game, key, {"player": player, **event})


@pytest.mark.parametrize(
    ("variant", "lang", "players", "options"),
    [
        ("jamb", "hr", ["Ana", "Ivo", "Marija", "Luka"], {"hand": True}),
        ("jamb", "sr_Latn", ["Ana", "Ivo", "Marija", "Luka"], {"middle": True}),
        ("yams", "fr", ["Amélie", "Éric", "Paul"], {"hand": True, "announce": True}),
    ],
)
def test_every_page_of_a_jamb_and_a_yams_game_speaks_its_catalogue(
    client: TestClient, variant: str, lang: str, players: list[str], options: dict[str, object]
) -> None:
    """Board, sheet dialogs, start page with the preset chosen, end of game, review and player
    pages (issue 32): no "Kniffel", no German message the catalogue words otherwise, a capital
    letter after a full stop, French spacing before : ; ! ?"""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    german = _german_only(lang)
    under_way = service.create(variant, options, players)
    _play(
        service,
        under_way.id,
        under_way.key,
        players[0],
        [
            {"type": "roll", "dice": [2, 2, 3, 4, 6]},
            {"type": "enter", "cell": "down.ones"},
        ],
    )
    _play(
        service,
        under_way.id,
        under_way.key,
        players[1],
        [{"type": "roll", "dice": [1, 1, 1, 1, 1]}],
    )
    record = random_record(variant, players, random.Random(7), options)
    done = service.import_record(record)
    chosen = client.post(
        f"/games?lang={lang}", data={"variant": variant, "player": [""], "house_rules": "1"}
    )
    assert chosen.status_code == 422 and 'value="' + variant + '"' in chosen.text
    start = chosen.text.split('<details class="house-rules"', 1)[1].split("</details>", 1)[0]
    pages = {
        "start page, house rules": "<details " + start + "</details>",
        "board": client.get(f"/g/{under_way.id}?key={under_way.key}&lang={lang}").text,
        "refusal": client.post(
            f"/g/{under_way.id}/enter?lang={lang}",
            data={"cell": "up.ones", "dice": "11111", "version": "3"},
            headers={"HX-Request": "true"},
        ).text,
        "end": client.get(f"/g/{done.id}?key={done.key}&lang={lang}").text,
        "review": client.get(f"/g/{done.id}/analyse?key={done.key}&lang={lang}").text,
        "player": client.get(f"/spieler/{players[0]}?lang={lang}").text,
        "players": client.get(f"/spieler?lang={lang}").text,
    }
    faults = {name: _faults(lang, page, german) for name, page in pages.items()}
    assert {name: found for name, found in faults.items() if found} == {}


@pytest.mark.parametrize(
    ("variant", "options", "alt"),
    [
        ("jamb", {}, "Izgledi za pobjedu nakon svakog kruga"),
        ("yams", {"hand": True}, "Izgledi za pobjedu nakon svakog kruga"),
        ("kniffel", {}, "Izgledi za pobjedu nakon svakog upisa"),
    ],
)
def test_the_end_screen_shows_the_chances_chart_of_every_preset(
    client: TestClient, variant: str, options: dict[str, object], alt: str
) -> None:
    """Jamb and Yams showed a large empty grey box where the chart of the chances would be, then
    none (issue 32); now their chart has a point per round, and says so."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    done = service.import_record(random_record(variant, ["Ana"], random.Random(5), options))
    page = client.get(f"/g/{done.id}?key={done.key}&lang=hr").text
    assert 'class="end"' in page
    assert "data-chances-chart" in page and f'alt="{alt}"' in page
