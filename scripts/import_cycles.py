"""Import cycles among the project's modules and apps (issue 10: goal 0), counting imports at
module level, then imports inside functions too (TYPE_CHECKING blocks ignored).

    python scripts/import_cycles.py [APP ...]
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = [
    "games",
    "players",
    "notifications",
    "chat",
    "accounts",
    "firenze_site",
    "api",
    "streams",
]


# Entry points a server loads by name and nothing imports: they compose the apps (the ASGI one
# puts the live streams beside Django), so they stand outside the graph, like manage.py.
ENTRY_POINTS = {"firenze_site.asgi", "firenze_site.wsgi"}


def modules(apps: list[str]) -> Iterator[tuple[str, Path]]:
    for app in apps:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                if name not in ENTRY_POINTS:
                    yield name.removesuffix(".__init__"), path


def imports(path: Path, name: str, inner: bool) -> set[str]:
    """The modules `path` imports: at module level, or anywhere when `inner`."""
    found: set[str] = set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import) and (inner or not nested):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and (inner or not nested):
                base = child.module or ""
                if child.level:
                    parent = package[: len(package) - child.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                if child.module or not child.level:  # `from . import x` needs x, not the
                    found.add(base)  # package's __init__ (already running when x is read)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            walk(child, nested)

    walk(ast.parse(path.read_text()), False)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def main() -> None:
    known = dict(modules(sys.argv[1:] or APPS))
    for inner in (False, True):
        by_module: dict[str, set[str]] = {}
        by_app: dict[str, set[str]] = {}
        for name, path in known.items():
            targets = {t for t in imports(path, name, inner) if t in known} - {name}
            by_module[name] = targets
            app = name.split(".")[0]
            by_app.setdefault(app, set()).update(t.split(".")[0] for t in targets)
            by_app[app].discard(app)
        what = "imports inside functions too" if inner else "module-level imports"
        print(f"{what}: module cycles {cycles(by_module)}; app cycles {cycles(by_app)}")


if __name__ == "__main__":
    main()
