"""The package's layering, read from the source (no import executed).

Every ``import`` of every module under ``mtwidgets/`` counts, the ones inside functions
too, with relative imports resolved. The layers, each importing only downwards:

1. ``mtwidgets.core`` (and the data files' package ``mtwidgets.data``);
2. ``mtwidgets.lang`` and ``mtwidgets.models`` (generic adapters);
3. the task packages ``mtwidgets.re``, ``mtwidgets.ner`` and ``mtwidgets.text`` (with the
   text tasks' declarations ``mtwidgets.classification``, ``similarity``, ``summarization``;
   the task packages never import each other), and ``mtwidgets.training`` (the tasks'
   data/model-building scripts);
4. ``mtwidgets.widgets``, ``cli``, ``report``, ``charts``, ``datasets``, ``demo`` and the
   package itself (``mtwidgets/__init__.py``).

And no two modules import each other, directly or through others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mtwidgets"

TASK_PACKAGES = ("mtwidgets.re", "mtwidgets.ner", "mtwidgets.text", "mtwidgets.lexical", "mtwidgets.nli")
LAYERS: dict[str, int] = {
    "mtwidgets.core": 1,
    "mtwidgets.data": 1,
    "mtwidgets.lang": 2,
    "mtwidgets.models": 2,
    "mtwidgets.re": 3,
    "mtwidgets.ner": 3,
    "mtwidgets.text": 3,
    "mtwidgets.classification": 3,
    "mtwidgets.similarity": 3,
    "mtwidgets.summarization": 3,
    "mtwidgets.systematicity": 3,
    "mtwidgets.lexical": 3,
    "mtwidgets.nli": 3,
    "mtwidgets.training": 3,
    "mtwidgets.widgets": 4,
    "mtwidgets.cli": 4,
    "mtwidgets.report": 4,
    "mtwidgets.charts": 4,
    "mtwidgets.datasets": 4,
    "mtwidgets.demo": 4,
    "mtwidgets": 4,
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def _type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (its imports never run)."""
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node, the bodies of ``if TYPE_CHECKING:`` left out (their ``else`` kept)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if _type_checking(child):
            for other in child.orelse:  # type: ignore[attr-defined]
                yield from _walk(other)
            continue
        yield from _walk(child)


def _imported(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """``(module, line)`` for every mtwidgets module ``name`` imports (at any depth:
    module level, in functions and methods)."""
    known = modules()
    is_package = path.name == "__init__.py"
    for node in _walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mtwidgets"):
                    yield _existing(alias.name, known), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not target.startswith("mtwidgets"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub if sub in known else _existing(target, known)), node.lineno


def _existing(module: str, known: dict[str, Path]) -> str:
    while module not in known and "." in module:
        module = module.rsplit(".", 1)[0]
    return module


@lru_cache(maxsize=1)
def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}."""
    out: dict[str, dict[str, int]] = {}
    for name, path in modules().items():
        edges: dict[str, int] = {}
        for target, line in _imported(name, path):
            if target != name:
                edges.setdefault(target, line)
        out[name] = edges
    return out


def _area(module: str) -> str:
    best = ""
    for prefix in LAYERS:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    assert best, f"{module} is in no layer; add it to LAYERS"
    return best


def _where(module: str, target: str) -> str:
    path = modules()[module].relative_to(ROOT)
    return f"{path}:{graph()[module][target]}: {module} -> {target}"


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        _area(name)


def test_no_module_imports_upwards() -> None:
    bad = [
        _where(m, t)
        for m, edges in graph().items()
        for t in edges
        if LAYERS[_area(t)] > LAYERS[_area(m)]
    ]
    assert not bad, "imports from a higher layer:\n" + "\n".join(bad)


def test_task_packages_do_not_import_each_other() -> None:
    bad = [
        _where(m, t)
        for m, edges in graph().items()
        for t in edges
        if _area(m) in TASK_PACKAGES and _area(t) in TASK_PACKAGES and _area(m) != _area(t)
    ]
    assert not bad, "a task package imports another:\n" + "\n".join(bad)


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in g.get(v, {}):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    cycles = _cycles()
    detail = []
    for component in cycles:
        members = set(component)
        detail.append(
            " <-> ".join(component)
            + "\n    "
            + "\n    ".join(_where(m, t) for m in component for t in graph()[m] if t in members)
        )
    assert not cycles, "import cycles:\n" + "\n".join(detail)


def test_the_graph_sees_function_level_and_relative_imports() -> None:
    g = graph()
    # core/model.py imports the task registry inside as_model's helper (function level, relative).
    assert "mtwidgets.core.task" in g["mtwidgets.core.model"]
    # the package's __init__ imports its submodules with "from . import ...".
    assert "mtwidgets.datasets" in g["mtwidgets"]
