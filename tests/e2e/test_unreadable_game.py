"""A game a newer release stored (a variant this release does not know, as during a rolling
restart) is listed on the start page as one this version cannot read; the page and every other
game are as before (issue 33, item 8: the start page answered 400 for everybody)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import create_engine, text

from .conftest import BOARD, PHONE, running_board
from .test_accessibility import post
from .webdriver import Driver

pytestmark = pytest.mark.e2e

WORDS = "Diese Version der Tafel kann dieses Spiel nicht lesen"


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A board of its own with an unreadable open game ("Zukunft") and a readable one."""
    folder: Path = tmp_path_factory.mktemp("unreadable")
    with running_board(folder, BOARD, {"KNIFFEL_PREBUILD_TABLES": "0"}) as url:
        newer = post(url + "/api/games", {"variant": "kniffel", "players": ["Zukunft"]})
        post(url + "/api/games", {"variant": "kniffel", "players": ["Heute"]})
        engine = create_engine(f"sqlite:///{folder / 'kniffel.db'}")
        with engine.begin() as connection:  # as a newer release would have stored it
            connection.execute(
                text("UPDATE games SET variant = 'kniffel_2099' WHERE id = :id"),
                {"id": newer["id"]},
            )
        engine.dispose()
        yield url


def test_the_start_page_lists_a_newer_release_s_game_in_words(browser: Browser, board: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    answer = page.goto(board + "/", wait_until="domcontentloaded")
    assert answer is not None and answer.status == 200
    games = page.locator("#open-games-title + .game-list li")
    expect(games.filter(has_text="Heute").get_by_role("link")).to_have_count(1)
    unreadable = games.filter(has_text="Zukunft")
    expect(unreadable).to_contain_text(WORDS)
    expect(unreadable.get_by_role("link")).to_have_count(0)  # nothing to open
    context.close()


@pytest.mark.webkit
def test_the_start_page_lists_it_in_webkit_too(webkit: Driver, board: str) -> None:
    with webkit.session() as session:
        session.go(board + "/")
        found = session.wait(
            "const items = [...document.querySelectorAll('.game-list li')];"
            "const item = items.find(li => li.textContent.includes('Zukunft'));"
            "return item && [item.textContent, item.querySelectorAll('a').length,"
            " items.some(li => li.textContent.includes('Heute') && li.querySelector('a'))];",
            what="the games' list",
        )
    assert WORDS in found[0] and found[1] == 0 and found[2] is True
