"""Data sets that ship with the package (written for the project), per registered task.

``sample(task)`` is a task's shipped sample (its :attr:`~mtwidgets.core.task.Task.sample`
part); ``path(name)`` the file of a shipped data set. ``mt.datasets.<task>_sample()`` and
the other ``<task>_<name>`` functions of a task's sample module (e.g.
``mt.datasets.ner_sample_frame()``) are read from the registry on first use.
"""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path
from typing import Any

from .core.errors import MTError
from .core.task import Task, get_task, tasks


def sample(task: str | Task, **options: Any) -> Any:
    """The shipped sample of ``task`` (a DataFrame or a list of inputs)."""
    t = get_task(task)
    if t.sample is None:
        raise MTError(f"task {t.name!r} ships no sample")
    return t.part("sample")(**options)


def names() -> list[str]:
    """The shipped data files, by name (``path(name)``)."""
    root = resources.files("mtwidgets.data")
    return sorted(p.name.rsplit(".", 1)[0] for p in root.iterdir() if p.name.endswith(".jsonl"))


def path(name: str) -> Path:
    """The file of a shipped data set, e.g. ``path("ner_sample")``."""
    if name not in names():
        raise KeyError(f"no shipped data set {name!r}; available: {', '.join(names())}")
    return Path(str(resources.files("mtwidgets.data").joinpath(f"{name}.jsonl")))


def _sample_module(t: Task) -> Any:
    ref = t.sample
    if isinstance(ref, str):
        return importlib.import_module(ref.partition(":")[0])
    return importlib.import_module(ref.__module__)


def __getattr__(name: str) -> Any:
    # "<task>_sample" -> the task's sample; "<task>_<attr>" -> <attr> of its sample module.
    for t in tasks():
        prefix = f"{t.name}_"
        if name.startswith(prefix) and t.sample is not None:
            attr = name[len(prefix):]
            if attr == "sample":
                return t.part("sample")
            module = _sample_module(t)
            if hasattr(module, attr):
                return getattr(module, attr)
    raise AttributeError(f"module 'mtwidgets.datasets' has no attribute {name!r}")
