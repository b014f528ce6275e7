"""The new-game form does what was asked: a bot without a name keeps its seat, and a bot with
real dice is asked about before anything is created (docs/board.md, "Bots")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            {
                "name": "Name von Spieler 1",
                "seat": "Wer spielt Platz 2",
                "bot": "Bot: gierig",
                "real": "Echte Würfel",
                "virtual": "Virtuelle Würfel",
                "start": "Spiel beginnen",
                "note": "Nicht mit Bots: Ein Bot würfelt virtuell",
                "asked": "Bitte „Virtuelle Würfel“ wählen",
            },
        ),
        (
            "en",
            {
                "name": "Name of player 1",
                "seat": "Who plays seat 2",
                "bot": "Bot: greedy",
                "real": "Real dice",
                "virtual": "Virtual dice",
                "start": "Start game",
                "note": "Not with bots: a bot rolls virtual dice",
                "asked": "Please choose “Virtual dice”",
            },
        ),
    ],
)
def test_a_bot_with_real_dice_is_asked_about_and_an_unnamed_bot_keeps_its_seat(
    browser: Browser, server: str, lang: str, words: dict[str, str]
) -> None:
    context = browser.new_context(viewport=PHONE, locale=lang, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/?lang={lang}")
    page.get_by_label(words["name"], exact=True).fill("Anna")
    page.get_by_label(words["seat"]).select_option(label=words["bot"])
    # What a bot means for the dice is on the form before anything is created.
    expect(page.get_by_text(words["note"])).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^" + words["real"]))).to_be_checked()

    page.get_by_role("button", name=words["start"]).click()
    # Nothing was created and nothing was changed: the form asks, with the choices kept.
    expect(page.locator("#form-error")).to_contain_text(words["asked"])
    assert "/g/" not in page.url
    expect(page.get_by_label(words["seat"])).to_have_value("greedy")
    expect(page.get_by_label(words["name"], exact=True)).to_have_value("Anna")
    expect(page.get_by_role("radio", name=re.compile("^" + words["real"]))).to_be_checked()

    page.get_by_role("radio", name=re.compile("^" + words["virtual"])).check()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.locator("#board")).to_be_visible()
    # The bot without a name plays as "Bot 2", in the seat it was given.
    expect(page.locator(".player-name", has_text="Bot 2").first).to_be_visible()
    expect(page.locator(".player-name").first).to_have_text("Anna")
    context.close()
