"""Output properties over labels: identical, mapped through a table, equal to a second source.

Each property returns a :class:`~mtwidgets.core.relation.Check` whose reason reads as one
line in a table: what was expected, what came out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .predictions import Prediction
from .relation import Check, Group, OutputProperty


def _short(labels: Collection[str], limit: int = 4) -> str:
    items = sorted(labels)
    head = ", ".join(items[:limit])
    return head + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


def _compare(expected: str, got: str | None, how: str) -> Check:
    if got == expected:
        return Check("pass", expected, f"{how}: expected {expected}, got {got}")
    return Check("violation", expected, f"{how}: expected {expected}, got {got}")


class SameLabel(OutputProperty):
    """Every follow-up gets the source's label (MR-R1, R3, R4; MR-S1 with ``requires``).

    ``requires``: when given, the group applies only if the source label is in it.
    """

    def __init__(self, requires: Collection[str] | None = None, *, requirement: str = "") -> None:
        self.requires = frozenset(requires) if requires is not None else None
        self.requirement = requirement
        self.description = "identical label" + (f" (source label {requirement})" if requirement else "")

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        if self.requires is not None and sources[0].label not in self.requires:
            return f"source predicted {sources[0].label}, not {self.requirement or 'one of ' + _short(self.requires)}"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        expected = sources[0].label or ""
        for out in followups:
            if out.label != expected:
                return _compare(expected, out.label, "label changed")
        return _compare(expected, followups[0].label, "label kept")


class MappedLabel(OutputProperty):
    """The follow-up's label is the source's label through a table.

    ``table`` maps a source label to the expected label (MR-S2: inverse labels), or, with
    ``variant_key``, to ``{variant: label}`` where the variant is read from the group's
    meta (MR-R2: ``granularity`` = state or country). Labels missing from the table make
    the group not applicable.
    """

    def __init__(
        self,
        table: Mapping[str, str] | Mapping[str, Mapping[str, str]],
        *,
        name: str,
        variant_key: str | None = None,
    ) -> None:
        self.table = table
        self.name = name
        self.variant_key = variant_key
        self.description = f"label mapped through the {name} table"

    def _expected(self, group: Group, label: str | None) -> str | None:
        if label is None or label not in self.table:
            return None
        entry = self.table[label]
        if self.variant_key is None:
            return entry if isinstance(entry, str) else None
        if isinstance(entry, Mapping):
            return entry.get(str(group.meta.get(self.variant_key)))
        return None

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        if self._expected(group, sources[0].label) is None:
            variant = f" at {group.meta.get(self.variant_key)} level" if self.variant_key else ""
            return f"source predicted {sources[0].label}, which has no {self.name} label{variant}"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        expected = self._expected(group, sources[0].label) or ""
        return _compare(expected, followups[0].label, f"{sources[0].label} -> {self.name}")


class SameAsSecondSource(OutputProperty):
    """MR-C1/C2: the follow-up gets the second source's label.

    Applies when the first source's label ``R1`` is a key of ``allowed`` (the symmetric
    relations) and the second source's label is in ``allowed[R1]``: the paper's
    combination conditions ``{R1, R2}``.
    """

    def __init__(self, allowed: Mapping[str, Collection[str]], *, shared: str) -> None:
        self.allowed = allowed
        self.shared = shared
        self.description = f"identical to the second source (pairs sharing the {shared})"

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        first, second = sources[0].label, sources[1].label
        if first is None or first not in self.allowed:
            return f"first source predicted {first}, not a symmetric relation that combines"
        if second not in self.allowed[first]:
            return f"second source predicted {second}, which does not combine with {first}"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        return _compare(sources[1].label or "", followups[0].label, f"{sources[0].label} + {sources[1].label}")
