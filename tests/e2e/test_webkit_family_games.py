"""The whole Jamb and Yams games of issue 32 in WebKit (every iPhone's engine), at phone size:
the same scripts as in chromium (tests/e2e/test_jamb_family_games.py,
tests/e2e/test_yams_family_game.py), played through WebDriver by tests/e2e/jamb_webkit.py, with
the totals checked against the tests' own reckoning from the dice. A file of its own, so that
CI's second process plays it beside the chromium games.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import PHONE
from .jamb_pages import OTHER_ENGINE
from .jamb_webkit import WebKitTable
from .test_jamb_family_games import play_jamb
from .test_yams_family_game import play_yams
from .webdriver import Driver, Session

pytestmark = [pytest.mark.e2e, pytest.mark.webkit, pytest.mark.slow]


@pytest.fixture(scope="module")
def iphone(webkit: Driver) -> Iterator[Session]:
    with webkit.session() as session:
        session.resize(PHONE["width"], PHONE["height"])
        yield session


@OTHER_ENGINE  # CI plays both games in chromium (its 15 minutes): docs/contributing.md
def test_a_three_player_yams_with_virtual_dice_in_french_in_webkit(
    iphone: Session, server: str
) -> None:
    play_yams(WebKitTable(iphone, server))


@OTHER_ENGINE
def test_a_four_player_jamb_with_real_dice_in_croatian_in_webkit(
    iphone: Session, server: str
) -> None:
    play_jamb(WebKitTable(iphone, server))
