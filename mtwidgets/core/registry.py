"""The relation catalogue: every relation by its paper name, with options.

Task modules register a builder for their names; the catalogue imports them on first use,
so ``import mtwidgets`` stays light.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .errors import RelationError
from .relation import MetamorphicRelation

Builder = Callable[..., MetamorphicRelation]

# task module -> the attribute holding its names and the builder
_TASK_MODULES: tuple[str, ...] = ("mtwidgets.re.relations", "mtwidgets.ner.relations")
_BUILDERS: dict[str, Builder] = {}
_ORDER: list[str] = []


def register(name: str, builder: Builder) -> None:
    """Add (or replace) a relation builder under ``name``."""
    if name not in _BUILDERS:
        _ORDER.append(name)
    _BUILDERS[name] = builder


def _load() -> None:
    if _BUILDERS:
        return
    for module_name in _TASK_MODULES:
        module = importlib.import_module(module_name)
        for name in module.NAMES:
            register(name, lambda _name=name, _build=module.build, **kw: _build(_name, **kw))


def names(task: str | None = None) -> list[str]:
    _load()
    return [n for n in _ORDER if task is None or relation(n).task == task]


def relation(name: str, **options: Any) -> MetamorphicRelation:
    """A relation by name, e.g. ``mt.relation("MR-S2")`` or ``mt.relation("MR-S2", table=t)``."""
    _load()
    if isinstance(name, MetamorphicRelation):
        return name
    if name not in _BUILDERS:
        raise RelationError(f"no relation named {name!r}; known: {', '.join(_ORDER)}")
    return _BUILDERS[name](**options)


def resolve(relations: Any, task: str | None) -> list[MetamorphicRelation]:
    """Names, relation objects, ``"all"`` or ``None`` (all of the task) -> relation objects."""
    if relations is None or relations == "all":
        return [relation(n) for n in names(task)]
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
