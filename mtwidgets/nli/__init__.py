"""Natural language inference: the task, its model adapters, the embedded model and the
pairwise-compositionality relation (section 5 of the systematicity paper).

- :class:`~mtwidgets.nli.inputs.NLIInput`: a premise and a hypothesis (a text pair);
  :class:`~mtwidgets.nli.inputs.CompositionInput`: ``(C(ℓa), C(ℓb))``, a context composed
  with an insertion pair;
- :func:`~mtwidgets.nli.material.compositions` / :func:`~mtwidgets.nli.material.compositions_frame`:
  the shipped material (contexts x WordNet insertion pairs), the data of the relation;
- :func:`~mtwidgets.nli.adapters.nli_pipeline` / :func:`~mtwidgets.nli.adapters.nli_classifier`:
  Hugging Face models users bring; ``mt.models.load("nli-minilm")``: the embedded one;
- ``mt.run(compositions(), relations="pairwise-compositionality", models=...)`` (the runner
  calls the models) or :func:`~mtwidgets.nli.compositionality.pairwise_compositionality`
  (the model called directly): safety by context and by insertion pair, the hypernymy
  probe's accuracy.

Importing this package imports nothing heavy.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CompositionInput", "NLIInput", "compositions", "compositions_frame", "nli_classifier", "nli_pipeline",
           "pairwise_compositionality"]

_WHERE = {
    "NLIInput": "inputs", "CompositionInput": "inputs", "compositions": "material", "compositions_frame": "material",
    "nli_classifier": "adapters", "nli_pipeline": "adapters", "pairwise_compositionality": "compositionality",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
