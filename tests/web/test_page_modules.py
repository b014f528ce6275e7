"""The board's script as small ES modules with one state (issue 34 item 4; docs/architecture.md,
"The page's modules"): each module stays short, only tafel/state.js assigns to the state, and
every module the page loads is reachable from main.js (no bundler, no npm)."""

from __future__ import annotations

import re
from pathlib import Path

from kniffel.web import rendering

MODULES = Path(rendering.__file__).parent / "static" / "tafel"

#: An assignment to the state or one of its sections (`state.view = …`, `state.view.sheet = …`,
#: `state["view"] += …`), an Object.assign onto it, or a delete from it.
ASSIGNS = re.compile(
    r"\bstate(?:\.\w+|\[[^\]]+\])+\s*(?:[-+*/%&|^]|\?\?|\|\||&&)?=(?!=)"
    r"|Object\.assign\(\s*state\b|\bdelete\s+state\b"
)


def test_every_module_is_under_300_lines() -> None:
    modules = sorted(MODULES.glob("*.js"))
    assert {m.name for m in modules} >= {"state.js", "main.js", "dice.js", "draw.js", "live.js"}
    for module in modules:
        assert len(module.read_text().splitlines()) < 300, module.name


def test_only_the_state_module_assigns_to_the_state() -> None:
    assert ASSIGNS.search("state.view.sheet = null") and ASSIGNS.search("state.change ??= 1")
    assert not ASSIGNS.search("if (state.change === change)")
    for module in MODULES.glob("*.js"):
        if module.name != "state.js":
            assert not ASSIGNS.search(module.read_text()), module.name
    assert ASSIGNS.search((MODULES / "state.js").read_text())


def test_every_module_is_imported_and_every_import_is_there() -> None:
    imported = {"main.js"}
    for module in MODULES.glob("*.js"):
        for name in re.findall(r'from\s+"\./([\w.]+)"', module.read_text()):
            assert (MODULES / name).is_file(), (module.name, name)
            imported.add(name)
    assert imported == {m.name for m in MODULES.glob("*.js")}
