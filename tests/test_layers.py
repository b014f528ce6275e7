"""The packages' layers (docs/architecture.md): no module imports a package above its own, none
imports another module's private names, and no modules import each other in a circle.

Imports are read from the source (absolute and relative ones, at the top and inside functions);
those under ``if TYPE_CHECKING:`` are types only and never run, so the circle test leaves them out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import kniffel

SRC = Path(kniffel.__file__).parent

#: Lower numbers are lower layers; a package may import its own layer and those below.
LAYERS = {
    "settings": 0,
    "rules": 0,
    "kept": 0,
    "priority": 0,
    "locales": 1,
    "record": 1,
    "offline": 1,
    "store": 2,
    "solver": 2,
    "charts": 2,
    "board": 3,
    "web": 4,
    "cli": 5,
    "__main__": 6,
}


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "kniffel" and len(parts) > 1 else None


def _module_name(path: Path) -> str:
    parts = ["kniffel", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module of the package by name, with its file.
MODULES = {_module_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    """The module a ``from … import`` names, relative ones resolved against ``path``."""
    if node.level == 0:
        return node.module or ""
    here = _module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # a module's own package
    base = here[: len(here) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:`` (types only: never run)."""
    only: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                only.update(ast.walk(statement))
    return only


def _import_nodes(path: Path, *, runs: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    tree = _tree(path)
    skipped = _type_checking_only(tree) if runs else set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and node not in skipped:
            yield node


def _imports(path: Path) -> set[str]:
    """Every module and name ``path`` imports, as dotted names (``kniffel.rules.Game``)."""
    found: set[str] = set()
    for node in _import_nodes(path):
        if isinstance(node, ast.ImportFrom):
            module = _absolute(node, path)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        else:
            found.update(alias.name for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    """Which modules of the package each module imports when it runs (a name imported from a
    package counts as that package, a submodule imported from it as the submodule)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for node in _import_nodes(path, runs=True):
            if isinstance(node, ast.ImportFrom):
                module = _absolute(node, path)
                for alias in node.names:
                    if f"{module}.{alias.name}" in MODULES:
                        graph[name].add(f"{module}.{alias.name}")
                    elif module in MODULES:
                        graph[name].add(module)
            else:
                graph[name].update(a.name for a in node.names if a.name in MODULES)
        graph[name].discard(name)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for other in edges:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph[other]))))
                    break
                if other in on_stack:
                    low[node] = min(low[node], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        circles.append(sorted(part))
    return circles


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


def test_relative_imports_are_read_as_the_modules_they_name() -> None:
    path = SRC / "solver" / "exact" / "column.py"
    node = ast.parse("from .cache import path_for\nfrom .. import builds").body
    assert isinstance(node[0], ast.ImportFrom) and isinstance(node[1], ast.ImportFrom)
    assert _absolute(node[0], path) == "kniffel.solver.exact.cache"
    assert _absolute(node[1], path) == "kniffel.solver"
    package = SRC / "solver" / "exact" / "__init__.py"
    assert _absolute(node[0], package) == "kniffel.solver.exact.cache"


def test_no_module_imports_another_modules_private_names() -> None:
    """A name another module uses is public (``__all__``): no ``from m import _x`` and no
    ``m._x`` on an imported module of the package, whatever package either lies in."""
    reach_ins: list[str] = []
    for name, path in MODULES.items():
        modules: set[str] = set()  # the local names bound to modules of the package
        for node in _import_nodes(path):
            if isinstance(node, ast.ImportFrom):
                module = _absolute(node, path)
                for alias in node.names:
                    if f"{module}.{alias.name}" in MODULES:
                        modules.add(alias.asname or alias.name)
                    elif alias.name.startswith("_") and module != name:
                        reach_ins.append(f"{name} imports {alias.name} from {module}")
            else:
                modules.update(a.asname for a in node.names if a.asname and a.name in MODULES)
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                reach_ins.append(f"{name} reads {node.value.id}.{node.attr}")
    assert reach_ins == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    """The drawing of the imports has no circle: a module that another one needs never needs
    that one back, not even inside a function (issue 34, "No circles, no reach-ins")."""
    assert _circles(_graph()) == []


def test_the_circle_test_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_types_the_board_hands_the_web_are_the_boards_own() -> None:
    """The Tipp's words name the board's protocols (board/advice_values.py), not the solver's
    classes re-exported: the module imports nothing of the solver, not even for types."""
    path = SRC / "board" / "advice_values.py"
    assert sorted(m for m in _imports(path) if _package(m) == "solver") == []
