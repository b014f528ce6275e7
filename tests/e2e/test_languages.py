"""The board in French and Croatian (issue 23 item 4), in chromium at phone size.

A browser set to French (``fr-FR``) or Croatian (``hr-HR``) gets the start page in its language
without asking; a game started there names its rows as players there write them, a tap on a cell
that is not due is refused in that language, and an entry's preview counts in the language's
plural. The switcher changes the language and the device remembers it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE

DATA = Path(__file__).parents[1] / "data"

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Words:
    """What a player reads in one language (the catalogues' words, written out by hand)."""

    locale: str
    lang: str
    heading: str
    name: str
    start: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    locked: str
    refusal: re.Pattern[str]
    preview: str
    entered: str


FRENCH = Words(
    locale="fr-FR",
    lang="fr",
    heading="Nouvelle partie",
    name="Nom du joueur 1",
    start="Commencer la partie",
    rows=("As", "Brelan", "Carré", "Full", "Petite suite", "Grande suite"),
    columns=("Descendante", "Montante", "Libre"),
    locked="Descendante, Deux, bloquée",
    # French sets a (narrow) no-break space before ";".
    refusal=re.compile(r"^La case Descendante, Deux n’est pas à remplir\s;\sc’est As à remplir$"),
    preview="Descendante, As, à remplir, 3 points possibles",
    entered="Descendante, As, 3 points",
)
CROATIAN = Words(
    locale="hr-HR",
    lang="hr",
    heading="Nova igra",
    name="Ime igrača 1",
    start="Počni igru",
    rows=("Jedinice", "Šestice", "Triling", "Poker", "Ful", "Mala kenta"),
    columns=("Dolje", "Gore", "Slobodna"),
    locked="Dolje, Dvojke, zaključano",
    # "Polje" (a field) is what the verb agrees with; a due field is "sljedeće" (issue 32).
    refusal=re.compile(r"^Polje Dolje, Dvojke nije sljedeće; sljedeće je polje Jedinice$"),
    preview="Dolje, Jedinice, sljedeće polje, moguća 3 boda",
    entered="Dolje, Jedinice, 3 boda",
)


@pytest.mark.parametrize("words", [FRENCH, CROATIAN], ids=["fr", "hr"])
def test_a_game_reads_in_the_browser_s_language(
    browser: Browser, server: str, words: Words
) -> None:
    with start_page(browser, server, words.locale, words.lang) as page:
        # The start page, chosen by the browser alone.
        expect(page.get_by_role("heading", name=words.heading)).to_be_visible()
        current = page.locator(".lang a[aria-current=true]")
        expect(current).to_have_text(words.lang.upper())
        page.get_by_label(words.name, exact=True).fill("Ana")
        page.get_by_role("button", name=words.start).click()
        expect(page.locator(".game")).to_have_attribute("data-live", "open")
        expect(page.locator("html")).to_have_attribute("lang", words.lang)
        sheet = page.locator("#board")
        for word in (*words.rows, *words.columns):
            expect(sheet).to_contain_text(word)
        refused_then_entered(page, words)


def refused_then_entered(page: Page, words: Words) -> None:
    """A tap on a cell that is not due is refused in the page's language; a due one enters."""
    locked = page.get_by_role("button", name=words.locked, exact=True)
    locked.click(force=True)  # Playwright waits for enabled buttons; a finger does not
    expect(page.locator("#toast")).to_have_text(words.refusal)
    page.locator("#dice-input").focus()
    page.keyboard.type("11123")
    page.get_by_role("button", name=words.preview, exact=True).click()
    expect(page.get_by_role("button", name=re.compile("^" + words.entered))).to_be_visible()


def test_the_switcher_changes_the_language_and_the_device_remembers_it(
    browser: Browser, server: str
) -> None:
    with start_page(browser, server, "hr-HR", "hr") as page:
        switch(page, "SR", "sr-Latn", "Nova partija")
        page.goto(server + "/")  # no ?lang= now: the cookie holds the choice
        expect(page.locator("html")).to_have_attribute("lang", "sr-Latn")
        switch(page, "FR", "fr", "Nouvelle partie")


def test_the_file_picker_speaks_the_page_s_language(browser: Browser, server: str) -> None:
    """The browser's own file button says "Choose File" whatever the page's language (issue 32):
    the import form shows a labelled button of its own over the hidden input."""
    with start_page(browser, server, "fr-FR", "fr") as page:
        picker = page.get_by_label("Choisir un fichier", exact=True)
        expect(picker).to_have_attribute("type", "file")
        box = picker.bounding_box()
        assert box is not None and box["width"] <= 1 and box["height"] <= 1, box
        expect(page.locator(".file-none")).to_have_text("Aucun fichier choisi")
        picker.set_input_files(str(DATA / "rrk-not-due.json"))
        expect(page.locator(".file-chosen")).to_have_text("Fichier choisi")
        expect(page.locator(".file-none")).to_be_hidden()


@contextmanager
def start_page(browser: Browser, server: str, locale: str, lang: str) -> Iterator[Page]:
    """The start page on a phone whose browser asks for ``locale``, read in ``lang``."""
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    try:
        yield page
    finally:
        context.close()


def switch(page: Page, link: str, lang: str, heading: str) -> None:
    """A tap on the switcher's ``link``: the page reads in ``lang``, its heading ``heading``."""
    page.locator(".lang").get_by_role("link", name=link, exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
