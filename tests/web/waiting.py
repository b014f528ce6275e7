"""Reads whose figures fill in: ask, and while the answer is 202 let the app's queues work
the figures out, then ask again (docs/api.md, "Answers that fill in")."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient

__all__ = ["settled"]

#: Seconds a queue may take for one piece of work on a busy machine.
WAIT = 600


def settled(client: TestClient, url: str, **kwargs: Any) -> httpx.Response:
    """The answer to GET ``url`` once no queue of the app still works on it."""
    state = client.app.state  # type: ignore[attr-defined]
    answer = client.get(url, **kwargs)
    for _ in range(5):  # a table build, then the review or list: a few rounds at most
        if answer.status_code != 202:
            return answer
        for queued in (state.reviews.queued, state.advice.wins_queued, state.chances.live):
            assert queued.join(timeout=WAIT)
        answer = client.get(url, **kwargs)
    return answer
