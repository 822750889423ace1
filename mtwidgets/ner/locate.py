"""Suspicious-entity location (TIN, section 3.5.1) and the four NER error categories.

An entity is *suspicious* when it occurs in both sentences of a group and the model's
prediction for it differs between them. "Occurs in both" is decided by character
offsets, not by string search: a transformation's draft records every source range it
kept verbatim (``meta["alignment"]``) and every entity it moved (``meta["permutation"]``),
so an entity is found at its new offsets even when its text occurs twice. The prediction
*for* an entity range is its reading in that sentence: the label of a predicted span with
exactly that range, ``None`` (the paper's NULL) when no predicted span touches it, or a
*partial* reading when predicted spans overlap it without matching it.

Error categories (TIN, section 4.6) need the truth, so :func:`judge` compares a
sentence's prediction with gold spans around one range: omission (gold entity, nothing
predicted), over-labeling (predicted, no gold entity), incorrect category (same ranges,
other labels) and range error (the ranges differ). Without gold, :attr:`SuspiciousEntity.kind`
says what kind of disagreement the two sentences show.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import InputError
from ..core.spans import Span
from .labels import Granularity, coarse, same_label

CATEGORIES: tuple[str, ...] = ("omission", "over-labeling", "incorrect category", "range error")
Kind = Literal["label", "presence", "range"]
# What each gold-free disagreement suggests, for data without gold.
KIND_CATEGORY: Mapping[str, str] = {
    "label": "incorrect category",
    "presence": "omission or over-labeling",
    "range": "range error",
}


@dataclass(frozen=True)
class OffsetMap:
    """Character correspondence between a source sentence and its follow-up.

    Parameters
    ----------
    pieces:
        ``(src_start, src_end, fu_start, fu_end)`` ranges kept verbatim (equal lengths).
    moved:
        ``(src_start, src_end, fu_start, fu_end)`` whole entities moved by a shuffle.
    """

    pieces: tuple[tuple[int, int, int, int], ...] = ()
    moved: tuple[tuple[int, int, int, int], ...] = ()

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> OffsetMap:
        """Read a draft's ``alignment`` and ``permutation`` (missing keys: no correspondence)."""
        raw: list[tuple[int, int, int, int]] = sorted(
            (int(p[0]), int(p[1]), int(p[2]), int(p[3])) for p in meta.get("alignment", ()) or ()
        )
        for p in raw:
            if len(p) != 4 or p[1] - p[0] != p[3] - p[2] or p[1] < p[0]:
                raise InputError(
                    f"alignment entry {list(p)} is not [src_start, src_end, fu_start, fu_end] with equal lengths; "
                    "a transformation must record only ranges it kept verbatim"
                )
        merged: list[tuple[int, int, int, int]] = []
        for p in raw:  # join pieces contiguous in both texts, so an entity across a split still maps
            if merged and merged[-1][1] == p[0] and merged[-1][3] == p[2]:
                merged[-1] = (merged[-1][0], p[1], merged[-1][2], p[3])
            elif p[1] > p[0]:
                merged.append(p)
        moved = tuple(tuple(int(v) for v in m[:4]) for m in meta.get("permutation", ()) or ())
        return cls(tuple(merged), moved)  # type: ignore[arg-type]

    def to_followup(self, span: Span) -> Span | None:
        """Where ``span`` of the source is in the follow-up, or ``None`` if it was edited."""
        return self._map(span, forward=True)

    def to_source(self, span: Span) -> Span | None:
        """Where ``span`` of the follow-up is in the source, or ``None`` if it is new."""
        return self._map(span, forward=False)

    def _map(self, span: Span, *, forward: bool) -> Span | None:
        a, b = (0, 2) if forward else (2, 0)
        for m in self.moved:
            if (m[a], m[a + 1]) == (span.start, span.end):
                return Span(m[b], m[b + 1], span.label)
        for p in self.pieces:
            if p[a] <= span.start and span.end <= p[a + 1]:
                return span.shifted(p[b] - p[a])
        return None


@dataclass(frozen=True)
class Reading:
    """What a sentence's prediction says about one range: an exact label, NULL or partial."""

    label: str | None  # label of the exactly matching predicted span
    overlaps: tuple[Span, ...]  # predicted spans touching the range

    def describe(self, text: str) -> str:
        if not self.overlaps:
            return "no entity"
        if self.label is not None and len(self.overlaps) == 1:
            return self.label
        return "partial: " + ", ".join(f"{text[s.start : s.end]!r} {s.label}" for s in self.overlaps)


def reading(spans: Iterable[Span], target: Span) -> Reading:
    """The reading of ``target`` in a prediction's ``spans``."""
    over = tuple(s for s in spans if s.overlaps(target))
    exact = [s for s in over if (s.start, s.end) == (target.start, target.end)]
    if exact and len(over) == 1:
        return Reading(exact[0].label, over)
    return Reading(None, over)


@dataclass(frozen=True)
class SuspiciousEntity:
    """An entity present in both sentences whose prediction differs between them.

    ``source_span``/``followup_span`` carry the entity's offsets in each sentence;
    ``source``/``followup`` are the readings there.
    """

    text: str
    source_span: Span
    followup_span: Span
    source: Reading
    followup: Reading
    kind: Kind

    def describe(self, source_text: str, followup_text: str) -> str:
        return (
            f"{self.text!r}: {self.source.describe(source_text)} in the source, "
            f"{self.followup.describe(followup_text)} in the follow-up"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "source_span": [self.source_span.start, self.source_span.end],
            "followup_span": [self.followup_span.start, self.followup_span.end],
            "source_label": self.source.label,
            "followup_label": self.followup.label,
            "source_overlaps": [s.to_dict() for s in self.source.overlaps],
            "followup_overlaps": [s.to_dict() for s in self.followup.overlaps],
            "kind": self.kind,
        }


def _find_all(haystack: str, needle: str) -> list[int]:
    hay, ndl, out, pos = haystack.lower(), needle.lower(), [], 0
    while ndl and (pos := hay.find(ndl, pos)) >= 0:
        out.append(pos)
        pos += 1
    return out


def _relative(reading_: Reading, anchor: Span) -> tuple[tuple[int, int, str | None], ...]:
    return tuple((s.start - anchor.start, s.end - anchor.start, s.label) for s in reading_.overlaps)


def _same(a: Reading, b: Reading, sa: Span, sb: Span, granularity: Granularity) -> bool:
    ra, rb = _relative(a, sa), _relative(b, sb)
    if [(s, e) for s, e, _ in ra] != [(s, e) for s, e, _ in rb]:
        return False
    return all(same_label(x[2], y[2], granularity) for x, y in zip(ra, rb))


def _kind(a: Reading, b: Reading) -> Kind:
    if a.label is not None and b.label is not None:
        return "label"
    if (a.label is not None and not b.overlaps) or (b.label is not None and not a.overlaps):
        return "presence"
    return "range"


def locate(
    source_text: str,
    source_spans: Sequence[Span],
    followup_text: str,
    followup_spans: Sequence[Span],
    offsets: OffsetMap,
    *,
    granularity: Granularity = "fine",
    by_text: bool = False,
) -> list[SuspiciousEntity]:
    """The suspicious entities of one source/follow-up pair (TIN, Figure 4).

    Every predicted span of either sentence that the offset map carries to the other
    sentence is an entity present in both; it is suspicious when its readings differ.

    Parameters
    ----------
    by_text:
        Also pair predicted spans the map cannot carry with a case-insensitive occurrence
        of their text in the other sentence. Used for MR2, where no entity is edited but a
        structural rewrite may change a first letter's case ("The Guardian ..." ->
        "Did the Guardian ...?"); an entity whose text is absent from the other sentence
        is not in both and is never suspicious.
    """
    pairs: dict[tuple[int, int, int, int], tuple[Span, Span]] = {}

    def counterpart(span: Span, text: str, other: str, carry: Any, back: Any) -> Span | None:
        """Where ``span`` of ``text`` is in ``other``: through the offset map, else (by_text)
        at the first occurrence of its text the map does not already account for."""
        found = carry(span)
        if found is not None or not by_text:
            return found
        mention = text[span.start : span.end]
        hits = [h for h in _find_all(other, mention) if back(Span(h, h + len(mention))) is None]
        return Span(hits[0], hits[0] + len(mention)) if hits else None

    def add(src: Span, fu: Span) -> None:
        pairs.setdefault(
            (src.start, src.end, fu.start, fu.end), (Span(src.start, src.end), Span(fu.start, fu.end))
        )

    for s in source_spans:
        fu = counterpart(s, source_text, followup_text, offsets.to_followup, offsets.to_source)
        if fu is not None:
            add(s, fu)
    for f in followup_spans:
        src = counterpart(f, followup_text, source_text, offsets.to_source, offsets.to_followup)
        if src is not None:
            add(src, f)
    out: list[SuspiciousEntity] = []
    for src, fu in sorted(pairs.values(), key=lambda p: (p[0].start, p[0].end)):
        a, b = reading(source_spans, src), reading(followup_spans, fu)
        if not _same(a, b, src, fu, granularity):
            out.append(SuspiciousEntity(source_text[src.start : src.end], src, fu, a, b, _kind(a, b)))
    return out


# -- judging against gold ------------------------------------------------------------------
def _fold(spans: Iterable[Span], granularity: Granularity) -> list[Span]:
    if granularity == "fine":
        return [s for s in spans if s.label is not None]
    return [s for s in spans if s.label is not None and coarse(s.label) is not None]


def region(pred: Sequence[Span], gold: Sequence[Span], target: Span) -> tuple[list[Span], list[Span]]:
    """The predicted and gold spans connected to ``target`` through overlaps (a fixpoint)."""
    lo, hi = target.start, target.end
    while True:
        box = Span(lo, hi)
        touched = [s for s in (*pred, *gold) if s.overlaps(box)]
        new_lo = min([lo, *(s.start for s in touched)])
        new_hi = max([hi, *(s.end for s in touched)])
        if (new_lo, new_hi) == (lo, hi):
            return [s for s in pred if s.overlaps(box)], [s for s in gold if s.overlaps(box)]
        lo, hi = new_lo, new_hi


def judge(
    pred: Sequence[Span], gold: Sequence[Span], target: Span, granularity: Granularity = "fine"
) -> str | None:
    """``None`` when the prediction around ``target`` equals gold, else the error category.

    Around means the spans connected to ``target`` by overlaps, so a prediction split in
    two ("Project" + "Stratum" for gold "Project Stratum") is one range error, not two.
    """
    p, g = region(_fold(pred, granularity), _fold(gold, granularity), target)
    if [(s.start, s.end) for s in p] == [(s.start, s.end) for s in g]:
        if all(same_label(a.label, b.label, granularity) for a, b in zip(p, g)):
            return None
        return "incorrect category"
    if not p:
        return "omission"
    if not g:
        return "over-labeling"
    return "range error"


def followup_gold(offsets: OffsetMap, gold: Sequence[Span]) -> list[Span] | None:
    """The follow-up's gold: the source gold carried through the kept and moved ranges.

    ``None`` (unknown) when a gold entity was edited. Text the transformation wrote is
    taken to hold no entity: the TIN transformations only write verbs, adjectives,
    common-noun phrases, auxiliaries and moved entities (which carry their gold).
    """
    out: list[Span] = []
    for g in gold:
        moved = offsets.to_followup(g)
        if moved is None:
            return None
        out.append(moved)
    return sorted(out, key=lambda s: (s.start, s.end))


def judge_region(
    pred: Sequence[Span], gold: Sequence[Span], target: Span, granularity: Granularity = "fine"
) -> tuple[str | None, Span]:
    """:func:`judge`, with the region it judged (to count one error once, from any of its parts)."""
    p, g = region(_fold(pred, granularity), _fold(gold, granularity), target)
    lo = min([target.start, *(s.start for s in (*p, *g))])
    hi = max([target.end, *(s.end for s in (*p, *g))])
    return judge(pred, gold, target, granularity), Span(lo, hi)
