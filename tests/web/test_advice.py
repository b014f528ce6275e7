"""The Tipp and the analysis in the board: the JSON API and the pages, for every preset."""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from kniffel.board.service import GameService
from kniffel.locales import Translator
from kniffel.record import loads, replay
from kniffel.rules import MAX_ROLLS, EnterAction, Game, RollAction
from kniffel.settings import Settings
from kniffel.solver.advice import advise, evaluate, reasons, turn_ends
from kniffel.solver.advice.analysis import analyse
from kniffel.web.app import create_app
from kniffel.web.present.advice_words import AdviceWords

from .waiting import settled

PRESETS = ["kniffel", "yahtzee", "rauf-runter", "dreifach"]
HX = {"HX-Request": "true"}


pytestmark = pytest.mark.usefixtures("table_cache")


@pytest.fixture
def client(bot_client: TestClient) -> TestClient:
    return bot_client


@pytest.fixture
def few_samples(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Simulated chances from a small bound of work (6,000, a thirtieth of ``turn_ends.WORK``,
    as the browser tests' servers), for the tests of what
    an answer lists, not of its figures (the panel's pending answers too, and the panels
    whose Rauf-Runter and Dreifach positions would otherwise leave full-size simulations
    running in the background for the next test to wait for):
    test_the_advice_gives_reasons[rauf-runter] keeps the real bound (the browser tests' servers
    take the same, ``KNIFFEL_TIPP_WORK`` in tests/e2e/conftest.py). The caches are fresh, so these
    less sure figures reach no other test.
    """
    assert reasons._BACKGROUND.wait_idle(1200)
    monkeypatch.setattr(turn_ends, "WORK", 6_000)
    monkeypatch.setattr(reasons, "_CACHE", reasons._Cache())
    monkeypatch.setattr(turn_ends, "STREAMS", turn_ends._Streams())
    yield
    # Nothing worked out with the smaller bound lands in the caches put back after the test.
    assert reasons._BACKGROUND.wait_idle(1200)


def _new(client: TestClient, variant: str, players: tuple[str, ...] = ("Anna", "Ben")) -> Any:
    response = client.post("/api/games", json={"variant": variant, "players": list(players)})
    assert response.status_code == 201, response.text
    return response.json()


def _send(client: TestClient, game: Any, event: dict[str, Any]) -> Any:
    response = client.post(
        f"/api/games/{game['id']}/events",
        json={"event": event},
        headers={"X-Kniffel-Key": game["key"]},
    )
    assert response.status_code == 200, response.text
    return response.json()


def _roll(client: TestClient, game: Any, faces: str, keep: tuple[int, ...] = ()) -> Any:
    event = {"type": "roll", "player": "Anna", "dice": [int(f) for f in faces], "keep": list(keep)}
    return _send(client, game, event)


def _advice(client: TestClient, game: Any, **params: Any) -> Any:
    """The advice with its chances: asked again while they are pending (each ask waits)."""
    for _ in range(2000):  # up to about 20 minutes on a busy machine
        response = client.get(f"/api/games/{game['id']}/advice", params=params)
        assert response.status_code == 200, response.text
        if not response.json()["chances_pending"]:
            break
    return response.json()


@pytest.mark.usefixtures("few_samples")
@pytest.mark.parametrize("variant", PRESETS)
def test_the_advice_api_lists_legal_choices_best_first(
    client: TestClient, service: GameService, variant: str
) -> None:
    game = _new(client, variant)
    start = _advice(client, game)
    assert start["player"] == "Anna" and start["rolls"] == 0 and start["dice"] is None
    assert [c["action"] for c in start["choices"]] == ["roll"]
    assert start["exact"] == (variant in ("kniffel", "yahtzee"))
    _roll(client, game, "66612")
    advice = _advice(client, game, top=100)
    assert (advice["rolls"], advice["dice"]) == (1, [1, 2, 6, 6, 6])
    engine = service.get(game["id"]).game
    legal = {str(o.cell): o.points + o.kniffel_bonus for o in engine.entry_options()}
    values = [c["expected"] for c in advice["choices"]]
    assert values == sorted(values, reverse=True) and advice["expected"] == values[0]
    for choice in advice["choices"]:
        if choice["action"] == "enter":
            assert legal[choice["cell"]] == choice["points"]
        else:
            assert RollAction(tuple(choice["keep"])) in engine.legal_actions()
    assert {c["cell"] for c in advice["choices"] if c["action"] == "enter"} == set(legal)
    ours = evaluate(engine)
    assert values == [c.expected for c in ours.choices]
    if variant in ("kniffel", "yahtzee"):
        exact = advise(engine, top=3)
        assert [c["expected"] for c in _advice(client, game, top=3)["choices"]] == pytest.approx(
            [c.expected for c in exact.choices], abs=1e-9
        )


@pytest.mark.usefixtures("few_samples")
@pytest.mark.parametrize("variant", ["kniffel", "rauf-runter"])
def test_typed_dice_are_advised_before_a_roll_is_recorded(client: TestClient, variant: str) -> None:
    game = _new(client, variant)
    typed = _advice(client, game, dice="66655", top=100)
    assert typed["dice"] == [5, 5, 6, 6, 6] and typed["rolls"] == 3
    assert {c["action"] for c in typed["choices"]} == {"enter"}
    first = _advice(client, game, dice="66655", rolls=1, top=100)
    assert "roll" in {c["action"] for c in first["choices"]}
    rolled = _roll(client, game, "66655")
    assert rolled["version"] == 1
    # once a roll is recorded its dice count, not the typed ones
    assert _advice(client, game, dice="11111", top=100) == first


def test_advice_refusals(client: TestClient, service: GameService) -> None:
    game = _new(client, "kniffel", ("Anna",))
    assert client.get("/api/games/nope/advice").status_code == 404
    bad = client.get(f"/api/games/{game['id']}/advice", params={"dice": "66a"})
    assert bad.status_code == 400 and "dice are digits" in bad.json()["detail"]
    for params in ({"rolls": 0}, {"rolls": 4}, {"top": 0}):
        assert client.get(f"/api/games/{game['id']}/advice", params=params).status_code == 422
    for row in Game(service.get(game["id"]).variant, ["Anna"]).rows:
        event = {"type": "enter", "player": "Anna", "cell": row.value, "dice": [1, 1, 2, 2, 4]}
        _send(client, game, event)
    over = client.get(f"/api/games/{game['id']}/advice")
    assert over.status_code == 400 and "finished" in over.json()["detail"]


@pytest.mark.parametrize("variant", PRESETS)
def test_the_analysis_api_matches_the_analysis(
    client: TestClient, service: GameService, variant: str
) -> None:
    game = _new(client, variant)
    _roll(client, game, "66666")
    engine = service.get(game["id"]).game
    worst = evaluate(engine).choices[-1].action
    assert isinstance(worst, EnterAction)
    _send(client, game, {"type": "enter", "player": "Anna", "cell": str(worst.cell)})
    cell = service.get(game["id"]).game.allowed_cells("Ben")[0]
    _send(
        client, game, {"type": "enter", "player": "Ben", "cell": str(cell), "dice": [1, 2, 3, 4, 6]}
    )
    response = settled(client, f"/api/games/{game['id']}/analysis")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data == analyse(service.get(game["id"]).game).as_dict()
    assert [d["event"] for d in data["decisions"]] == [2, 3]
    assert data["decisions"][0]["choice"]["cell"] == str(worst.cell)
    assert data["players"]["Anna"]["loss"] > 10
    assert data["players"]["Ben"]["decisions"] == 1
    top = settled(client, f"/api/games/{game['id']}/analysis", params={"top": 1}).json()
    assert [d["event"] for d in top["decisions"]] == [2]
    assert client.get("/api/games/nope/analysis").status_code == 404


@pytest.mark.parametrize("variant", PRESETS)
def test_the_advice_gives_reasons(
    client: TestClient,
    service: GameService,
    variant: str,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each choice's cost against the best and the chances of the bonus and of a Kniffel:
    exact in one-column presets (the chance table is built), simulated elsewhere (Rauf-Runter
    with a large bound of work, the board's until December 2026: a third of today's, whose
    figures benchmarks/tipp.py measures; Dreifach, the same code with three times the columns,
    from a small bound of work: what is asked of it here is the shape of the answer)."""
    if variant in ("dreifach", "rauf-runter"):
        request.getfixturevalue("few_samples")  # fresh caches, none of these figures kept after
    if variant == "rauf-runter":
        monkeypatch.setattr(turn_ends, "WORK", 60_000)
    game = _new(client, variant)
    start = _advice(client, game)
    _roll(client, game, "66612")
    advice = _advice(client, game, top=8)
    engine = service.get(game["id"]).game
    columns = {spec.id for spec in engine.variant.columns}
    exact = variant in ("kniffel", "yahtzee")
    assert advice["chances_method"] == ("exact" if exact else "simulation")
    assert (advice["samples"] == 0) == exact
    for chances in (start["chances"], advice["chances"]):
        assert set(chances["bonus"]) == columns
        assert all(0 <= p <= 1 for p in chances["bonus"].values())
        assert 0 < chances["kniffel"] < 1
    choices = advice["choices"]
    assert choices[0]["cost"] == 0
    for choice in choices:
        assert choice["cost"] == pytest.approx(advice["expected"] - choice["expected"])
        assert choice["cost"] >= 0
    simulated = [c["chances"] for c in choices[:6]]
    assert all(c is not None and set(c["bonus"]) == columns for c in simulated)
    if exact:
        assert all(c["chances"] is not None for c in choices)
        # Now is what the best choice leads to (the best bot plays it).
        assert choices[0]["chances"] == advice["chances"]
        entry = next(c for c in reversed(choices) if c["action"] == "enter")
        # An entry that is not in the upper rows leaves the upper sum, and the Kniffel ...
        assert entry["chances"]["kniffel"] <= advice["chances"]["kniffel"]
    # Asked again for the same position: the same figures (seeded, and kept).
    assert _advice(client, game, top=8) == advice


def test_the_api_documents_both_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/games/{game_id}/advice" in paths
    assert "/api/games/{game_id}/analysis" in paths
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"chances", "chances_method", "samples", "chances_pending", "chances_progress"} <= set(
        schemas["AdviceOut"]["properties"]
    )
    assert {"cost", "chances"} <= set(schemas["AdviceEnterChoice"]["properties"])
    assert set(schemas["ChancesOut"]["properties"]) == {"bonus", "kniffel"}
    assert not any(path.startswith("/g/") for path in paths)


# ------------------------------------------------------------------- pages


def _best_label(engine: Game, lang: str = "de") -> str:
    position = evaluate(engine)
    return AdviceWords(Translator(lang)).choice(position.choices[0], engine.variant, position.rolls)


@pytest.mark.usefixtures("few_samples")
@pytest.mark.parametrize("variant", PRESETS)
def test_the_tipp_panel_shows_the_best_choice_first(
    client: TestClient, service: GameService, variant: str
) -> None:
    game = _new(client, variant)
    _roll(client, game, "66612")
    engine = service.get(game["id"]).game
    response = client.get(f"/g/{game['id']}/tipp", headers=HX)
    assert response.status_code == 200
    text = html.unescape(response.text)
    assert "Tipp für <bdi>Anna</bdi>" in text and "Erwartete Endsumme" in text
    best = re.search(
        r'<li class="best">\s*<span class="tipp-seen"[^>]*>\s*'
        r'<span class="tipp-label">([^<]+)</span>',
        text,
    )
    assert best is not None and best.group(1) == _best_label(engine)
    assert best.group(1).startswith(("Behalten: ", "Eintragen: ", "Alle neu würfeln"))
    shown = AdviceWords(Translator("de")).decimal(evaluate(engine).expected)
    assert f"<strong data-expected>{shown}</strong>" in text
    assert text.split('data-tipp-mode="sieg"')[0].count("<li") == 5  # "Auf Punkte"
    english = html.unescape(client.get(f"/g/{game['id']}/tipp?lang=en", headers=HX).text)
    assert "Hint for <bdi>Anna</bdi>" in english and "Expected final total" in english
    assert _best_label(engine, "en") in english


def _panel(client: TestClient, game: Any, **params: Any) -> str:
    response = client.get(f"/g/{game['id']}/tipp", params=params, headers=HX)
    assert response.status_code == 200, response.text
    return html.unescape(response.text)


def test_the_tipp_panel_gives_reasons_in_both_languages(client: TestClient) -> None:
    """Kniffel: exact chances at once, a sentence per choice; two players: both modes."""
    game = _new(client, "kniffel")
    _roll(client, game, "66612")
    text = _panel(client, game)
    assert "data-tipp-reasons" not in text  # exact: nothing to wait for
    assert re.search(r"Bonus \d+\xa0% → <b class=\"trend-\w+\">\d+\xa0%</b>", text)
    assert re.search(r"Kniffel \d+\xa0% → <b", text)
    assert re.search(
        r"Behalten: 6 6 6: erwartete Endsumme [\d,]+, beste Wahl; Chance auf den Bonus von "
        r"\d+\xa0% auf \d+\xa0%; Chance auf einen Kniffel von \d+\xa0% auf \d+\xa0%\.",
        text,
    )
    assert "Chancen exakt berechnet" in text
    assert 'value="sieg"' in text and "Gewinnchance" in text
    english = html.unescape(client.get(f"/g/{game['id']}/tipp?lang=en", headers=HX).text)
    assert re.search(
        r"Keep: 6 6 6: expected final total [\d.]+, best choice; chance of the", english
    )
    assert "To win" in english and "For points" in english and "Win chance" in english


def test_alone_the_tipp_has_one_mode(client: TestClient) -> None:
    game = _new(client, "kniffel", ("Anna",))
    _roll(client, game, "66612")
    text = _panel(client, game)
    assert "tipp-modus" not in text and "data-reasons" in text


def _held_reasons(
    monkeypatch: pytest.MonkeyPatch, *, first_answers: bool = True
) -> threading.Event:
    """The background's simulations wait until the event is set: with a small bound of
    work a quiet machine simulated a first roll within the first answer's wait (0.3 s for the
    panel, 0.5 s for the API), and the tests of the pending answer failed. Without
    ``first_answers`` only the final figures wait: the first answers come."""
    held = threading.Event()
    estimate = reasons.estimate

    def after_the_first_answer(*args: Any, **kwargs: Any) -> Any:
        if first_answers or not kwargs.get("first"):
            assert held.wait(600)
        return estimate(*args, **kwargs)

    monkeypatch.setattr(reasons, "estimate", after_the_first_answer)
    return held


def test_simulated_reasons_follow_the_panel(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, few_samples: None
) -> None:
    """Rauf-Runter: the panel answers without the simulation and names where the chances
    are; asked there again (as static/tipp.js does) it says how far they are, until an
    answer has them, per column."""
    # The process keeps each position's reasons (reasons._CACHE) and every end state's games
    # (turn_ends.STREAMS): after an earlier test of the same position the panel would have
    # them at once.
    # An earlier test's position still worked out in the background would land in the new
    # cache too: wait until the background is idle first.
    assert reasons._BACKGROUND.wait_idle(1200)
    monkeypatch.setattr(reasons, "_CACHE", reasons._Cache())
    monkeypatch.setattr(turn_ends, "STREAMS", turn_ends._Streams())
    held = _held_reasons(monkeypatch)
    game = _new(client, "rauf-runter")
    _roll(client, game, "66612")
    text = _panel(client, game)
    held.set()
    found = re.search(r'data-tipp-reasons="([^"]+)"', text)
    assert found is not None and "data-reasons-waiting" in text
    assert found.group(1) == f"/g/{game['id']}/tipp?gruende=1"
    assert re.search(r"Die Chancen von Bonus und Kniffel werden geschätzt … \d+\s%", text)
    for _ in range(2000):  # up to about 20 minutes on a busy machine: each ask waits 0.6 s
        full = _panel(client, game, gruende="1")
        if "data-tipp-reasons" not in full:
            break
        assert f'data-tipp-reasons="{found.group(1)}"' in full
    assert "data-tipp-reasons" not in full and "data-reasons-waiting" not in full
    assert re.search(r"Bonus Runter \d+\xa0% → <b", full) and "Bonus Frei" in full
    assert re.search(r"der Rest aus \d+ Spielen des starken Bots, auf ±[\d,]+ Prozentpunkte", full)
    # Kept: the panel asked again has its chances at once.
    assert "data-tipp-reasons" not in _panel(client, game)


def test_a_panel_that_waited_for_its_tables_shows_its_choices_without_waiting_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, few_samples: None
) -> None:
    """The panel that asked again after its tables were built (static/tafel/tipp.js, the
    address the waiting panel names) answers with the choices at once, the reasons to follow;
    any other first ask waits its moment for them (docs/solver.md, "The Tipp's reasons")."""
    assert reasons._BACKGROUND.wait_idle(1200)
    monkeypatch.setattr(reasons, "_CACHE", reasons._Cache())
    monkeypatch.setattr(turn_ends, "STREAMS", turn_ends._Streams())
    held = _held_reasons(monkeypatch)
    waits: list[float] = []
    pending = reasons.pending

    def recorded(*args: Any, seconds: float, **kwargs: Any) -> Any:
        waits.append(seconds)
        return pending(*args, seconds=seconds, **kwargs)

    monkeypatch.setattr(reasons, "pending", recorded)
    game = _new(client, "rauf-runter")
    _roll(client, game, "66612")
    try:
        text = _panel(client, game, gewartet="1")
        assert waits == [0.0]
        assert "beste Wahl" in text and "data-reasons-waiting" in text
        found = re.search(r'data-tipp-reasons="([^"]+)"', text)
        assert found is not None and found.group(1).endswith("gruende=1")
        _panel(client, game)
        assert waits == [0.0, 0.3]
    finally:
        held.set()


def test_the_advice_api_answers_at_once_with_the_reasons_pending(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, few_samples: None
) -> None:
    """Rauf-Runter: the JSON answers with the choices and their expected totals without the
    simulated chances, says they are pending and how far they are; asked again it has them,
    and the same figures on every later request."""
    assert reasons._BACKGROUND.wait_idle(1200)
    monkeypatch.setattr(reasons, "_CACHE", reasons._Cache())
    monkeypatch.setattr(turn_ends, "STREAMS", turn_ends._Streams())
    held = _held_reasons(monkeypatch)
    game = _new(client, "rauf-runter")
    _roll(client, game, "66612")
    response = client.get(f"/api/games/{game['id']}/advice")
    held.set()
    assert response.status_code == 200
    first = response.json()
    assert first["chances_pending"] is True
    assert 0 <= first["chances_progress"] < 1
    assert first["chances"] is None and first["samples"] == 0
    assert first["choices"] and all(c["chances"] is None for c in first["choices"])
    assert first["choices"][0]["cost"] == 0
    full = _advice(client, game)
    assert full["chances_pending"] is False and full["chances_progress"] == 1.0
    assert full["chances"] is not None and full["samples"] > 0
    assert all(c["chances"] is not None for c in full["choices"])
    assert [c["expected"] for c in full["choices"]] == [c["expected"] for c in first["choices"]]
    assert _advice(client, game) == full


def test_the_panel_shows_a_first_answer_with_its_interval_then_the_final_figures(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, few_samples: None
) -> None:
    """Rauf-Runter, first roll: the final figures take seconds. Asked again, the panel shows
    the first answer (figures marked ≈, its wider interval, "genauer berechnet" and still a
    place to ask again), in both languages; then the final figures without ≈."""
    held = _held_reasons(monkeypatch, first_answers=False)
    game = _new(client, "rauf-runter")
    _roll(client, game, "66612")
    try:
        for _ in range(600):  # each ask waits up to 0.6 s for the first answer
            text = _panel(client, game, gruende="1")
            if 'data-tipp-stage="first"' in text:
                break
        assert 'data-tipp-stage="first"' in text and "data-tipp-reasons" in text
        assert re.search(r"Bonus Runter ≈ \d+\xa0% → <b class=\"trend-\w+\">≈ \d+\xa0%</b>", text)
        assert re.search(r"Jetzt: Bonus Runter ≈ \d+\xa0%", text)
        found = re.search(
            r"Erste Schätzung: der Zug exakt, der Rest aus (\d+) Spielen des "
            r"starken Bots, auf ±([\d,]+) Prozentpunkte genau \(95 %\)",
            text,
        )
        assert found is not None and float(found.group(2).replace(",", ".")) > 2
        assert re.search(r"Die Chancen werden genauer berechnet … \d+\s%", text)
        assert re.search(r"Chance auf den Bonus in Runter von ≈ \d+\xa0% auf ≈ \d+\xa0%", text)
        english = client.get(
            f"/g/{game['id']}/tipp", params={"gruende": "1", "lang": "en"}, headers=HX
        ).text
        assert "First estimate: this turn exactly" in html.unescape(english)
        assert "worked out more precisely" in html.unescape(english)
        # The JSON says the same: a first answer, with its interval, the final one pending.
        answer = client.get(f"/api/games/{game['id']}/advice").json()
        assert answer["chances_first"] is True and answer["chances_pending"] is True
        assert answer["chances"] is not None and answer["samples"] == int(found.group(1))
        assert answer["chances_half_width"] > 0.02
    finally:
        held.set()
    for _ in range(2000):
        text = _panel(client, game, gruende="1", lang="de")  # ?lang=en was remembered
        if "data-tipp-reasons" not in text:
            break
    assert 'data-tipp-stage="final"' in text and "≈" not in text
    assert re.search(r"Bonus Runter \d+\xa0% → <b", text) and "Erste Schätzung" not in text
    final = _advice(client, game)
    assert final["chances_first"] is False and final["chances_pending"] is False
    assert final["samples"] > answer["samples"]
    assert final["chances_half_width"] < answer["chances_half_width"]


@pytest.mark.usefixtures("few_samples")
def test_the_tipp_highlights_the_best_cell_and_the_dice_to_keep(
    client: TestClient, service: GameService
) -> None:
    game = _new(client, "rauf-runter")
    _roll(client, game, "66666")
    text = html.unescape(client.get(f"/g/{game['id']}/tipp").text)
    best = evaluate(service.get(game["id"]).game).choices[0].action
    assert isinstance(best, EnterAction)
    assert f'data-highlight-cell="c0-{best.cell}"' in text
    labels = re.findall(r'<span class="tipp-label">([^<]+)</span>', text)
    assert labels[0].startswith("Eintragen: ") and ", " in labels[0]  # column, then row


def test_the_tipp_takes_the_typed_dice_in_physical_games(client: TestClient) -> None:
    game = _new(client, "kniffel")
    text = html.unescape(client.get(f"/g/{game['id']}/tipp?dice=66655").text)
    assert "Zu den Würfeln 55666 (3. Wurf)" in text
    labels = re.findall(r'<span class="tipp-label">([^<]+)</span>', text)
    assert labels and all(label.startswith("Eintragen: ") for label in labels)
    start = html.unescape(client.get(f"/g/{game['id']}/tipp").text)
    assert "Vor dem ersten Wurf." in start and "Würfeln" in start
    refused = client.get(f"/g/{game['id']}/tipp?dice=6665x")
    assert refused.status_code == 422 and 'role="alert"' in refused.text
    assert client.get("/g/nope/tipp").status_code == 404


@pytest.mark.parametrize("rolls", ["zwei", "0", "4", "-1"])
def test_the_tipp_refuses_a_roll_it_cannot_be_in_words(client: TestClient, rolls: str) -> None:
    """``?rolls=`` outside 1 to MAX_ROLLS is refused with its bounds (it was read as points,
    and a 4 or a 0 silently became the third roll)."""
    game = _new(client, "kniffel")
    refused = client.get(f"/g/{game['id']}/tipp?dice=66655&rolls={rolls}")
    text = html.unescape(refused.text)
    assert refused.status_code == 422 and 'role="alert"' in text
    assert f"„{rolls}“ ist keine ganze Zahl von 1 bis {MAX_ROLLS}." in text
    assert "Zu den Würfeln" not in text
    english = html.unescape(
        client.get(f"/g/{game['id']}/tipp?dice=66655&rolls={rolls}&lang=en").text
    )
    assert f'"{rolls}" is not a whole number from 1 to {MAX_ROLLS}.' in english
    first = html.unescape(client.get(f"/g/{game['id']}/tipp?dice=66655&rolls=1&lang=de").text)
    assert "Zu den Würfeln 55666 (1. Wurf)" in first


@pytest.mark.parametrize("top", ["0", "drei", "-2"])
def test_the_analysis_refuses_a_count_of_decisions_in_words(client: TestClient, top: str) -> None:
    """``?top=`` below 1 or no number is refused in words (it was dropped without a word)."""
    game = _new(client, "kniffel")
    refused = settled(client, f"/g/{game['id']}/analyse/alle?top={top}")
    text = html.unescape(refused.text)
    assert refused.status_code == 422 and 'role="alert"' in text
    assert f"„{top}“ ist keine ganze Zahl ab 1." in text
    french = html.unescape(settled(client, f"/g/{game['id']}/analyse/alle?top={top}&lang=fr").text)
    assert f"« {top} » n’est pas un nombre entier d’au moins 1." in french


def test_the_board_offers_the_tipp_and_the_analysis(client: TestClient) -> None:
    game = _new(client, "dreifach")
    page = client.get(f"/g/{game['id']}").text
    # tafel.js asks for it with the typed dice and which roll they are
    assert f'data-tipp="/g/{game["id"]}/tipp"' in page
    assert f'href="/g/{game["id"]}/analyse"' in page
    english = client.get(f"/g/{game['id']}?lang=en").text
    assert "Hint" in english and "Analysis" in english


@pytest.mark.parametrize("variant", PRESETS)
def test_the_analysis_page_lists_decisions_and_losses(
    client: TestClient, service: GameService, variant: str
) -> None:
    game = _new(client, variant)
    empty = settled(client, f"/g/{game['id']}/analyse/alle")
    assert empty.status_code == 200 and "Noch keine Entscheidungen." in empty.text
    _roll(client, game, "66661")
    _roll(client, game, "12345", keep=(1,))  # a poor keep
    _send(client, game, {"type": "enter", "player": "Anna", "cell": _first_allowed(service, game)})
    result = analyse(service.get(game["id"]).game)
    text = html.unescape(settled(client, f"/g/{game['id']}/analyse/alle").text)
    assert "Analyse: " in text and "Erwarteter Verlust je Spieler" in text
    assert text.count('<tr class="costly" data-event="2">') == 1
    words = AdviceWords(Translator("de"))
    assert f"<td data-loss>{words.decimal(result.players['Anna'].loss)}</td>" in text
    assert "Behalten: 1" in text
    english = html.unescape(settled(client, f"/g/{game['id']}/analyse/alle?lang=en").text)
    assert "Expected loss per player" in english and "Keep: 1" in english
    top = html.unescape(settled(client, f"/g/{game['id']}/analyse/alle?top=1&lang=de").text)
    assert "Die 1 teuersten Entscheidungen" in top and top.count("data-event=") == 1


def _first_allowed(service: GameService, game: Any) -> str:
    engine = service.get(game["id"]).game
    return str(engine.entry_options()[0].cell)


def test_the_analysis_page_of_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/g/nope/analyse").status_code == 404
    assert client.get("/g/nope/analyse/alle").status_code == 404


def test_the_tipp_work_setting_bounds_the_simulated_reasons(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``KNIFFEL_TIPP_WORK`` sets the process's bound of work behind the simulated reasons (the
    browser tests' servers run at 6,000); unset, the built-in bound stays; a bound too small
    to mean anything is refused in words."""
    monkeypatch.setattr(turn_ends, "WORK", turn_ends.WORK)  # put back after the test
    built_in = turn_ends.WORK
    with TestClient(create_app(Settings(db=db_url))):
        assert built_in == turn_ends.WORK
    monkeypatch.setenv("KNIFFEL_TIPP_WORK", "6000")
    with TestClient(create_app(Settings(db=db_url))):
        assert turn_ends.WORK == 6000
    monkeypatch.setenv("KNIFFEL_TIPP_WORK", "10")
    with pytest.raises(ValidationError, match="tipp_work"):
        Settings()


@pytest.mark.usefixtures("few_samples")
def test_after_an_entry_each_persons_next_turn_is_worked_out_ahead_in_a_game_that_asks_the_tipp(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Rauf-Runter the Tipp's reasons are simulated; once a game has asked for the Tipp,
    each entry lets the background work out the start of each person's next turn while the
    others play (docs/solver.md, "The Tipp's reasons"): Ben's, who moves now, and Anna's, whose
    sheet stays as it is until her turn. A game that never asks for the Tipp costs nothing of
    the kind."""
    monkeypatch.setattr(turn_ends, "WORK", 1_000)  # what is worked out, not its figures
    quiet = _new(client, "rauf-runter")
    _roll(client, quiet, "66612")
    worked = reasons._BACKGROUND.worked_ahead
    _send(client, quiet, {"type": "enter", "player": "Anna", "cell": "down.ones"})
    assert reasons._BACKGROUND.wait_idle(1200)
    assert reasons._BACKGROUND.worked_ahead == worked

    game = _new(client, "rauf-runter")
    _roll(client, game, "66612")
    assert client.get(f"/api/games/{game['id']}/advice").status_code == 200
    assert reasons._BACKGROUND.wait_idle(1200)  # Anna's reasons, asked
    _send(client, game, {"type": "enter", "player": "Anna", "cell": "down.ones"})
    assert reasons._BACKGROUND.wait_idle(1200)
    assert reasons._BACKGROUND.worked_ahead == worked + 2  # Ben's turn and Anna's next
    # Ben's Tipp before his first roll is there at once: the position worked out ahead.
    bens = client.get(f"/api/games/{game['id']}/advice").json()
    assert bens["player"] == "Ben" and bens["dice"] is None
    assert bens["chances_pending"] is False and bens["chances"] is not None
    engine = service.get(game["id"]).game
    kept = reasons.reasons(engine, None, 0, [RollAction()], exact=False, compute=False)
    assert kept is not None and kept.now.as_dict() == bens["chances"]
    # Ben plays his turn; Anna's next Tipp was worked out while he did (nothing new to do).
    _send(client, game, {"type": "roll", "player": "Ben", "dice": [2, 2, 3, 4, 5], "keep": []})
    _send(client, game, {"type": "enter", "player": "Ben", "cell": "down.ones"})
    assert reasons._BACKGROUND.wait_idle(1200)
    assert reasons._BACKGROUND.worked_ahead == worked + 3  # only Ben's next turn is new
    annas = client.get(f"/api/games/{game['id']}/advice").json()
    assert annas["player"] == "Anna" and annas["dice"] is None
    assert annas["chances_pending"] is False and annas["chances"] is not None


def test_rolls_made_offline_are_stored_marked_and_the_review_says_so(
    client: TestClient, service: GameService
) -> None:
    """Virtual dice rolled on a device with no network (tafel/offline.js) come with the form's
    ``dice`` and the device's name: stored as rolls, marked in the record and said in the review;
    the board's own rolls are not marked, and a roll naming no proper device is refused."""
    created = client.post(
        "/games", data={"player": ["Anna"], "dice_mode": "virtual"}, follow_redirects=False
    )
    game_id = created.headers["location"].removeprefix("/g/")
    device = "a1b2c3d4e5f60718"
    rolls = [
        {"version": "0", "dice": "66653", "offline": device},
        {"version": "1", "keep": ["6", "6", "6"], "dice": "66612", "offline": device},
        {"version": "2", "keep": ["6", "6", "6"]},  # the board rolls again
    ]
    for roll in rolls:
        assert client.post(f"/g/{game_id}/roll", data=roll, headers=HX).status_code == 200
    nameless = {"version": "3", "dice": "12345", "offline": "?"}
    refused = client.post(f"/g/{game_id}/roll", data=nameless, headers=HX)
    assert refused.status_code == 422
    entry = {"cell": "free.sixes", "version": "3"}
    answer = client.post(f"/g/{game_id}/enter", data=entry, headers=HX)
    assert answer.status_code == 200, re.findall(r'id="notice"[^>]*>([^<]*)', answer.text)
    record = client.get(f"/api/games/{game_id}/record").json()
    assert [event.get("offline") for event in record["events"]] == [device, device, None, None]
    assert record["events"][1] == {
        "type": "roll",
        "player": "Anna",
        "keep": [6, 6, 6],
        "dice": [1, 2, 6, 6, 6],
        "offline": device,
    }
    # Read as any record (kniffel replay): the mark is a field the reader passes over; the
    # board's import keeps it.
    assert replay(loads(json.dumps(record))).log == service.get(game_id).game.log
    imported = client.post("/api/records", json=record).json()["id"]
    assert client.get(f"/api/games/{imported}/record").json()["events"] == record["events"]
    text = html.unescape(settled(client, f"/g/{game_id}/analyse").text)
    assert "Ohne Netz gewürfelt" in text
    said = f"Anna: 3 5 6 6 6, gewürfelt auf einem Gerät ohne Netz ({device}), nicht von der Tafel"
    assert f"{said} – Ereignis 1 im Spielverlauf." in text
    assert text.count("gewürfelt auf einem Gerät ohne Netz") == 2
