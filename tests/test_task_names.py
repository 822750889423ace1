"""No module outside a task package names a task: the engine, widgets, CLI, report and front
ends iterate the task registry instead of branching on ``"re"`` or ``"ner"``.

The scan reads every Python module's syntax tree (string constants that equal a registered
task's name, docstrings aside) and every front-end module's string literals.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mtwidgets as mt
from mtwidgets.core.task import tasks

ROOT = Path(mt.__file__).resolve().parent
JS = ROOT.parent / "js"


def _task_packages() -> set[Path]:
    """The folders of the task packages (where each registered task is declared)."""
    out = set()
    for task in tasks():
        module = (task.input_type if isinstance(task.input_type, str) else task.input_type.__module__)
        parts = module.partition(":")[0].split(".")
        if parts[0] == "mtwidgets":
            out.add(ROOT / parts[1])
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def task_name_literals(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, literal) of every string constant in ``source`` equal to a task name."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value in names and id(node) not in skip
    )


def test_scan_finds_a_task_name_where_there_is_one() -> None:
    # The scan itself must be able to fail: comparisons, dict keys and defaults are found.
    source = 'def f(task="re"):\n    """re"""\n    return {"ner": 1} if task == "re" else None\n'
    assert task_name_literals(source, {"re", "ner"}) == [(1, "re"), (3, "ner"), (3, "re")]


def test_no_python_module_outside_a_task_package_names_a_task() -> None:
    names = {t.name for t in tasks()}
    assert {"re", "ner"} <= names
    packages = _task_packages()
    assert packages, "no task package found"
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if any(pkg in path.parents for pkg in packages):
            continue
        for line, literal in task_name_literals(path.read_text(encoding="utf-8"), names):
            found.append(f"{path.relative_to(ROOT.parent)}:{line}: {literal!r}")
    assert not found, "task names outside the task packages:\n" + "\n".join(found)


def test_no_front_end_module_names_a_task() -> None:
    names = {t.name for t in tasks()}
    alternatives = "|".join(map(re.escape, sorted(names)))
    pattern = re.compile(r"""(["'`])(""" + alternatives + r""")\1""")
    found = []
    for path in sorted(JS.rglob("*.js")):
        if "tests" in path.relative_to(JS).parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "task names in the front ends:\n" + "\n".join(found)
