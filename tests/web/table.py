"""Short ways to drive the API in tests: start a game, send events, read it back."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def new_game(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"variant": "rauf-runter", "players": ["Anna", "Ben"], **fields}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def send(client: TestClient, game: dict[str, Any], event: dict[str, Any], **body: Any) -> Any:
    """POST one event with the game's key; returns the response."""
    return client.post(
        f"/api/games/{game['id']}/events",
        json={"event": event, **body},
        headers={"X-Kniffel-Key": game["key"]},
    )


def enter(player: str, cell: str, dice: str | None = None, **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "enter", "player": player, "cell": cell, **extra}
    if dice is not None:
        event["dice"] = [int(face) for face in dice]
    return event


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def advice(client: TestClient, game: dict[str, Any]) -> Any:
    """GET the game's Tipp with its key; returns the response."""
    return client.get(f"/api/games/{game['id']}/advice", headers={"X-Kniffel-Key": game["key"]})
