"""Generic model adapters and the registered tasks' embedded default models.

``available()`` lists the models that ship inside installed packages and load offline
(every registered task's :class:`~mtwidgets.core.task.EmbeddedModel` entries);
``load(name)`` builds one. Generic adapters for models a user brings live here
(callables, Hugging Face pipelines, REST endpoints) and import their heavy dependencies
only when constructed; task-specific adapters live in the task packages
(``mtwidgets.re.models``, ``mtwidgets.ner.models``).
"""

from __future__ import annotations

from typing import Any

from ..core.model import CallableModel, Model, ModelAdapter, as_model, check_outputs
from ..core.task import EmbeddedModel, embedded_models, resolve_ref

__all__ = [
    "CallableModel",
    "EmbeddedModel",
    "Model",
    "ModelAdapter",
    "as_model",
    "available",
    "check_outputs",
    "describe",
    "load",
]


def available(task: str | None = None) -> list[str]:
    """Names of the embedded models (optionally only those for ``task``)."""
    return [m.name for m in embedded_models().values() if task is None or m.task == task]


def describe() -> Any:
    """The embedded models as a DataFrame (name, task, description)."""
    import pandas as pd

    return pd.DataFrame(
        [{"name": m.name, "task": m.task, "description": m.description} for m in embedded_models().values()],
        columns=["name", "task", "description"],
    )


def load(name: str, **kwargs: Any) -> ModelAdapter:
    """Load an embedded model by name, e.g. ``mt.models.load("re-patterns")``."""
    found = embedded_models()
    if name not in found:
        raise KeyError(f"no embedded model {name!r}; available: {', '.join(found)}")
    model: ModelAdapter = resolve_ref(found[name].factory)(**kwargs)
    return model
