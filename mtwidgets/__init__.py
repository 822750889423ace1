"""mtwidgets: metamorphic testing of NLP models.

The engine (inputs, relations, runner, results) imports no torch, transformers or spaCy;
adapters and transformations load them lazily when first used.
"""

from __future__ import annotations

from . import datasets, models
from .core.cache import PredictionCache
from .core.data import load_inputs
from .core.errors import InputError, ModelError, MTError, RelationError
from .core.inputs import TextInput, TextPairInput, input_from_dict
from .core.predictions import Prediction
from .core.registry import catalogue, relation
from .core.relation import Check, Group, MetamorphicRelation
from .core.results import Results
from .core.results import set_presenter as _set_presenter
from .core.runner import Progress, Runner, run
from .core.spans import Span
from .core.task import Task, get_task, register_task, unregister_task

__version__ = "0.1.0"


def _chart(summary: object, **kwargs: object) -> object:
    from .charts import vr_chart

    return vr_chart(summary, **kwargs)  # type: ignore[arg-type]


def _report(results: Results, path: object, **kwargs: object) -> object:
    from .report import write_report

    return write_report(results, path, **kwargs)  # type: ignore[arg-type]


# The engine's Results present themselves through these (core never imports upwards).
_set_presenter("chart", _chart)
_set_presenter("report", _report)


def tasks() -> object:
    """The registered tasks as a DataFrame (name, title, input, prediction, relations,
    models, description); mtwidgets' own first."""
    from .core.task import tasks_frame

    return tasks_frame()


# Widgets import ipywidgets/anywidget; load them on first use so the engine stays light.
_LAZY = {"Explorer": "mtwidgets.widgets.explorer", "BatchPanel": "mtwidgets.widgets.batch"}
# The tasks' input types, imported on first use like the rest of a task package.
_LAZY.update({"RelationInput": "mtwidgets.re.inputs", "NERInput": "mtwidgets.ner.inputs"})


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mtwidgets' has no attribute {name!r}")


__all__ = [
    "BatchPanel",
    "Explorer",
    "Check",
    "Group",
    "InputError",
    "MTError",
    "MetamorphicRelation",
    "NERInput",
    "ModelError",
    "Prediction",
    "PredictionCache",
    "Progress",
    "RelationError",
    "RelationInput",
    "Results",
    "Runner",
    "Span",
    "Task",
    "TextInput",
    "TextPairInput",
    "catalogue",
    "get_task",
    "input_from_dict",
    "load_inputs",
    "datasets",
    "models",
    "register_task",
    "relation",
    "run",
    "tasks",
    "unregister_task",
]
