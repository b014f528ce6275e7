"""The new-game form does what was asked: a bot without a name keeps its seat, a bot with real
dice is asked about before anything is created (docs/board.md, "Bots"), and choosing a preset
shows its house rules alone, set to its values (kniffel.rules.HOUSE_RULES, issue 34)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from kniffel.locales import Translator
from kniffel.rules import HOUSE_RULES, house_rule
from kniffel.web.pages.forms import house_rule_fields

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


#: Each house-rule field of the new-game form: its value (a box's tick, the chosen button's value,
#: a number's text) and whether it shows. The body of a function; WebDriver runs it as it is.
READ_RULES = """
const form = document.querySelector("form[data-new-game]");
const out = {};
for (const part of form.querySelectorAll(".variant-rules")) {
  const field = part.querySelector("input");
  let value = field.value;
  if (field.type === "checkbox") value = field.checked;
  if (field.type === "radio") {
    const chosen = Array.from(part.querySelectorAll("input")).find((radio) => radio.checked);
    value = chosen ? chosen.value : null;
  }
  out[field.name] = { value: value, shown: !part.hidden };
}
return out;
"""


def expected_rules(preset: str) -> dict[str, object]:
    """The values ``preset``'s house-rule fields show once it is chosen (its own alone)."""
    expected: dict[str, object] = {}
    for shown in house_rule_fields(Translator("de")):
        if preset not in shown.presets:
            continue
        value = house_rule(shown.name).default_in(preset)
        expected[shown.name] = value == shown.on if shown.widget == "check" else str(value)
    return expected


def shown_rules(read: dict[str, dict[str, object]]) -> dict[str, object]:
    return {name: field["value"] for name, field in read.items() if field["shown"]}


def test_choosing_a_preset_shows_its_house_rules_alone_with_its_values(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/")
    page.locator("details.house-rules summary").click()
    # Jamb between the others: its own fields replace the Kniffel ones and back.
    for preset in ["yahtzee", "jamb", "yams", "kniffel", "rauf-runter", "dreifach"]:
        page.locator(f'input[name="variant"][value="{preset}"]').check()
        read = page.evaluate(f"() => {{{READ_RULES}}}")
        assert shown_rules(read) == expected_rules(preset), preset
    assert set(read) == {rule.name for rule in HOUSE_RULES}  # every rule has its field
    context.close()
