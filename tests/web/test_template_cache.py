"""The templates compiled at one start are read at the next, not compiled again
(``kniffel.web.template_cache``; docs/benchmarks.md, "Start").

Each start is a fresh interpreter, as ``kniffel serve`` is: this test process's Jinja
environment holds every template it compiled already. ``Environment.compile`` is counted
there, not replaced: Jinja calls it only for a template it found no compiled code for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jinja2 import Environment

from kniffel.web.template_cache import fingerprint

_SCRIPT = """
import json, sys

from fastapi.testclient import TestClient
from jinja2 import Environment

from kniffel.settings import Settings
from kniffel.web.app import create_app

compiled = []
compile_ = Environment.compile


def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
    compiled.append(name)
    return compile_(self, source, name, filename, raw, defer_init)


Environment.compile = counted
settings = Settings(db=sys.argv[1], cache_dir=sys.argv[2])
with TestClient(create_app(settings)) as client:
    page = client.get("/")
    assert page.status_code == 200, page.status_code
    assert "Kniffel" in page.text
print(json.dumps(compiled))
"""


def _start(tmp_path: Path, cache_dir: Path) -> list[str]:
    """The templates a fresh board compiled to answer its start page."""
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, f"sqlite:///{tmp_path / 'k.db'}", str(cache_dir)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    compiled: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return compiled


def test_the_next_start_reads_the_start_page_compiled(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    assert "home.html" in _start(tmp_path, cache_dir)
    assert list((cache_dir / "templates").glob("*.cache"))
    assert _start(tmp_path, cache_dir) == []


def test_a_cache_folder_that_cannot_be_made_costs_the_compiling_not_the_page(
    tmp_path: Path,
) -> None:
    in_the_way = tmp_path / "a-file"  # where the folder would be (works as root, too)
    in_the_way.write_text("not a folder", encoding="utf-8")
    first = _start(tmp_path, in_the_way)
    assert "home.html" in first
    assert _start(tmp_path, in_the_way) == first


def test_code_compiled_under_other_environment_settings_is_never_read() -> None:
    plain = fingerprint(Environment())
    assert fingerprint(Environment()) == plain
    assert fingerprint(Environment(trim_blocks=True)) != plain
    assert fingerprint(Environment(extensions=["jinja2.ext.i18n"])) != plain
    with_filter = Environment()
    with_filter.filters["bdi"] = str
    assert fingerprint(with_filter) != plain
