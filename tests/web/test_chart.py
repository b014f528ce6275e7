"""The board's charts (kniffel.charts): what the SVG shows, read back as XML.

Every chart is drawn by one module (docs/decisions.md, "One chart stack"); these tests read
the documents the board serves and check their content: the title and description, the
axes' words and ticks, one line (or bar) per series with its name, names as text.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

from fastapi.testclient import TestClient

import kniffel
from kniffel.board.service import GameService
from kniffel.charts import totals as chart
from kniffel.charts.draw import Bar, Labels, Line, Mark, histogram_svg, lines_svg
from kniffel.charts.totals import totals_chart_svg
from kniffel.locales import Translator
from kniffel.rules import Clear, Dice, Enter, Game, get_variant

SVG = "{http://www.w3.org/2000/svg}"


def _game(*players: str) -> Game:
    game = Game(get_variant("kniffel"), list(players))
    for player in players:
        game.push(Enter(player, game.cell("chance"), points=20))
    return game


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _texts(root: ET.Element) -> list[str]:
    """The visible words of the chart (its ``<text>`` nodes), in order."""
    return [node.text or "" for node in root.iter(f"{SVG}text")]


def _lines(root: ET.Element) -> dict[str, ET.Element]:
    """Each series' group by its name."""
    return {g.get("aria-label", ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "line"}


def test_the_end_chart_shows_every_players_running_total(
    client: TestClient, service: GameService
) -> None:
    view = service.create("kniffel", None, ["Anna", "Ben"])
    for player, points in (("Anna", 20), ("Ben", 25), ("Anna", 30)):
        cell = "main.chance" if points != 30 else "main.sixes"
        event = {"type": "enter", "player": player, "cell": cell, "points": points}
        service.apply(view.id, view.key, event)
    answer = client.get(f"/g/{view.id}/chart.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    root = _parse(answer.text)
    assert root.get("role") == "img" and root.get("aria-labelledby") == "chart-title chart-desc"
    assert root.findtext(f"{SVG}title") == "Punktestand nach jedem Zug"
    assert root.findtext(f"{SVG}desc") == (
        "Anna: von 0 bis 50 (höchstens 50). Ben: von 0 bis 25 (höchstens 25)."
    )
    words = _texts(root)
    assert {"Zug", "Gesamt", "Anna", "Ben"} <= set(words)
    assert "0" in words and "50" in words  # the y axis from 0 up to the highest total
    lines = _lines(root)
    assert list(lines) == ["Anna", "Ben"]
    anna = lines["Anna"].find(f"{SVG}polyline")
    assert anna is not None and len(anna.get("points", "").split()) == 3  # start and two turns
    points = [c.findtext(f"{SVG}title") for c in lines["Anna"].iter(f"{SVG}circle")]
    assert points == ["Zug 0: 0", "Zug 1: 20", "Zug 2: 50"]


def test_the_end_chart_speaks_english(client: TestClient, service: GameService) -> None:
    view = service.create("kniffel", None, ["Anna"])
    service.apply(
        view.id, view.key, {"type": "enter", "player": "Anna", "cell": "main.chance", "points": 9}
    )
    root = _parse(client.get(f"/g/{view.id}/chart.svg?lang=en").text)
    assert root.findtext(f"{SVG}title") == "Running total after every turn"
    assert root.findtext(f"{SVG}desc") == "Anna: from 0 to 9 (highest 9)."
    assert root.get("lang") == "en" and {"Turn", "Total"} <= set(_texts(root))


def test_a_name_with_markup_and_dollars_is_text() -> None:
    svg = totals_chart_svg(_game("Bäcker $1 & $2", "<b>Ben</b>"), Translator("de"))
    root = _parse(svg)
    assert list(_lines(root)) == ["Bäcker $1 & $2", "<b>Ben</b>"]
    assert {"Bäcker $1 & $2", "<b>Ben</b>"} <= set(_texts(root))
    assert "<b>" not in svg and "&lt;b&gt;Ben&lt;/b&gt;" in svg


def test_the_chart_of_a_game_with_dollar_names_answers(
    client: TestClient, service: GameService
) -> None:
    view = service.create("kniffel", None, ["Ich $^$ du", "Bäcker $1 & $2"])
    response = client.get(f"/g/{view.id}/chart.svg")
    assert response.status_code == 200
    assert set(_lines(_parse(response.text))) == {"Ich $^$ du", "Bäcker $1 & $2"}


def test_a_share_axis_is_written_in_percent_with_its_band() -> None:
    line = Line("Anna", (0, 1, 2), (0.5, 0.6, 1.0), band=((0.4, 0.5, 1.0), (0.6, 0.7, 1.0)))
    labels = Labels("Gewinnchancen", "Eintrag", "Gewinnchance")
    root = _parse(lines_svg([line], labels, Translator("de"), ylim=(0, 1), percent=True))
    words = _texts(root)
    assert "0\xa0%" in words and "100\xa0%" in words and "Eintrag" in words
    assert root.findtext(f"{SVG}desc") == "Anna: von 50\xa0% bis 100\xa0% (höchstens 100\xa0%)."
    assert len(list(_lines(root)["Anna"].iter(f"{SVG}polygon"))) == 1
    exact = Line("Anna", (0, 1), (0.5, 1.0), band=((0.5, 1.0), (0.5, 1.0)))
    english = _parse(lines_svg([exact], labels, Translator("en"), ylim=(0, 1), percent=True))
    assert "100%" in _texts(english) and not list(english.iter(f"{SVG}polygon"))


def test_a_histogram_has_a_bar_per_filled_bin_and_its_marks() -> None:
    bars = [Bar(100, 110, 3), Bar(110, 120, 0), Bar(120, 130, 1)]
    labels = Labels("Punkteverteilung", "Punkte", "Anzahl")
    svg = histogram_svg(bars, labels, Translator("en"), marks=[Mark("Mean", 112.5)])
    root = _parse(svg)
    assert [r.findtext(f"{SVG}title") for r in root.iter(f"{SVG}rect")] == [
        "100–109: 3",
        "120–129: 1",
    ]
    assert root.findtext(f"{SVG}desc") == "4 values from 100 to 129. Mean at 112.5."
    assert {"Punkte", "Anzahl", "Mean"} <= set(_texts(root))


def test_an_empty_chart_says_so() -> None:
    labels = Labels("Punkte über die Zeit", "Spiel", "Punkte")
    root = _parse(lines_svg([], labels, Translator("de")))
    assert root.findtext(f"{SVG}desc") == "Noch keine Werte."


def test_no_module_draws_with_matplotlib() -> None:
    """One chart stack: nothing in the project imports matplotlib (docs/decisions.md)."""
    source = Path(kniffel.__file__).parent
    found = []
    for path in sorted(source.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(name.split(".")[0] == "matplotlib" for name in names):
                found.append(str(path.relative_to(source)))
    assert found == []


def test_a_cleared_and_refilled_cell_is_one_turn() -> None:
    game = Game(get_variant("kniffel"), ["Anna", "Ben"])
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66612")))
    game.push(Enter("Ben", game.cell("chance"), points=20))
    game.push(Clear("Anna", game.cell("sixes")))
    game.push(Enter("Anna", game.cell("sixes"), dice=Dice.parse("66661")))
    game.push(Enter("Anna", game.cell("chance"), points=25))
    assert chart.running_totals(game) == [[0, 24, 49], [0, 20]]
