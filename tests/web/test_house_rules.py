"""The house rules are declared once (``kniffel.rules.HOUSE_RULES``, issue 34): the API's models,
the new-game form and its script, the start page's choices and the CLI's flags are made from the
declaration. Each test sets every house rule a preset offers to a value other than the preset's,
through one of them, and finds it in the game: a derived list that misses an option fails here
(docs/contributing.md, "Adding a house rule")."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import click
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from kniffel.cli.variant_flags import family_variant_options
from kniffel.rules import HOUSE_RULES, PRESETS, HouseRule, Options, Variant, house_rule
from kniffel.web.api.schemas import JambOptionsOut, OptionsIn, OptionsOut
from kniffel.web.pages.forms import NewGame, NewGameForm

NAMES = [rule.name for rule in HOUSE_RULES]


def other_value(rule: HouseRule, preset: str) -> Any:
    """A value of ``rule`` that ``preset`` does not start with."""
    default = rule.default_in(preset)
    if rule.kind is bool:
        return not default
    if rule.choices:
        return next(choice for choice in rule.choices if choice != default)
    return default + 7


def changed(preset: str) -> dict[str, Any]:
    """Every house rule ``preset`` offers, set to another value than the preset's."""
    return {name: other_value(house_rule(name), preset) for name in PRESETS[preset].options.offered}


def test_the_declaration_names_every_field_of_the_options_and_every_offered_rule() -> None:
    fields = set(Options.__dataclass_fields__) - {"sheet", "offered"}
    assert sorted(NAMES) == sorted(fields)
    for name, variant in PRESETS.items():
        assert set(variant.options.offered) <= set(NAMES), name
    assert all(rule.presets for rule in HOUSE_RULES)


def test_the_api_models_have_a_field_per_house_rule() -> None:
    assert list(OptionsIn.model_fields) == NAMES
    assert set(OptionsOut.model_fields) == set(PRESETS["kniffel"].options.offered)
    assert set(JambOptionsOut.model_fields) == set(PRESETS["jamb"].options.offered)
    assert set(NAMES) <= set(NewGameForm.model_fields)
    assert list(NewGame().rules) == NAMES


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_api_starts_a_game_with_every_house_rule_of_the_preset(
    client: TestClient, preset: str
) -> None:
    options = changed(preset)
    body = {"variant": preset, "players": ["Ana"], "options": options}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    assert answer.json()["options"] == options


def form_text(rule: HouseRule, value: Any) -> str:
    """What the start page's field of ``rule`` posts for ``value`` (its box, buttons or number)."""
    if rule.kind is bool:
        return "1" if value else ""
    if len(rule.choices) == 2:
        return str(value) if value != rule.default else ""
    return str(value)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_form_starts_a_game_with_every_house_rule_of_the_preset(
    client: TestClient, preset: str
) -> None:
    options = changed(preset)
    fields = {name: form_text(house_rule(name), value) for name, value in options.items()}
    form = {"variant": preset, "player": ["Ana"], "house_rules": "1", **fields}
    answer = client.post("/games", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    game_id = str(answer.headers["location"]).rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").json()["options"] == options


def test_the_start_page_offers_every_house_rule_for_the_presets_that_offer_it(
    client: TestClient,
) -> None:
    page = client.get("/").text
    form = page[page.index("data-new-game") : page.index("</form>")]
    script = json.loads(html.unescape(re.search(r"data-house-rules='([^']*)'", form)[1]))  # type: ignore[index]
    assert [rule["name"] for rule in script] == NAMES
    for rule in HOUSE_RULES:
        part = re.search(
            rf'class="variant-rules" data-variants="([^"]*)"[^>]*>(?:(?!class="variant-rules").)*'
            rf'name="{rule.name}"',
            form,
            re.S,
        )
        assert part is not None, rule.name
        assert part[1].split() == list(rule.presets), rule.name
    # Each preset's radio button carries the values the script sets its fields to.
    for name, variant in PRESETS.items():
        button = re.search(rf'value="{name}"\s+data-options=\'([^\']*)\'', form)
        assert button is not None, name
        assert json.loads(html.unescape(button[1])) == variant.options.as_dict()


@click.command()
@family_variant_options
def shown(variant: Variant) -> None:
    click.echo(json.dumps(variant.options.as_dict()))


def cli_arguments(rule: HouseRule, value: Any) -> list[str]:
    """``rule`` set to ``value`` on the command line: its own flag, else ``--option``."""
    flag = rule.name.replace("_", "-")
    if "kniffel" not in rule.presets:
        return ["--option", f"{rule.name}={str(value).lower()}"]
    if rule.kind is bool:
        assert value != rule.default
        return [f"--no-{flag}" if rule.default else f"--{flag}"]
    return [f"--{flag}", str(value)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_cli_sets_every_house_rule_of_the_preset(preset: str) -> None:
    options = changed(preset)
    arguments = ["--variant", preset]
    for name, value in options.items():
        arguments += cli_arguments(house_rule(name), value)
    result = CliRunner().invoke(shown, arguments)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == options
