"""TACRED's relation labels and the relation-property table the swap, coarser-grained and
combination relations read.

The table is a frozen value: edit it with :meth:`RelationTable.replace` (or build your own)
and pass it to ``mt.relation("MR-S2", table=...)``. The defaults were classified by hand,
as the paper did (Sun et al. 2023, Section 3.2.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

NO_RELATION = "no_relation"

TACRED_LABELS: tuple[str, ...] = (
    NO_RELATION,
    "org:alternate_names", "org:city_of_headquarters", "org:country_of_headquarters",
    "org:dissolved", "org:founded", "org:founded_by", "org:member_of", "org:members",
    "org:number_of_employees/members", "org:parents", "org:political/religious_affiliation",
    "org:shareholders", "org:stateorprovince_of_headquarters", "org:subsidiaries",
    "org:top_members/employees", "org:website",
    "per:age", "per:alternate_names", "per:cause_of_death", "per:charges", "per:children",
    "per:cities_of_residence", "per:city_of_birth", "per:city_of_death",
    "per:countries_of_residence", "per:country_of_birth", "per:country_of_death",
    "per:date_of_birth", "per:date_of_death", "per:employee_of", "per:origin",
    "per:other_family", "per:parents", "per:religion", "per:schools_attended",
    "per:siblings", "per:spouse", "per:stateorprovince_of_birth",
    "per:stateorprovince_of_death", "per:stateorprovinces_of_residence", "per:title",
)


_V = TypeVar("_V")


def _frozen(mapping: Mapping[str, _V]) -> Mapping[str, _V]:
    return MappingProxyType(dict(mapping))


_ORG_TAIL = frozenset({
    "per:employee_of", "per:schools_attended", "org:member_of", "org:members", "org:parents",
    "org:subsidiaries", "org:shareholders",
})
_PER_TAIL = frozenset({
    "per:spouse", "per:children", "per:parents", "per:siblings", "per:other_family",
    "org:founded_by", "org:top_members/employees", "org:shareholders",
})


@dataclass(frozen=True)
class RelationTable:
    """Which labels are symmetric, which invert, which have coarser forms, which combine.

    Attributes
    ----------
    symmetric:
        ``R(a, b) = R(b, a)`` (MR-S1; the first relation of MR-C1/C2).
    inverse:
        ``R(a, b) = r  =>  R(b, a) = inverse[r]`` (MR-S2).
    coarser:
        ``label -> {granularity: label}``: what a city-level relation becomes when the
        city is replaced by its state or country (MR-R2).
    combine_head:
        MR-C1: for a symmetric ``R1`` between ``h`` and ``t1``, the ``R2`` of ``(h, t2)``
        for which ``R(t1, t2) = R2`` must hold.
    combine_tail:
        MR-C2: the same for two pairs sharing the tail: ``R(h2, h1) = R2``.
    """

    symmetric: frozenset[str] = frozenset(
        {"per:spouse", "per:siblings", "per:other_family", "per:alternate_names", "org:alternate_names"}
    )
    inverse: Mapping[str, str] = field(default_factory=lambda: _frozen({
        "per:children": "per:parents", "per:parents": "per:children",
        "org:parents": "org:subsidiaries", "org:subsidiaries": "org:parents",
        "org:member_of": "org:members", "org:members": "org:member_of",
    }))
    coarser: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: _frozen({
        "per:city_of_birth": {"country": "per:country_of_birth", "state": "per:stateorprovince_of_birth"},
        "per:city_of_death": {"country": "per:country_of_death", "state": "per:stateorprovince_of_death"},
        "per:cities_of_residence": {
            "country": "per:countries_of_residence", "state": "per:stateorprovinces_of_residence",
        },
        "org:city_of_headquarters": {
            "country": "org:country_of_headquarters", "state": "org:stateorprovince_of_headquarters",
        },
    }))
    combine_head: Mapping[str, frozenset[str]] = field(default_factory=lambda: _frozen({
        # h's alias t1 has every relation h has.
        "per:alternate_names": frozenset(lb for lb in TACRED_LABELS if lb.startswith("per:")) - {"per:alternate_names"},
        "org:alternate_names": frozenset(lb for lb in TACRED_LABELS if lb.startswith("org:")) - {"org:alternate_names"},
        # h's spouse t1 is a parent of h's children, and h's sibling t1 shares h's parents
        # and siblings. Both assume no step- or half-relation, which the transformation
        # checks: it refuses a text that names a half- or step-relative.
        # Not combined, because it does not follow: per:siblings with per:other_family
        # (h's in-law, an other_family, is no family of h's sibling).
        "per:spouse": frozenset({"per:children"}),
        "per:siblings": frozenset({"per:parents", "per:siblings"}),
    }))
    combine_tail: Mapping[str, frozenset[str]] = field(default_factory=lambda: _frozen({
        # h1 is an alias of t: whatever h2 is to t, it is to h1.
        "org:alternate_names": _ORG_TAIL,
        "per:alternate_names": _PER_TAIL,
        # t's spouse h1 is a parent of t's children: (child h2, parent t) -> (h2, h1); t's
        # sibling h1 has t's siblings as siblings and t's parents (h2 with per:children t)
        # as parents. No step- or half-relation, as above.
        # Not combined, because it does not follow: per:siblings with per:other_family
        # (t's in-law is no family of t's sibling).
        "per:spouse": frozenset({"per:parents"}),
        "per:siblings": frozenset({"per:siblings", "per:children"}),
    }))

    def replace(self, **changes: Any) -> RelationTable:
        """A copy with some attributes replaced, e.g. ``table.replace(symmetric={...})``."""
        fixed: dict[str, Any] = {}
        for key, value in changes.items():
            if key == "symmetric":
                fixed[key] = frozenset(value)
            elif key in ("combine_head", "combine_tail"):
                fixed[key] = _frozen({k: frozenset(v) for k, v in value.items()})
            else:
                fixed[key] = _frozen(value)
        return dataclasses.replace(self, **fixed)


TACRED = RelationTable()
