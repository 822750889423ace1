"""The TIN oracles: MR1 (similar sentences) and MR2 (structure and entity shuffle).

Both are :class:`~mtwidgets.core.relation.OutputProperty` objects over the located
suspicious entities of :mod:`mtwidgets.ner.locate`: a group violates its relation exactly
when location finds a suspicious entity, so every violation names the entities to repair
and every reason reads "'BBC News': ORG in the source, no entity in the follow-up".

- MR1 (:class:`SameEntityLabels`, TIN eq. 3): every entity present in both sentences keeps
  its label. Entities in the edited text exist in one sentence only and are not checked.
- MR2 (:class:`SamePredictionsUnderPermutation`, TIN eq. 4): the predictions are the same,
  entity by entity, after following the shuffle's permutation. The paper shuffles the
  entities the system under test predicted; the shuffle here is built once from a
  reference NER, so a group applies only when the model's source prediction contains
  every moved entity with the category it was moved as.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.predictions import Prediction
from ..core.relation import Check, Group, OutputProperty
from .labels import Granularity, same_label
from .locate import OffsetMap, SuspiciousEntity, locate

_SHOWN = 3


def _text(x: Any) -> str:
    return str(getattr(x, "text", ""))


def suspicious_entities(
    group: Group,
    sources: Sequence[Prediction],
    followups: Sequence[Prediction],
    *,
    granularity: Granularity = "fine",
    by_text: bool = False,
) -> list[SuspiciousEntity]:
    """The suspicious entities of an evaluated group (its first source vs each follow-up)."""
    offsets = OffsetMap.from_meta(group.meta)
    src_text = _text(group.sources[0])
    out: list[SuspiciousEntity] = []
    for fu_input, fu_pred in zip(group.followups, followups):
        out.extend(
            locate(
                src_text,
                sources[0].spans,
                _text(fu_input),
                fu_pred.spans,
                offsets,
                granularity=granularity,
                by_text=by_text,
            )
        )
    return out


def _verdict(group: Group, found: list[SuspiciousEntity], expected: str, what: str) -> Check:
    if not found:
        return Check("pass", expected, f"{what}: every entity in both sentences kept its prediction")
    src, fu = _text(group.sources[0]), _text(group.followups[0])
    shown = "; ".join(s.describe(src, fu) for s in found[:_SHOWN])
    more = f" (+{len(found) - _SHOWN} more)" if len(found) > _SHOWN else ""
    return Check("violation", expected, f"{len(found)} suspicious: {shown}{more}")


class SameEntityLabels(OutputProperty):
    """MR1: an entity present in both sentences gets the same prediction in both.

    Parameters
    ----------
    granularity:
        ``"fine"`` compares canonical labels; ``"coarse"`` compares CoNLL classes, for a
        system whose scheme cannot tell GPE from LOC.
    """

    def __init__(self, granularity: Granularity = "fine") -> None:
        same_label(None, None, granularity)  # validates the value
        self.granularity = granularity
        self.description = f"entities in both sentences keep their labels ({granularity})"

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        found = suspicious_entities(group, sources, followups, granularity=self.granularity)
        return _verdict(group, found, "same labels for entities in both sentences", "MR1")


class SamePredictionsUnderPermutation(OutputProperty):
    """MR2: the follow-up's predictions equal the source's, up to the shuffle's permutation.

    Entities are paired through the draft's offset map (kept ranges and moved entities)
    and, where a rewrite changed a letter's case, by their text.
    """

    def __init__(self, granularity: Granularity = "fine") -> None:
        same_label(None, None, granularity)
        self.granularity = granularity
        self.description = f"same predictions up to the permutation ({granularity})"

    def applies(self, group: Group, sources: Sequence[Prediction]) -> str | None:
        perm = group.meta.get("permutation") or ()
        if not perm:
            return None
        text = _text(group.sources[0])
        predicted = {(s.start, s.end): s.label for s in sources[0].spans}
        for entry in perm:
            start, end, label = int(entry[0]), int(entry[1]), entry[4] if len(entry) > 4 else None
            got = predicted.get((start, end), "missing")
            mention = text[start:end]
            if got == "missing":
                return f"the model did not predict {mention!r} as an entity; the shuffle moved it as {label}"
            if label is not None and not same_label(got, label, self.granularity):
                return f"the model predicted {mention!r} as {got}; the shuffle moved it as {label}"
        return None

    def check(self, group: Group, sources: Sequence[Prediction], followups: Sequence[Prediction]) -> Check:
        found = suspicious_entities(group, sources, followups, granularity=self.granularity, by_text=True)
        return _verdict(group, found, "same predictions up to the permutation", "MR2")
