"""The rules' Web Worker (docs/decisions.md, "The board offline", "Python in a Web Worker"): the
service worker keeps its file with the page's static files, and its answer carries the policy
under which it compiles Pyodide (a worker's policy is its own answer's, not the page's)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

WORKER = "/static/rules-worker.js"


def test_the_service_worker_keeps_the_rules_worker_with_the_static_files(
    client: TestClient,
) -> None:
    script = client.get("/sw.js").text
    files = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert {WORKER, "/static/rules.js", "/offline/kniffel.zip"} <= set(files)
    assert not [path for path in files if path.startswith("/static/pyodide/")]  # their own cache

    answer = client.get(WORKER)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    policy = dict(
        (part.split()[0], part.split()[1:])
        for part in answer.headers["content-security-policy"].split(";")
    )
    assert policy["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert 'import("/static/pyodide/pyodide.mjs")' in answer.text
