"""The packages' layers (docs/architecture.md): no module imports a package above its own."""

from __future__ import annotations

import ast
from pathlib import Path

import kniffel

SRC = Path(kniffel.__file__).parent

#: Lower numbers are lower layers; a package may import its own layer and those below.
LAYERS = {
    "settings": 0,
    "rules": 0,
    "kept": 0,
    "locales": 1,
    "record": 1,
    "offline": 1,
    "store": 2,
    "solver": 2,
    "board": 3,
    "charts": 3,
    "web": 4,
    "cli": 5,
    "__main__": 6,
}


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "kniffel" and len(parts) > 1 else None


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_every_package_has_a_layer() -> None:
    packages = {p.stem if p.is_file() else p.name for p in SRC.iterdir()}
    packages -= {"__init__", "__pycache__", "py"}
    assert {p for p in packages if not p.endswith(".typed")} <= LAYERS.keys()


def test_no_module_imports_a_higher_layer() -> None:
    upward: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        own = path.relative_to(SRC).parts[0].removesuffix(".py")
        if own == "__init__":
            continue
        for module in _imports(path):
            other = _package(module)
            if other in LAYERS and LAYERS[other] > LAYERS[own]:
                upward.append(f"{path.relative_to(SRC)} imports {module}")
    assert upward == []


def test_the_rule_kernel_imports_nothing_of_the_project_but_itself() -> None:
    for path in (SRC / "rules").rglob("*.py"):
        others = {_package(m) for m in _imports(path)} - {None, "rules"}
        assert others == set(), path


def test_the_web_speaks_http_and_leaves_solver_and_store_to_the_board() -> None:
    """kniffel.web imports neither kniffel.solver nor kniffel.store (not even for types):
    what it needs of them the board's services hand it (docs/architecture.md)."""
    below: list[str] = []
    for path in sorted((SRC / "web").rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        below += [
            f"{name} imports {module}"
            for module in sorted(_imports(path))
            if _package(module) in ("solver", "store")
        ]
    assert below == []
