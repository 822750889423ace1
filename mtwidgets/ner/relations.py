"""The four TIN metamorphic relations for NER (Yu et al., FSE 2023, section 3).

Each is composition: a transformation from :mod:`mtwidgets.ner.transforms` and an oracle
from :mod:`mtwidgets.ner.oracles`. Similar sentences (token and phrase level) are checked
with MR1; the structural rewrite and the entity shuffle, which introduce no new entity,
with MR2.
"""

from __future__ import annotations

from typing import Any

from ..core.relation import MetamorphicRelation
from .labels import Granularity
from .oracles import SameEntityLabels, SamePredictionsUnderPermutation

PAPER = "Yu et al. 2023, Automated Testing and Improvement of Named Entity Recognition Systems (ESEC/FSE)"
NAMES: tuple[str, ...] = ("TIN-token", "TIN-phrase", "TIN-question", "TIN-shuffle")


def _relation(name: str, **parts: Any) -> MetamorphicRelation:
    return MetamorphicRelation(name, task="ner", paper=PAPER, **parts)


def default_filters() -> tuple[Any, ...]:
    """The paper keeps a similar sentence only if it is close in meaning and natural:
    MiniLM cosine of the changed words in context >= 0.65, and new words at most 10x
    rarer than the ones they replace (see :mod:`mtwidgets.ner.filters`)."""
    from .filters import NaturalnessFilter, SemanticFilter

    return (NaturalnessFilter(1.0), SemanticFilter(0.65))


def build(name: str, *, granularity: Granularity = "fine", **options: Any) -> MetamorphicRelation:
    """One NER relation by name.

    Parameters
    ----------
    granularity:
        Label comparison of the oracle: ``"fine"`` (canonical labels) or ``"coarse"``
        (CoNLL classes, for a system with a coarse scheme).
    **options:
        Passed to the transformation, e.g. ``filters=[SemanticFilter(0.8)]``,
        ``per_slot=2``, or a ``source=`` of similar words. The similar-sentence relations
        filter by default as the paper does (semantic similarity and naturalness, see
        :func:`default_filters`); ``filters=()`` turns that off.
    """
    from . import transforms

    if name in ("TIN-token", "TIN-phrase") and "filters" not in options:
        options["filters"] = default_filters()

    if name == "TIN-token":
        # One verb or adjective at a time, same POS; entities untouched (MR1).
        return _relation(
            name,
            category="similar sentence",
            expected="identical labels (MR1)",
            description="Replace one non-entity verb or adjective with a similar word of the same POS.",
            transformation=transforms.SimilarToken(**options),
            property=SameEntityLabels(granularity),
        )
    if name == "TIN-phrase":
        return _relation(
            name,
            category="similar sentence",
            expected="identical labels (MR1)",
            description="Replace one minimal noun phrase (no NP or entity inside) with a similar phrase.",
            transformation=transforms.SimilarPhrase(**options),
            property=SameEntityLabels(granularity),
        )
    if name == "TIN-question":
        # No entity is added or removed, so the whole prediction must stay (MR2).
        return _relation(
            name,
            category="structural transformation",
            expected="identical predictions (MR2)",
            description="Turn the declarative sentence into a yes/no question (be-verb or auxiliary "
            "fronted, or do-support), '.' -> '?'.",
            transformation=transforms.ToQuestion(**options),
            property=SamePredictionsUnderPermutation(granularity),
        )
    if name == "TIN-shuffle":
        return _relation(
            name,
            category="random entity shuffle",
            expected="identical predictions up to the permutation (MR2)",
            description="Permute the entities within each category (applies when the model predicted "
            "exactly the moved entities with those categories).",
            transformation=transforms.ShuffleEntities(**options),
            property=SamePredictionsUnderPermutation(granularity),
            model_dependent=True,
        )
    raise KeyError(name)
