"""The review's chart on the review page, also when it was asked for before the review was made."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .test_accessibility import post

pytestmark = pytest.mark.e2e


def test_the_review_chart_asked_for_early_shows_on_the_review_page(
    browser: Browser, server: str
) -> None:
    """Issue 21: the chart's request made the whole review when nobody had made it yet. Now it
    answers 202 ("being drawn") and queues the review; the review page shows the chart drawn
    from the review. The game is not finished, so the background thread reviews nothing."""
    game = post(server + "/api/games", {"variant": "kniffel", "players": ["Hanne", "Jost"]})
    for event in [
        {"type": "roll", "player": "Hanne", "dice": [6, 6, 6, 6, 6]},
        {"type": "enter", "player": "Hanne", "cell": "main.chance"},
        {"type": "enter", "player": "Jost", "cell": "main.fours", "dice": [4, 4, 4, 1, 2]},
    ]:
        post(f"{server}/api/games/{game['id']}/events", {"event": event}, game["key"])
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    chart = f"{server}/g/{game['id']}/analyse/verlauf.svg?lang=de"
    first = page.request.get(chart)
    assert first.status == 202 and "Das Diagramm wird gezeichnet" in first.text()
    answers: list[int] = []  # the page's own requests of the chart
    page.on("response", lambda r: answers.append(r.status) if "verlauf.svg" in r.url else None)
    page.goto(f"{server}/g/{game['id']}/analyse")
    expect(page.get_by_role("heading", name="Spielbericht: Kniffel")).to_be_visible(timeout=180_000)
    image = page.locator("img[data-review-chart]")
    image.scroll_into_view_if_needed()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle(), timeout=180_000
    )
    assert answers and answers[-1] == 200, answers  # the chart, not the "being drawn" picture
    drawn = page.request.get(chart)
    assert drawn.status == 200 and "data-chart-pending" not in drawn.text()
    context.close()
