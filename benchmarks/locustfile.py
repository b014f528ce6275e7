"""Locust users that play at the board like players at a table.

Run through ``benchmarks/load.py``, which starts a throwaway server on loopback and
bounds the run; this file only says what one user does. Each user starts a
Rauf-Runter game with physical dice and two players, then plays turns: it reads
the state, asks for the preview of dice it "threw", enters them into one of the
allowed cells, now and then takes the entry back (undo) or looks at the board
page, and starts a new game when the sheet is full.

The users are ``FastHttpUser`` (geventhttpclient): with ``HttpUser`` (requests) locust needed
about a core for 450 requests/s on this 2-core machine, and every latency it printed held its own
queue as well as the server's (docs/benchmarks.md, "Load").
"""

from __future__ import annotations

import random
from typing import Any

from locust import between, task
from locust.contrib.fasthttp import FastHttpUser

# Names group the requests by kind, not by game id, so the figures are per kind.
STATE = "GET /api/games/[id]"
PREVIEW = "GET /api/games/[id]/preview"
ENTER = "POST /api/games/[id]/events enter"
UNDO = "POST /api/games/[id]/events undo"
PAGE = "GET /g/[id]"
CREATE = "POST /api/games"

UNDO_CHANCE = 0.05
PAGE_CHANCE = 0.1


class Player(FastHttpUser):
    """One device at the table, entering physical dice for both players in turn."""

    # Short pauses: a real table thinks for seconds; this is a load test.
    wait_time = between(0.05, 0.25)

    game_id: str = ""
    key: str = ""

    def on_start(self) -> None:
        self.new_game()

    def new_game(self) -> None:
        body = {"variant": "rauf-runter", "players": ["Anna", "Ben"], "dice_mode": "physical"}
        with self.client.post("/api/games", json=body, name=CREATE, catch_response=True) as r:
            if r.status_code != 201:
                r.failure(f"create answered {r.status_code}")
                return
            created = r.json()
        self.game_id = created["id"]
        self.key = created["key"]

    @task
    def play_turn(self) -> None:
        if not self.game_id:
            self.new_game()
            return
        state = self.get_json(f"/api/games/{self.game_id}", STATE)
        if state is None:
            return
        if state["finished"] or state["turn"] is None:
            self.new_game()
            return
        dice = "".join(str(random.randint(1, 6)) for _ in range(5))
        preview = self.get_json(f"/api/games/{self.game_id}/preview?dice={dice}", PREVIEW)
        if preview is None:
            return
        allowed = set(state["turn"]["allowed"])
        cells = [entry["cell"] for entry in preview["entries"] if entry["cell"] in allowed]
        if not cells:
            return
        event = {
            "type": "enter",
            "player": state["turn"]["player"],
            "cell": random.choice(cells),
            "dice": [int(face) for face in dice],
        }
        after = self.post_event(event, state["version"], ENTER)
        if after is not None and after["can_undo"] and random.random() < UNDO_CHANCE:
            self.post_event({"type": "undo"}, after["version"], UNDO)
        if random.random() < PAGE_CHANCE:
            self.client.get(f"/g/{self.game_id}", name=PAGE)

    def get_json(self, path: str, name: str) -> Any:
        with self.client.get(path, name=name, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"answered {r.status_code}: {r.text[:80]}")
                return None
            return r.json()

    def post_event(self, event: dict[str, Any], version: int, name: str) -> Any:
        body = {"event": event, "expected_version": version}
        headers = {"X-Kniffel-Key": self.key}
        with self.client.post(
            f"/api/games/{self.game_id}/events",
            json=body,
            headers=headers,
            name=name,
            catch_response=True,
        ) as r:
            if r.status_code != 200:
                r.failure(f"answered {r.status_code}: {r.text[:80]}")
                return None
            return r.json()
