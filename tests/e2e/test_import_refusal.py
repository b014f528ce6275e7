"""A refused import is shown where the person looks: beside the import form, in view (issue 8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE

pytestmark = pytest.mark.e2e

DATA = Path(__file__).parents[1] / "data"


def test_a_refused_import_is_in_view_and_in_german(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.goto(server + "/")
    page.locator("#record-file").set_input_files(str(DATA / "rrk-not-due.json"))
    page.get_by_role("button", name="Importieren").click()
    refusal = page.locator("#import-error")
    expect(refusal).to_contain_text("Import abgelehnt, nichts gespeichert: Ereignis")
    expect(refusal).to_be_in_viewport()
    expect(refusal).to_be_focused()
    context.close()
