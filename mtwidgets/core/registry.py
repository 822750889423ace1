"""The relation catalogue: every relation by its paper name, with options.

The relations come from the task registry (:mod:`mtwidgets.core.task`): each task lists its
relation names and a builder, imported on first use, so ``import mtwidgets`` stays light.
Relations registered here by hand (:func:`register`) come after the tasks' own; the
catalogue is rebuilt whenever the set of tasks changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import task as _task
from .errors import MTError, RelationError
from .relation import MetamorphicRelation

Builder = Callable[..., MetamorphicRelation]

_BUILDERS: dict[str, Builder] = {}
_ORDER: list[str] = []
_TASK_OF: dict[str, str] = {}  # relation name -> the task that declares it
_EXTRA: dict[str, Builder] = {}  # registered by hand, kept across task changes
_ON_REQUEST: set[str] = set()  # in the catalogue, left out of "all"
_LOADED = False


def register(name: str, builder: Builder) -> None:
    """Add (or replace) a relation builder under ``name``."""
    _load()
    _EXTRA[name] = builder
    _add(name, builder)


def _add(name: str, builder: Builder) -> None:
    if name not in _BUILDERS:
        _ORDER.append(name)
    _BUILDERS[name] = builder


def _builder(task: _task.Task, name: str) -> Builder:
    def build(**options: Any) -> MetamorphicRelation:
        return _task.resolve_ref(task.build_relation)(name, **options)  # type: ignore[no-any-return]

    return build


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for t in _task.tasks():
        if t.build_relation is None:
            continue
        for name in (*t.relations, *t.on_request):
            _add(name, _builder(t, name))
            _TASK_OF.setdefault(name, t.name)
        _ON_REQUEST.update(t.on_request)
    for name, builder in _EXTRA.items():
        _add(name, builder)


def _refresh() -> None:
    """Forget the catalogue; the next use rebuilds it from the registered tasks."""
    global _LOADED
    _LOADED = False
    _BUILDERS.clear()
    _ORDER.clear()
    _TASK_OF.clear()
    _ON_REQUEST.clear()


_task.on_change(_refresh)


def task_of(name: str) -> str:
    """The task a relation name belongs to."""
    _load()
    if name in _TASK_OF:
        return _TASK_OF[name]
    return relation(name).task


def names(task: str | None = None) -> list[str]:
    _load()
    return [n for n in _ORDER if task is None or task_of(n) == task]


def all_names(task: str) -> list[str]:
    """What ``relations="all"`` means for ``task``: its relations without the ones it lists
    as ``on_request`` (those run only when named)."""
    return [n for n in names(task) if n not in _ON_REQUEST]


def relation(name: str, **options: Any) -> MetamorphicRelation:
    """A relation by name, e.g. ``mt.relation("MR-S2")`` or ``mt.relation("MR-S2", table=t)``."""
    _load()
    if isinstance(name, MetamorphicRelation):
        return name
    if name not in _BUILDERS:
        raise RelationError(f"no relation named {name!r}; known: {', '.join(_ORDER)}")
    return _BUILDERS[name](**options)


def relations_task(relations: Any) -> str | None:
    """The one task of the given relation names/objects (``None`` for ``"all"``/none given).

    Raises :class:`RelationError` when they belong to different tasks."""
    if relations is None or (isinstance(relations, str) and relations == "all"):
        return None
    items = [relations] if isinstance(relations, (str, MetamorphicRelation)) else list(relations)
    found = list(dict.fromkeys(task_of(r) if isinstance(r, str) else r.task for r in items))
    if len(found) > 1:
        raise RelationError(
            f"the relations {[getattr(r, 'name', r) for r in items]} belong to different tasks "
            f"{found}; run one task at a time"
        )
    return found[0] if found else None


def unknown_task_error(what: str = "the task") -> MTError:
    """The error for a task that cannot be inferred; it lists the registered tasks."""
    return MTError(
        f"cannot tell {what}; pass task= one of the registered tasks: {', '.join(_task.task_names()) or 'none'}"
    )


def resolve(relations: Any, task: str | None) -> list[MetamorphicRelation]:
    """Names, relation objects, ``"all"`` or ``None`` (all of the task) -> relation objects.

    ``"all"`` needs a task (without one the error lists the registered tasks) and leaves
    out the relations the task lists as ``on_request`` (those run only when named)."""
    if relations is None or (isinstance(relations, str) and relations == "all"):
        if task is None:
            raise unknown_task_error("which task's relations 'all' means")
        _task.get_task(task)  # an unknown task: the error lists the registered ones
        return [relation(n) for n in all_names(task)]
    if isinstance(relations, (str, MetamorphicRelation)):
        relations = [relations]
    out = [relation(r) if isinstance(r, str) else r for r in relations]
    if not out:
        raise RelationError("no relations given; pass names like ['MR-R1', 'MR-S2'] or 'all'")
    return out


def catalogue(task: str | None = None) -> Any:
    """All relations as a DataFrame: name, task, category, description, expected, paper."""
    import pandas as pd

    return pd.DataFrame([relation(n).info() for n in names(task)])
