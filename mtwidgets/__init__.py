"""mtwidgets: metamorphic testing of NLP models.

The engine (inputs, relations, runner, results) imports no torch, transformers or spaCy;
adapters and transformations load them lazily when first used.
"""

from __future__ import annotations

from . import datasets, models
from .core.cache import PredictionCache
from .core.data import load_inputs
from .core.errors import InputError, ModelError, MTError, RelationError
from .core.inputs import RelationInput, TextInput, TextPairInput, input_from_dict
from .core.predictions import Prediction
from .core.registry import catalogue, relation
from .core.relation import Check, Group, MetamorphicRelation
from .core.results import Results
from .core.runner import Progress, Runner, run
from .core.spans import Span

__version__ = "0.1.0"

# Widgets import ipywidgets/anywidget; load them on first use so the engine stays light.
_LAZY = {"Explorer": "mtwidgets.widgets.explorer", "BatchPanel": "mtwidgets.widgets.batch"}


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
    "ModelError",
    "Prediction",
    "PredictionCache",
    "Progress",
    "RelationError",
    "RelationInput",
    "Results",
    "Runner",
    "Span",
    "TextInput",
    "TextPairInput",
    "catalogue",
    "input_from_dict",
    "load_inputs",
    "datasets",
    "models",
    "relation",
    "run",
]
