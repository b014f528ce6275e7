"""The JSON API: games, events, corrections, keys, records and error answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.record import loads, replay, state_dict
from kniffel.rules import EVENT_TYPES, PRESETS, event_fields
from kniffel.web.api.schemas import VariantName

from .table import enter, new_game, send, state

DATA = Path(__file__).parents[1] / "data"


def test_a_new_game_answers_its_id_key_link_and_state(client: TestClient) -> None:
    game = new_game(client, options={"kniffel_bonus": 100})
    assert game["version"] == 0
    # The key travels in the fragment, which a browser never sends (docs/architecture.md).
    assert game["url"] == f"/g/{game['id']}#key={game['key']}"
    assert len(game["id"]) >= 12 and len(game["key"]) >= 20 and game["id"] != game["key"]
    assert game["options"]["kniffel_bonus"] == 100
    assert game["options"]["joker"] == "free"  # the preset's value stays
    assert [c["id"] for c in game["columns"]] == ["down", "up", "free"]
    assert game["turn"]["player"] == "Anna"
    assert game["turn"]["allowed"][:2] == ["down.ones", "up.chance"]
    assert game["dice_mode"] == "physical" and game["bots"] == {}


def test_reading_a_game_never_shows_its_key(client: TestClient) -> None:
    game = new_game(client)
    assert "key" not in state(client, game)
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [game["id"]]
    assert game["key"] not in json.dumps(listed)


def test_every_new_game_gets_its_own_id_and_key(client: TestClient) -> None:
    games = [new_game(client) for _ in range(5)]
    assert len({g["id"] for g in games}) == 5
    assert len({g["key"] for g in games}) == 5


def test_an_entry_is_stored_and_scored(client: TestClient) -> None:
    game = new_game(client)
    response = send(client, game, enter("Anna", "down.ones", "11156"))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == 1
    assert body["players"][0]["columns"]["down"]["cells"]["ones"] == 3
    assert body["turn"]["player"] == "Ben"
    assert state(client, game) == body


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (enter("Ben", "down.ones", "11156"), "it is not Ben's turn; Anna is to move"),
        (enter("Anna", "down.twos", "22256"), "down.twos is not due; the due cell of down is ones"),
        (enter("Anna", "down.ones", points=6), "6 points are not possible in ones"),
        (enter("Anna", "down.ones", "1115"), "a roll has exactly 5 dice, got 4"),
        (enter("Zoe", "down.ones", "11156"), "unknown player 'Zoe'"),
        (enter("Anna", "side.ones", "11156"), "unknown column 'side'"),
        ({"type": "undo"}, "there is nothing to undo"),
        ({"type": "clear", "player": "Anna", "cell": "down.ones"}, "down.ones is empty"),
    ],
)
def test_an_illegal_event_answers_the_engines_message_and_changes_nothing(
    client: TestClient, event: dict[str, Any], message: str
) -> None:
    game = new_game(client)
    response = send(client, game, event)
    assert response.status_code == 400
    assert message in response.json()["detail"]
    after = state(client, game)
    assert after["version"] == 0
    assert after["players"][0]["total"] == 0


@pytest.mark.parametrize(
    "event",
    [
        enter("Anna", "down.ones", points=3.5),
        enter("Anna", "down.ones", points=True),
        enter("Anna", "down.ones", points="3"),
        {"type": "enter", "player": "Anna", "cell": "down.ones", "dice": "11156"},
        {"type": "enter", "player": 7, "cell": "down.ones", "points": 3},
        {"type": "jump", "player": "Anna"},
        {"player": "Anna", "cell": "down.ones"},
        {"type": "edit", "player": "Anna", "cell": "down.ones"},
        [],
        "undo",
    ],
)
def test_a_malformed_event_answers_422_with_a_plain_message(client: TestClient, event: Any) -> None:
    game = new_game(client)
    response = send(client, game, event)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    assert state(client, game)["version"] == 0


@pytest.mark.parametrize(
    "content",
    [b"{", b"", b"null", b"[1, 2]", b'{"event": {"type": "undo"}, "extra": 1}', b"\xff\xfe"],
)
def test_a_broken_body_answers_4xx_never_5xx(client: TestClient, content: bytes) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/events",
        content=content,
        headers={"X-Kniffel-Key": game["key"], "Content-Type": "application/json"},
    )
    assert 400 <= response.status_code < 500
    assert isinstance(response.json()["detail"], str)


def test_fields_a_writer_adds_are_ignored_and_null_counts_as_absent(client: TestClient) -> None:
    game = new_game(client)
    event = {**enter("Anna", "down.ones", "11156"), "points": None, "meta": {"at": "noon"}}
    response = send(client, game, event)
    assert response.status_code == 200, response.text
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["events"] == [
        {"type": "enter", "player": "Anna", "cell": "down.ones", "dice": [1, 1, 1, 5, 6]}
    ]


def test_a_change_needs_the_games_key(client: TestClient) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/events"
    body = {"event": enter("Anna", "down.ones", "11156")}
    missing = client.post(url, json=body)
    wrong = client.post(url, json=body, headers={"X-Kniffel-Key": game["key"] + "x"})
    other = new_game(client)
    foreign = client.post(url, json=body, params={"key": other["key"]})
    for response in (missing, wrong, foreign):
        assert response.status_code == 403
        assert "key" in response.json()["detail"]
    assert state(client, game)["version"] == 0
    by_query = client.post(url, json=body, params={"key": game["key"]})
    assert by_query.status_code == 200


def test_unknown_games_answer_404(client: TestClient) -> None:
    for response in (
        client.get("/api/games/nope"),
        client.get("/api/games/nope/record"),
        client.get("/api/games/nope/preview"),
        client.post("/api/games/nope/events", json={"event": {"type": "undo"}}),
        client.post("/api/games/nope/roll", json={"player": "Anna"}, params={"key": "k"}),
    ):
        assert response.status_code == 404
        assert response.json() == {
            "code": "game_not_found",
            "params": {"game": "nope"},
            "message": "there is no game 'nope'",
            "detail": "there is no game 'nope'",
        }


def test_expected_version_refuses_a_change_made_on_an_old_state(client: TestClient) -> None:
    game = new_game(client)
    assert send(client, game, enter("Anna", "down.ones", "11156"), expected_version=0).is_success
    late = send(client, game, enter("Ben", "down.ones", "11123"), expected_version=0)
    assert late.status_code == 409
    assert "changed meanwhile" in late.json()["detail"]
    assert state(client, game)["version"] == 1
    assert send(client, game, enter("Ben", "down.ones", "11123"), expected_version=1).is_success


def test_edit_clear_and_undo_to_any_depth(client: TestClient) -> None:
    game = new_game(client)
    moves = [
        enter("Anna", "down.ones", "11156"),
        enter("Ben", "up.chance", "66655"),
        {"type": "edit", "player": "Anna", "cell": "down.ones", "points": 4},
        {"type": "clear", "player": "Ben", "cell": "up.chance"},
    ]
    for move in moves:
        assert send(client, game, move).status_code == 200
    now = state(client, game)
    assert now["players"][0]["columns"]["down"]["cells"]["ones"] == 4
    assert now["players"][1]["columns"]["up"]["cells"]["chance"] is None
    assert now["turn"]["player"] == "Ben"  # the clear gave Ben his turn back
    totals = []
    for _ in moves:
        body = send(client, game, {"type": "undo"}).json()
        totals.append([p["total"] for p in body["players"]])
    assert totals == [[4, 28], [3, 28], [3, 0], [0, 0]]
    nothing = send(client, game, {"type": "undo"})
    assert nothing.status_code == 400
    assert nothing.json()["detail"] == "there is nothing to undo"
    assert state(client, game)["version"] == 8  # undos are events too


def test_physical_rolls_then_an_entry_uses_the_last_roll(client: TestClient) -> None:
    game = new_game(client, variant="kniffel", players=["Anna"])
    send(client, game, {"type": "roll", "player": "Anna", "dice": [6, 6, 1, 2, 3]})
    body = send(
        client, game, {"type": "roll", "player": "Anna", "keep": [6, 6], "dice": [6, 6, 6, 6, 2]}
    ).json()
    assert body["turn"]["rolls"] == 2 and sorted(body["turn"]["dice"]) == [2, 6, 6, 6, 6]
    sixes = [e for e in body["entries"] if e["cell"] == "main.sixes"]
    assert sixes == [{"cell": "main.sixes", "points": 24, "kniffel_bonus": 0, "joker": False}]
    refused = send(client, game, enter("Anna", "main.chance", "66666"))
    assert refused.status_code == 400 and "enter those dice" in refused.json()["detail"]
    body = send(client, game, enter("Anna", "sixes")).json()
    assert body["players"][0]["total"] == 24
    board_roll = client.post(
        f"/api/games/{game['id']}/roll",
        json={"player": "Anna"},
        headers={"X-Kniffel-Key": game["key"]},
    )
    assert board_roll.status_code == 400
    assert "physical dice" in board_roll.json()["detail"]


def _roll(client: TestClient, game: dict[str, Any], keep: list[int] | None = None) -> Any:
    return client.post(
        f"/api/games/{game['id']}/roll",
        json={"player": "Anna", "keep": keep or []},
        headers={"X-Kniffel-Key": game["key"]},
    )


def test_virtual_dice_the_board_rolls_and_a_roll_stands(client: TestClient) -> None:
    game = new_game(client, variant="kniffel", players=["Anna"], dice_mode="virtual")
    early = send(client, game, enter("Anna", "main.chance"))
    assert early.status_code == 400
    assert early.json()["detail"] == "Anna has not rolled yet; roll first"
    first = _roll(client, game)
    assert first.status_code == 200, first.text
    assert first.json()["can_undo"] is False  # a roll stands
    dice = first.json()["turn"]["dice"]
    assert len(dice) == 5 and all(1 <= d <= 6 for d in dice)
    keep = sorted(dice)[:2]
    second = _roll(client, game, keep).json()
    assert second["turn"]["rolls"] == 2
    rest = list(second["turn"]["dice"])
    for face in keep:
        rest.remove(face)  # the kept faces are still there
    for refused_event, words in [
        ({"type": "roll", "player": "Anna", "dice": [6, 6, 6, 6, 6]}, "the board rolls"),
        (enter("Anna", "main.kniffel", "66666"), "only the rolled dice"),
        (enter("Anna", "main.chance", points=30), "only the rolled dice"),
        ({"type": "undo"}, "a roll stands"),
    ]:
        response = send(client, game, refused_event)
        assert response.status_code == 400
        assert words in response.json()["detail"]
    assert state(client, game)["version"] == 2
    entered = send(client, game, enter("Anna", "main.chance")).json()
    assert entered["players"][0]["total"] == sum(second["turn"]["dice"])
    assert entered["can_undo"] is True
    # Corrections of cells stay possible, and an entry can be undone (the dice come back).
    assert send(
        client, game, {"type": "edit", "player": "Anna", "cell": "chance", "points": 5}
    ).is_success
    assert send(client, game, {"type": "undo"}).is_success
    back = send(client, game, {"type": "undo"}).json()
    assert back["turn"]["dice"] == second["turn"]["dice"]
    assert send(client, game, {"type": "undo"}).status_code == 400


def test_a_bad_keep_is_refused_with_the_engines_message(client: TestClient) -> None:
    game = new_game(client, variant="kniffel", players=["Anna"], dice_mode="virtual")
    first = _roll(client, game, [6])
    assert first.status_code == 400
    assert first.json()["detail"] == "the first roll of a turn keeps no dice"
    _roll(client, game)
    for keep in ([7], [1, 1, 1, 1, 1, 1]):
        assert _roll(client, game, keep).status_code == 400
    assert state(client, game)["version"] == 1


def test_bot_seats_are_stored_and_need_virtual_dice(client: TestClient) -> None:
    game = new_game(client, dice_mode="virtual", bots={"Ben": "best"})
    assert game["bots"] == {"Ben": "best"}
    assert state(client, game)["bots"] == {"Ben": "best"}
    physical = client.post("/api/games", json={"players": ["Anna", "Ben"], "bots": {"Ben": "best"}})
    assert physical.status_code == 400 and "virtual dice" in physical.json()["detail"]
    stranger = client.post(
        "/api/games",
        json={"players": ["Anna"], "dice_mode": "virtual", "bots": {"Ben": "greedy"}},
    )
    assert stranger.status_code == 400 and "'Ben' does not play" in stranger.json()["detail"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"players": ["Anna", "Anna"]}, 400, "distinct"),
        ({"players": ["  "]}, 400, "non-empty"),
        ({"players": []}, 422, "players"),
        ({"players": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}, 422, "players"),
        ({"players": ["Anna"], "variant": "schach"}, 422, "variant"),
        ({"players": ["Anna"], "options": {"joker": "wild"}}, 422, "joker"),
        ({"players": ["Anna"], "options": {"colour": "red"}}, 422, "colour"),
        ({"players": ["Anna"], "options": {"kniffel_bonus": -1}}, 422, "kniffel_bonus"),
        ({"players": ["Anna"], "dice_mode": "dreamt"}, 422, "dice_mode"),
        ({"players": "Anna"}, 422, "players"),
    ],
)
def test_a_bad_new_game_is_refused(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert words in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_player_names_come_back_exactly_as_given(client: TestClient) -> None:
    name = "<script>alert('x')</script> & Ö"
    game = new_game(client, players=[name, "Ben"])
    response = client.get(f"/api/games/{game['id']}")
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["players"][0]["name"] == name


def test_preview_scores_given_dice_for_every_allowed_cell(client: TestClient) -> None:
    game = new_game(client)
    body = client.get(f"/api/games/{game['id']}/preview", params={"dice": "66655"}).json()
    assert body["player"] == "Anna" and body["dice"] == [5, 5, 6, 6, 6]
    points = {e["cell"]: e["points"] for e in body["entries"]}
    assert points["down.ones"] == 0
    assert points["up.chance"] == 28
    assert points["free.full_house"] == 25
    assert set(points) == set(state(client, game)["turn"]["allowed"])
    assert client.get(f"/api/games/{game['id']}/preview").json()["entries"] == []
    bad = client.get(f"/api/games/{game['id']}/preview", params={"dice": "6665x"})
    assert bad.status_code == 400 and "digits from 1 to 6" in bad.json()["detail"]


def test_a_games_state_is_the_replay_of_its_exported_record(client: TestClient) -> None:
    game = new_game(client, variant="dreifach", options={"chance": False})
    for move in [
        enter("Anna", "x3.sixes", "66666"),
        enter("Ben", "x1.kniffel", "22222"),
        {"type": "undo"},
        enter("Ben", "x2.kniffel", "22222"),
    ]:
        assert send(client, game, move).is_success
    response = client.get(f"/api/games/{game['id']}/record")
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "kniffel-record/1"
    assert record["options"]["chance"] is False
    assert len(record["events"]) == 4
    replayed = state_dict(replay(loads(json.dumps(record))))
    served = state(client, game)
    assert {k: served[k] for k in replayed} == replayed


def test_a_record_imports_as_a_new_game_with_the_same_state(client: TestClient) -> None:
    text = (DATA / "rrk-due-and-clear.json").read_text()
    response = client.post(
        "/api/records", content=text, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 201, response.text
    imported = response.json()
    expected = state_dict(replay(loads(text)))
    assert {k: imported[k] for k in expected} == expected
    assert imported["key"] and imported["dice_mode"] == "physical"
    again = client.get(f"/api/games/{imported['id']}/record").json()
    assert state_dict(replay(loads(json.dumps(again)))) == expected


def test_an_illegal_record_is_refused_with_its_event_number_and_nothing_stored(
    client: TestClient,
) -> None:
    text = (DATA / "rrk-not-due.json").read_text()
    expected = (DATA / "rrk-not-due.expected").read_text().strip()
    response = client.post(
        "/api/records", content=text, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith("event ")
    assert response.json()["detail"] in expected
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    ("document", "status", "words"),
    [
        ({"format": "kniffel-record/2", "variant": "kniffel", "players": ["A"]}, 400, "format"),
        ({"format": "kniffel-record/1", "variant": "schach", "players": ["A"]}, 400, "variant"),
        ({"format": "kniffel-record/1", "variant": "kniffel", "players": []}, 400, "players"),
        (
            {"format": "kniffel-record/1", "variant": "kniffel", "players": ["A"], "events": [1]},
            422,
            "events",
        ),
        ({"variant": "kniffel", "players": ["A"]}, 422, "format"),
    ],
)
def test_a_broken_record_is_refused(
    client: TestClient, document: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/records", json=document)
    assert response.status_code == status
    assert words in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_the_list_filters_finished_games(client: TestClient) -> None:
    finished = new_game(client, variant="kniffel", players=["Anna"], options={"chance": False})
    for row, dice in [
        ("ones", "11111"),
        ("twos", "22222"),
        ("threes", "33333"),
        ("fours", "44444"),
        ("fives", "55555"),
        ("sixes", "66666"),
        ("three_kind", "11123"),
        ("four_kind", "11112"),
        ("full_house", "11122"),
        ("small_straight", "12345"),
        ("large_straight", "23456"),
        ("kniffel", "12346"),
    ]:
        assert send(client, finished, enter("Anna", row, dice)).is_success, row
    running = new_game(client)
    done = state(client, finished)
    assert done["finished"] is True and done["winners"] == ["Anna"] and done["turn"] is None
    ids = lambda query: [g["id"] for g in client.get("/api/games", params=query).json()]  # noqa: E731
    assert ids({"finished": "true"}) == [finished["id"]]
    assert ids({"finished": "false"}) == [running["id"]]
    assert set(ids({})) == {finished["id"], running["id"]}
    assert client.get("/api/games", params={"finished": "perhaps"}).status_code == 422


def test_the_variant_names_of_the_api_are_the_presets() -> None:
    assert set(VariantName.__args__) == set(PRESETS)  # type: ignore[attr-defined]


def test_the_spec_has_every_event_type_with_the_fields_of_its_class(client: TestClient) -> None:
    """The API's event models are the rules' event classes (kniffel.rules.event_fields), as the
    record reader's are: one shape of an event (issue 34)."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for kind, event in EVENT_TYPES.items():
        schema = schemas[f"{event.__name__}Event"]
        fields = event_fields(event)
        assert list(schema["properties"]) == ["type", *(f.name for f in fields)]
        assert schema["properties"]["type"]["const"] == kind
        assert schema["required"] == ["type", *(f.name for f in fields if f.required)]


def test_the_openapi_spec_documents_every_route_and_its_errors(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    routes = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert routes >= {
        ("/api/games", "post"),
        ("/api/games", "get"),
        ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/events", "post"),
        ("/api/games/{game_id}/roll", "post"),
        ("/api/games/{game_id}/preview", "get"),
        ("/api/games/{game_id}/record", "get"),
        ("/api/records", "post"),
    }
    for path, method in routes:
        if not path.startswith("/api/"):
            continue
        responses = spec["paths"][path][method]["responses"]
        refusals = [status for status in responses if status.startswith("4")]
        assert "4XX" in refusals
        for status in refusals:
            assert responses[status]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorBody"
            }
    assert set(spec["components"]["schemas"]["ErrorBody"]["required"]) == {
        "code",
        "message",
        "detail",
    }
    assert {"KeyHeader", "KeyQuery"} <= set(spec["components"]["securitySchemes"])


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/games", "GET, POST"),
        ("PUT", "/api/games/abc", "GET"),
        ("GET", "/api/games/abc/events", "POST"),
        ("GET", "/api/records", "POST"),
    ],
)
def test_a_wrong_method_answers_405_with_every_allowed_method(
    client: TestClient, method: str, path: str, allow: str
) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert response.json()["detail"] == "Method Not Allowed"
    assert response.json()["code"] == "method_not_allowed"
