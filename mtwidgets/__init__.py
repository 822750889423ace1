"""mtwidgets: metamorphic testing of NLP models.

The engine (inputs, relations, runner, results) imports no torch, transformers or spaCy;
adapters and transformations load them lazily when first used.
"""

from __future__ import annotations

from . import models
from .core.errors import InputError, ModelError, MTError, RelationError
from .core.inputs import RelationInput, TextInput, TextPairInput, input_from_dict
from .core.predictions import Prediction
from .core.spans import Span

__version__ = "0.1.0"

__all__ = [
    "InputError",
    "MTError",
    "ModelError",
    "Prediction",
    "RelationError",
    "RelationInput",
    "Span",
    "TextInput",
    "TextPairInput",
    "input_from_dict",
    "models",
]
