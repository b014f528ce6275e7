"""Prometheus metrics at ``/metrics`` (``kniffel serve --metrics`` or ``KNIFFEL_METRICS=1``).

Off by default. When on, a small ASGI middleware counts every HTTP request by
method, route template (``/api/games/{game_id}``, never the id itself) and
status, and times it; turns, live sockets and the replay cache are read when
Prometheus scrapes. Each server process keeps its own figures: with several
processes, scrape each one (docs/deploy.md). ``prometheus_client`` is imported
only when metrics are on, so a plain start does not pay for it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry, Counter, Histogram
    from prometheus_client.core import Metric

__all__ = ["install_metrics"]


class _Metrics:
    def __init__(self, app: FastAPI) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry: CollectorRegistry = CollectorRegistry()
        self.requests: Counter = Counter(
            "kniffel_http_requests",
            "HTTP requests answered, by method, route template and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.seconds: Histogram = Histogram(
            "kniffel_http_request_duration_seconds",
            "Time from a request's arrival to the end of its answer.",
            ["method", "route"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
            registry=self.registry,
        )
        self.registry.register(_StateCollector(app))


class _StateCollector:
    """Figures read at scrape time: turns, live sockets and the replay cache."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        service = getattr(self.app.state, "service", None)
        hub = getattr(self.app.state, "hub", None)
        turns = getattr(self.app.state, "turns", None)
        if turns is not None:
            yield GaugeMetricFamily(
                "kniffel_requests_running",
                "Requests holding a turn (docs/decisions.md, Changes first).",
                value=turns.active,
            )
            yield GaugeMetricFamily(
                "kniffel_requests_waiting", "Requests waiting for a turn.", value=turns.waiting
            )
        if hub is not None and hasattr(hub, "watcher_total"):
            yield GaugeMetricFamily(
                "kniffel_live_sockets", "Open live-update WebSockets.", value=hub.watcher_total()
            )
        if service is not None:
            cache = service.replays
            yield GaugeMetricFamily(
                "kniffel_replay_cache_games", "Replays kept in memory.", value=len(cache)
            )
            yield GaugeMetricFamily(
                "kniffel_replay_cache_events", "Events the kept replays hold.", value=cache.events
            )
            yield CounterMetricFamily(
                "kniffel_replay_cache_hits", "Reads answered from a kept replay.", value=cache.hits
            )
            yield CounterMetricFamily(
                "kniffel_replay_cache_misses", "Reads that replayed events.", value=cache.misses
            )


class _MetricsMiddleware:
    def __init__(self, app: ASGIApp, metrics: _Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            template = _template(scope)
            method = str(scope.get("method", ""))
            self.metrics.requests.labels(method, template, str(status)).inc()
            self.metrics.seconds.labels(method, template).observe(time.perf_counter() - start)


def _template(scope: Scope) -> str:
    """The matched route's template (``/spieler/{name}``), never a part of the path asked for,
    so no name, id or made-up path becomes a label.

    Rebuilding the template from the path let every new path through a ``{name:path}``
    parameter (it may hold slashes) become a label of its own. A route included under a
    prefix knows its path without it: the prefix is the static text before the first place
    where the route's pattern matches the rest of the path (that place comes no later than the
    prefix's end, so the label takes no part of what the client chose).
    """
    route = scope.get("route")
    template = getattr(route, "path_format", None)
    pattern = getattr(route, "path_regex", None)
    if template is None or pattern is None:
        return "(unmatched)"
    path = str(scope.get("path", ""))
    for start, char in enumerate(path):
        if char == "/" and pattern.match(path[start:]):
            return path[:start] + str(template)
    return str(template)


def install_metrics(app: FastAPI) -> None:
    """Add the middleware and the ``/metrics`` route to ``app``."""
    metrics = _Metrics(app)
    app.add_middleware(_MetricsMiddleware, metrics=metrics)

    @app.get("/metrics", include_in_schema=False)
    def prometheus_metrics(request: Request) -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)
