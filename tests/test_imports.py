"""The imports follow the data: every module's imports, read with ``ast`` (those inside functions
too; not those under ``if TYPE_CHECKING:``, which never run), checked for the store reaching up
and for cycles between folders (the top-level modules each count as one) and between modules.

Also a command: ``python tests/test_imports.py`` (or ``python -m test_imports`` in ``tests/``)
prints what breaks the rules, and exits 1 if anything does.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "kg"

# what kg/store may not import: the stages and the query layer above it
ABOVE_THE_STORE = ("kg.extract", "kg.graph", "kg.derive")



def modules() -> dict[str, Path]:
    """Every module of kg by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The kg modules ``name`` imports anywhere in its file: ``from a import b`` counts as the
    module ``a.b`` where that is one, else as ``a``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{alias.name}" for alias in node.names]
            found.update(sub for sub in subs if sub in known)
            if not all(sub in known for sub in subs):
                found.add(target)
    return {_nearest(module, known) for module in found if module == "kg" or module.startswith("kg.")} - {name}


def _nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _nearest(module: str, known: set[str]) -> str:
    while module not in known and "." in module:
        module = module.rpartition(".")[0]
    return module


def graph() -> dict[str, set[str]]:
    """Each module's imports of kg's modules. The entry points (``python -m kg``, ``python -m
    kg.train``: the ``__main__`` modules) are left out: nothing imports them, they stand above the
    house and may call any floor of it, the CLI included."""
    found = {name: path for name, path in modules().items() if not name.endswith("__main__")}
    known = set(found)
    return {name: imports(name, path, known) for name, path in found.items()}


def folder(module: str) -> str:
    """The folder a module belongs to (``kg.store``), or the module itself if it is one of the
    top-level modules (``kg.builder``): each of those is its own place in the flow."""
    parts = module.split(".")
    if len(parts) > 2 or (PACKAGE / parts[-1]).is_dir() and len(parts) == 2:
        return ".".join(parts[:2])
    return module


def cycles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one node (Tarjan's, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(tuple(sorted(component)))
    return sorted(found)


def folder_edges(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Imports between folders."""
    out: dict[str, set[str]] = {}
    for module, targets in edges.items():
        for target in targets:
            a, b = folder(module), folder(target)
            if a != b:
                out.setdefault(a, set()).add(b)
    return out


def store_reaching_up(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{module} imports {target}" for module, targets in edges.items()
                  if module == "kg.store" or module.startswith("kg.store.")
                  for target in targets if target.startswith(ABOVE_THE_STORE))


def test_the_store_imports_nothing_above_it():
    assert store_reaching_up(graph()) == []


def test_no_cycle_between_folders():
    assert cycles(folder_edges(graph())) == []


def test_no_cycle_between_modules():
    assert cycles(graph()) == []


def test_the_reader_finds_imports_inside_functions_and_relative_ones():
    edges = graph()
    assert "kg.derive.refresh" in edges["kg.builder"]  # imported inside build()
    assert "kg.store.protocol" in edges["kg.store.local"]  # from .protocol import ...


def main() -> int:
    edges = graph()
    problems = store_reaching_up(edges)
    problems += [f"folders import each other: {' <-> '.join(c)}" for c in cycles(folder_edges(edges))]
    problems += [f"modules import each other: {' <-> '.join(c)}" for c in cycles(edges)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
