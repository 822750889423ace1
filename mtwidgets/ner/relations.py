"""The four TIN metamorphic relations for NER (Yu et al., FSE 2023, section 3).

Each is composition: a transformation from :mod:`mtwidgets.ner.transforms` and an oracle
from :mod:`mtwidgets.ner.oracles`. Similar sentences (token and phrase level) are checked
with MR1; the structural rewrite and the entity shuffle, which introduce no new entity,
with MR2. :data:`RELATIONS` declares them, one
:class:`~mtwidgets.core.relation.RelationSpec` per name; :func:`build` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.relation import MetamorphicRelation, RelationSpec, build_from_table
from .labels import Granularity
from .oracles import SameEntityLabels, SamePredictionsUnderPermutation

TASK = "ner"
PAPER = "Yu et al. 2023, Automated Testing and Improvement of Named Entity Recognition Systems (ESEC/FSE)"

# Flag: the relation filters its follow-ups with default_filters() unless filters= is given.
FILTERED = frozenset({"default_filters"})

Options = Mapping[str, Any]  # {"granularity": ..., "transform": {transformation options}}


def default_filters() -> tuple[Any, ...]:
    """The paper keeps a similar sentence only if it is close in meaning and natural:
    MiniLM cosine of the changed words in context >= 0.65, and new words at most 10x
    rarer than the ones they replace (see :mod:`mtwidgets.ner.filters`)."""
    from .filters import NaturalnessFilter, SemanticFilter

    return (NaturalnessFilter(1.0), SemanticFilter(0.65))


def _transform(cls_name: str) -> Any:
    """A factory building ``transforms.<cls_name>(**options)`` (spaCy loads on first build)."""

    def make(o: Options) -> Any:
        from . import transforms

        return getattr(transforms, cls_name)(**o["transform"])

    return make


RELATIONS: dict[str, RelationSpec] = {
    # One verb or adjective at a time, same POS; entities untouched (MR1).
    "TIN-token": RelationSpec(
        category="similar sentence",
        expected="identical labels (MR1)",
        description="Replace one non-entity verb or adjective with a similar word of the same POS.",
        transformation=_transform("SimilarToken"),
        property=lambda o: SameEntityLabels(o["granularity"]),
        flags=FILTERED,
    ),
    "TIN-phrase": RelationSpec(
        category="similar sentence",
        expected="identical labels (MR1)",
        description="Replace one minimal noun phrase (no NP or entity inside) with a similar phrase.",
        transformation=_transform("SimilarPhrase"),
        property=lambda o: SameEntityLabels(o["granularity"]),
        flags=FILTERED,
    ),
    # No entity is added or removed, so the whole prediction must stay (MR2).
    "TIN-question": RelationSpec(
        category="structural transformation",
        expected="identical predictions (MR2)",
        description="Turn the declarative sentence into a yes/no question (be-verb or auxiliary "
        "fronted, or do-support), '.' -> '?'.",
        transformation=_transform("ToQuestion"),
        property=lambda o: SamePredictionsUnderPermutation(o["granularity"]),
    ),
    "TIN-shuffle": RelationSpec(
        category="random entity shuffle",
        expected="identical predictions up to the permutation (MR2)",
        description="Permute the entities within each category (applies when the model predicted "
        "exactly the moved entities with those categories).",
        transformation=_transform("ShuffleEntities"),
        property=lambda o: SamePredictionsUnderPermutation(o["granularity"]),
        model_dependent=True,
    ),
}

NAMES: tuple[str, ...] = tuple(RELATIONS)


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
    spec = RELATIONS.get(name)
    if spec is not None and "default_filters" in spec.flags and "filters" not in options:
        options["filters"] = default_filters()
    return build_from_table(
        RELATIONS, name, task=TASK, paper=PAPER, options={"granularity": granularity, "transform": options}
    )
