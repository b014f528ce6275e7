"""The page language beyond German and English: Croatian, Serbian in Latin script and French
(issue 23 item 4), chosen by the browser, by ``?lang=`` and by the remembered cookie."""

from __future__ import annotations

import html
import re

import pytest
from babel import Locale
from fastapi.testclient import TestClient

from kniffel.locales import LANGUAGES, Translator
from kniffel.web.present.advice_words import AdviceWords
from kniffel.web.present.i18n import LANGUAGE_NAMES
from kniffel.web.present.review_words import ReviewWords
from kniffel.web.rendering import LANG_COOKIE

from .test_pages import HX, Elements, board, new_game


def page_lang(page: str) -> str:
    """The ``lang`` of the page's ``<html>`` element (the switcher's links carry their own)."""
    match = re.search(r'<html lang="([^"]*)"', page)
    assert match, "no <html lang> on the page"
    return match.group(1)


def text(page: str) -> str:
    """The page's text with every run of spaces (no-break ones too) read as one space."""
    return html.unescape(re.sub(r"\s+", " ", page))


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("hr-HR,hr;q=0.9,en;q=0.5", "hr"),
        ("sr-Latn-RS,sr;q=0.9", "sr-Latn"),
        ("fr-CH, fr;q=0.9, de;q=0.5", "fr"),
        ("it-IT,fr;q=0.8", "fr"),
        ("it-IT,it;q=0.9", "de"),
        ("fr;q=0, de", "de"),
    ],
)
def test_the_browser_chooses_croatian_serbian_or_french(
    client: TestClient, header: str, lang: str
) -> None:
    page = client.get("/", headers={"Accept-Language": header}).text
    assert page_lang(page) == lang


@pytest.mark.parametrize("header", ["sr", "sr-RS", "sr-Cyrl-RS,sr;q=0.9", "sr-Cyrl"])
def test_serbian_in_any_script_reads_the_latin_catalogue(client: TestClient, header: str) -> None:
    """The board writes Serbian in Latin script only; a reader asking for Serbian (Cyrillic
    by default) reads Latin too, better than the German or English that would follow."""
    page = client.get("/", headers={"Accept-Language": f"{header},en;q=0.5"}).text
    assert page_lang(page) == "sr-Latn"
    assert "Nova partija" in text(page)


def test_the_chosen_language_is_remembered_as_its_tag(client: TestClient) -> None:
    chosen = client.get("/?lang=sr-Latn")
    assert page_lang(chosen.text) == "sr-Latn"
    assert chosen.cookies.get(LANG_COOKIE) == "sr-Latn"
    # The cookie wins over the browser's language, and Babel's spelling is read as well.
    assert page_lang(client.get("/", headers={"Accept-Language": "fr"}).text) == "sr-Latn"
    assert page_lang(client.get("/?lang=SR_latn").text) == "sr-Latn"
    assert page_lang(client.get("/?lang=fr").text) == "fr"
    assert page_lang(client.get("/").text) == "fr"
    # A language the board does not speak changes nothing.
    assert page_lang(client.get("/?lang=sr-Cyrl").text) == "fr"


def test_the_switcher_offers_every_language(client: TestClient) -> None:
    page = client.get("/?lang=hr").text
    links = Elements(page).find("a")
    offered = {a["hreflang"]: a for a in links if "hreflang" in a}
    assert list(offered) == ["de", "en", "hr", "sr-Latn", "fr"]
    assert {tag: a["href"] for tag, a in offered.items()}["sr-Latn"] == "?lang=sr-Latn"
    assert [tag for tag, a in offered.items() if a.get("aria-current") == "true"] == ["hr"]
    assert offered["fr"]["title"] == "français" and offered["sr-Latn"]["title"].startswith("srpski")
    assert ">SR<" in page and ">HR<" in page and ">FR<" in page


def test_the_switcher_names_each_language_as_babel_does() -> None:
    """The names are written out (Babel's locale data cost the start about 0.1 s): every
    language of the board has its own, and it is Babel's."""
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)
    for lang, name in LANGUAGE_NAMES.items():
        assert name == Locale.parse(lang).get_display_name(lang), lang


def test_the_start_page_speaks_french_croatian_and_serbian(client: TestClient) -> None:
    french = text(client.get("/?lang=fr").text)
    assert "Nouvelle partie" in french and "Règles maison" in french
    croatian = text(client.get("/?lang=hr").text)
    assert "Nova igra" in croatian and "Kućna pravila" in croatian
    serbian = text(client.get("/?lang=sr-Latn").text)
    assert "Nova partija" in serbian and "Virtuelne kockice" in serbian


def test_the_sheet_names_its_rows_as_players_there_write_them(client: TestClient) -> None:
    game_id = new_game(client, "Ana", "Marko")
    croatian = text(board(client, game_id, lang="hr"))
    for word in ("Jedinice", "Šestice", "Triling", "Poker", "Ful", "Dolje", "Gore"):
        assert word in croatian
    serbian = text(board(client, game_id, lang="sr-Latn"))
    assert "Na dole" in serbian and "Na gore" in serbian and "Četvorke" in serbian
    french = text(board(client, game_id, lang="fr"))
    for word in ("Brelan", "Carré", "Petite suite", "Grande suite", "Descendante", "Montante"):
        assert word in french


def test_a_refusal_reads_in_the_page_language(client: TestClient) -> None:
    """A cell out of turn in an arrow column is refused in the reader's words: on the locked
    cell before it is tapped, and in the notice when it is entered all the same."""
    game_id = new_game(client, "Ana", "Marko")
    reasons = {
        "hr": "Polje Dolje, Trojke nije sljedeće; sljedeće je polje Jedinice",
        "sr-Latn": "Polje Na dole, Trojke nije na redu; na redu je polje Jedinice",
        # French sets a narrow no-break space before ";" (``text`` reads every space as one).
        "fr": "La case Descendante, Trois n’est pas à remplir ; c’est As à remplir",
    }
    for lang, reason in reasons.items():
        assert f'data-reason="{reason}"' in text(board(client, game_id, lang=lang))
        version = str(client.get(f"/api/games/{game_id}").json()["version"])
        answer = client.post(
            f"/g/{game_id}/enter?lang={lang}",
            data={"version": version, "cell": "down.threes", "dice": "33312"},
            headers=HX,
        )
        assert answer.status_code in (403, 409, 422), answer.text
        assert reason in text(answer.text)


def test_numbers_and_percent_follow_the_language() -> None:
    assert Translator("fr").number(12345) == "12\u202f345"
    assert Translator("hr").number(12345) == Translator("sr_Latn").number(12345) == "12.345"
    assert AdviceWords(Translator("fr")).percent(0.77) == "77\u00a0%"
    assert AdviceWords(Translator("sr_Latn")).percent(0.77) == "77%"
    assert AdviceWords(Translator("hr")).chance(0.001) == "< 1\u00a0%"
    assert AdviceWords(Translator("sr_Latn")).chance(0.999) == "> 99%"
    assert ReviewWords(Translator("fr")).accuracy(87.25) == "87,2\u00a0%"
    assert ReviewWords(Translator("de")).accuracy(87.25) == "87,2\u00a0%"
    assert ReviewWords(Translator("en")).accuracy(87.25) == "87.2%"


def test_plurals_follow_the_language() -> None:
    """Croatian and Serbian have three forms (1, 2–4, 5 and on; 21 as 1), French two with 0
    and 1 in the singular."""
    croatian = Translator("hr")
    assert [croatian.ngettext("{n} Zug", "{n} Züge", n) for n in (1, 3, 5, 21, 12)] == [
        "1 potez",
        "3 poteza",
        "5 poteza",
        "21 potez",
        "12 poteza",
    ]
    serbian = Translator("sr_Latn")
    line = "{n} Punkt je weiterem Kniffel", "{n} Punkte je weiterem Kniffel"
    assert serbian.ngettext(*line, 1).startswith("1 poen ")
    assert serbian.ngettext(*line, 2).startswith("2 poena ")
    french = Translator("fr")
    assert [french.ngettext("{n} Zug", "{n} Züge", n) for n in (0, 1, 2)] == [
        "0 tour",
        "1 tour",
        "2 tours",
    ]


def test_a_game_page_keeps_its_language_for_htmx_fragments(client: TestClient) -> None:
    game_id = new_game(client, "Ana")
    client.get(f"/g/{game_id}?lang=fr")
    fragment = client.get(f"/g/{game_id}/board", headers=HX).text
    assert "Descendante" in text(fragment)


def test_points_take_the_form_the_count_asks_for() -> None:
    """A cell's points in words (its label for a screen reader) count as the language does."""
    croatian = Translator("hr")
    assert [croatian.points(n) for n in (1, 2, 5, 21, 1234)] == [
        "1 bod",
        "2 boda",
        "5 bodova",
        "21 bod",
        "1.234 boda",
    ]
    assert croatian.points(3, possible=True) == "moguća 3 boda"
    assert Translator("sr_Latn").points(24) == "24 poena"
    assert Translator("fr").points(0) == "0 point" and Translator("fr").points(50) == "50 points"
    german, english = Translator("de"), Translator("en")
    assert (german.points(1), german.points(0), german.points(18, possible=True)) == (
        "1 Punkt",
        "0 Punkte",
        "18 Punkte möglich",
    )
    assert (english.points(1, possible=True), english.points(1234)) == (
        "1 point possible",
        "1,234 points",
    )
