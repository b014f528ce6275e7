"""The headers every answer carries: a CSP without inline script or style, no framing, no
sniffing, no referrer; pages that may hold a key are never cached (issue 9, findings 6 and 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.web import rendering

from .table import new_game

TEMPLATES = rendering.TEMPLATES
STATIC = Path(rendering.__file__).parent / "static"


def _csp(answer_headers: dict[str, str]) -> dict[str, str]:
    policy = answer_headers["content-security-policy"]
    return {part.split()[0]: part for part in (p.strip() for p in policy.split(";")) if part}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    game = new_game(client)
    for path in ("/", f"/g/{game['id']}", "/api/games", "/static/tafel.css", "/nowhere"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "no-referrer", path
        csp = _csp(dict(headers))
        assert csp["frame-ancestors"] == "frame-ancestors 'none'", path
        # No inline script, no eval; WebAssembly for the rules offline (docs/decisions.md).
        assert csp["script-src"] == "script-src 'self' 'wasm-unsafe-eval'", path
        assert csp["style-src"] == "style-src 'self'", path


def test_pages_are_not_cached_and_vary_with_the_key_cookie(client: TestClient) -> None:
    game = new_game(client)
    for path in ("/", f"/g/{game['id']}", f"/g/{game['id']}/board"):
        headers = client.get(path).headers
        assert headers["cache-control"] == "no-store", path
        assert "Cookie" in [v.strip() for v in headers["vary"].split(",")], path
    # Static files stay cacheable.
    assert "no-store" not in client.get("/static/tafel.css").headers.get("cache-control", "")


def test_templates_and_script_need_nothing_the_policy_forbids() -> None:
    """No inline script, event handler, style element or attribute, nor htmx's eval (hx-on)."""
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template
        assert not re.search(r"\son[a-z]+\s*=", text), template
        assert not re.search(r"\shx-on[:-]|hx-vars|js:", text), template
        assert "<style" not in text and not re.search(r'\sstyle="', text), template
    base = (TEMPLATES / "base.html").read_text()
    assert '"includeIndicatorStyles": false' in base and '"allowEval": false' in base
    for module in (STATIC / "tafel").glob("*.js"):
        script = module.read_text()
        assert "eval(" not in script and "new Function" not in script, module.name
        assert '.setAttribute("style"' not in script, module.name


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_documentation_pages_may_load_what_they_are_made_of(
    client: TestClient, path: str
) -> None:
    """FastAPI's /docs and /redoc load scripts, styles and fonts from CDNs and run an inline
    script or style: the board's own policy left them blank, so they have their own."""
    from urllib.parse import urlsplit

    answer = client.get(path)
    assert answer.status_code == 200
    policy = {
        name: values
        for name, *values in (
            part.split() for part in answer.headers["content-security-policy"].split(";")
        )
    }
    page = answer.text
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page)
    styles = re.findall(r'<link[^>]*rel="stylesheet"[^>]*>', page)
    assert scripts and styles
    for url in scripts:
        assert f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" in policy["script-src"], url
    for tag in styles:
        url = re.search(r'href="([^"]+)"', tag).group(1)  # type: ignore[union-attr]
        assert f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" in policy["style-src"], url
    if re.search(r"<script>", page):
        assert "'unsafe-inline'" in policy["script-src"]
    if "<style>" in page:
        assert "'unsafe-inline'" in policy["style-src"]
    # Still no frames around it, and the board's pages keep their strict policy.
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in client.get("/").headers["content-security-policy"]
