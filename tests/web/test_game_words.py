"""Each game speaks its own words: the yahtzee preset says "Yahtzee" on the English board and
in the Tipp; Kniffel stays Kniffel (docs/decisions.md, "Translations")."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.rules import PRESETS, Cell, EnterAction, Row
from kniffel.solver.advice.position import Choice
from kniffel.web.present.advice_words import AdviceWords

HX = {"HX-Request": "true"}


def _board(client: TestClient, service: GameService, variant: str, lang: str) -> str:
    view = service.create(variant, {}, ["Anna"])
    service.apply(
        view.id,
        view.key,
        {"type": "enter", "player": "Anna", "cell": "kniffel", "dice": [6, 6, 6, 6, 6]},
    )
    client.get(f"/g/{view.id}?key={view.key}")
    page = client.get(f"/g/{view.id}/board?lang={lang}&dice=44444", headers=HX)
    assert page.status_code == 200
    return html.unescape(page.text)


def test_the_english_yahtzee_board_says_yahtzee(client: TestClient, service: GameService) -> None:
    page = _board(client, service, "yahtzee", "en")
    assert 'aria-label="Yahtzee, 50 points"' in page
    assert "Yahtzee bonus" in page and "A further Yahtzee!" in page
    assert "+100 Yahtzee bonus in the column you enter it into." in page
    assert not re.search(r"Kniffel(?!-record)", page)


def test_the_english_kniffel_board_says_kniffel(client: TestClient, service: GameService) -> None:
    page = _board(client, service, "kniffel", "en")
    assert "Kniffel bonus" in page and "Yahtzee" not in page


def test_the_german_yahtzee_board_keeps_its_german_words(
    client: TestClient, service: GameService
) -> None:
    page = _board(client, service, "yahtzee", "de")
    assert "Kniffel-Bonus" in page and "Weiterer Kniffel!" in page


def test_the_tipp_names_the_yahtzee_row() -> None:
    yahtzee = PRESETS["yahtzee"]
    choice = Choice(EnterAction(Cell("main", Row.KNIFFEL)), 250.0, 50)
    english = AdviceWords(Translator("en").for_variant(yahtzee))
    assert english.choice(choice, yahtzee, 3) == "Enter: Yahtzee (50)"
    german = AdviceWords(Translator("de").for_variant(yahtzee))
    assert german.choice(choice, yahtzee, 3) == "Eintragen: Kniffel (50)"
